import { defineConfig } from '@playwright/test';

/** Debian's Chromium with fake devices; see DESIGN.md "Browser tests". */
export const CHROMIUM_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--auto-select-desktop-capture-source=Entire screen',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--allow-loopback-in-peer-connection',
];

/** The files whose calls run through the media relay. */
const RELAY_CALLS = ['**/relay-call.spec.ts', '**/call-ui-relay.spec.ts'];

export default defineConfig({
  testDir: 'tests/e2e',
  // Files are independent (each worker runs its own servers on free ports): run them side by side.
  fullyParallel: false,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    launchOptions: { executablePath: process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'app', testIgnore: RELAY_CALLS },
    // Three people each encoding 720p simulcast for the relay: two such calls at once on two cores
    // starve the encoders, which then drop the high layer these files check for. One at a time.
    { name: 'relay calls', testMatch: RELAY_CALLS, workers: 1 },
  ],
});
