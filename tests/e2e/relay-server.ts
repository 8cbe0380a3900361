import { fixturePageTest, startFixturePageServer, type FixturePageServer } from './fixture-page-server';

const FIXTURE = 'relay-fixture';
const PREBUNDLED = ['mediasoup-client'];

/** The relay fixture page (tests/e2e/relay-fixture): calls that switch to the relay, without the app's UI. */
export const test = fixturePageTest(FIXTURE, PREBUNDLED);

/** The same page outside Playwright Test (the benchmarks), in front of the gateway at `gatewayUrl`. */
export function startRelayFixturePage(gatewayUrl: string): Promise<FixturePageServer> {
  return startFixturePageServer(FIXTURE, gatewayUrl, PREBUNDLED);
}

export { expect } from './fixtures';
