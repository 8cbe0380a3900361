import { fixturePageTest } from './fixture-page-server';

/** The call fixture page (tests/e2e/call-fixture): a Call driven without the app's UI. */
export const test = fixturePageTest('call-fixture');

export { expect } from './fixtures';
