import { fixturePageTest } from './fixture-page-server';

/** The relay fixture page (tests/e2e/relay-fixture): calls that switch to the relay, without the app's UI. */
export const test = fixturePageTest('relay-fixture', ['mediasoup-client']);

export { expect } from './fixtures';
