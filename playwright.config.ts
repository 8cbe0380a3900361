import { defineConfig } from '@playwright/test';

/** Debian's Chromium, unless PARLEY_CHROMIUM names another. */
export const CHROMIUM_EXECUTABLE = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/**
 * The features Playwright turns off in every Chromium it launches (playwright-core's
 * chromiumSwitches.ts), and the omnibox's popups. Chromium keeps only the last `--disable-features`
 * of its command line, so ours must carry Playwright's list as well;
 * tests/integration/chromium-args.test.ts holds it to the list Playwright passes.
 * The popups are Chromium's own UI, never shown headless, yet every new window (every browser
 * context) loads them in a renderer of its own: measured, six contexts of a bare page cost the
 * browser 9.4 s of CPU with them and 2.0 s without. The tests' browsers go without them; the bench's
 * keep them, as a person's window has them (the bench waits until a new window has settled).
 */
export const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

/** Debian's Chromium with fake devices, window UI and all, as the bench's people use it; see DESIGN.md "Browser tests". */
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

/** Chromium as the tests launch it: without the window UI a headless window never shows. */
export const TEST_CHROMIUM_ARGS = [...CHROMIUM_ARGS, `--disable-features=${DISABLED_FEATURES.join(',')}`];

/**
 * One fake camera per person of a relay call. Every context of a browser shares a fake device, and
 * Chromium cannot change the format of a device others hold open (applyConstraints then keeps
 * it), so people sharing one camera could never move up to the relay's capture size together.
 * Chromium's second fake device is a depth camera (Y16), which WebRTC cannot encode: it is skipped.
 */
export const FAKE_CAMERAS = ['fake_device_0', 'fake_device_2', 'fake_device_3'];

/** Chromium for the relay calls: four fake devices, so that each of three people has a camera of their own. */
export const RELAY_CHROMIUM_ARGS = TEST_CHROMIUM_ARGS.map((arg) => (arg === '--use-fake-device-for-media-stream' ? `${arg}=device-count=4` : arg));

/** Chromium as the calls of several people, each on a camera of their own, launch it. */
export const RELAY_LAUNCH_OPTIONS = { executablePath: CHROMIUM_EXECUTABLE, args: RELAY_CHROMIUM_ARGS };

/** The files whose calls run through the media relay (two or three people, each on a camera of their own). */
const RELAY_CALLS = ['**/relay-call.spec.ts', '**/call-ui-relay.spec.ts', '**/faults-call.spec.ts', '**/relay-hosts.spec.ts', '**/simplewebrtc-relay.spec.ts'];
/** Fault cases of two people (the chat's, and calls on direct connections): most of their time is spent waiting out an outage. */
const WAITING_FAULTS = ['**/faults-chat.spec.ts', '**/faults-call-direct.spec.ts'];
/**
 * The tag of a case that holds three or more people in a mesh call: the `crowded calls` project runs
 * those cases one at a time, with nothing beside them. Each person encodes their camera once per
 * other person; beside another test's call on two cores a four-person mesh took 7–18 s to answer a
 * look at an attribute, and axe-core 90 s for one page.
 */
export const CROWDED_CALL = { tag: '@crowded-call' };
const CROWDED_CALLS = new RegExp(CROWDED_CALL.tag);

export default defineConfig({
  testDir: 'tests/e2e',
  // Files are independent (each worker runs its own servers on free ports): run them side by side.
  fullyParallel: false,
  workers: 2,
  // Two workers share two cores with calls of three or four people: a case of a few joins and
  // messages, each step quick, ran past 60 s beside another file's call (rooms-chat's first case once,
  // and five cases that each had to be given 120 s). Steps keep their own 15 s expect timeout.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: TEST_CHROMIUM_ARGS },
    // A failure's trace keeps every action and DOM snapshot, but not the screencast: recording it
    // cost a two-person call 0.6 of a core on top of its 1.0 (the browser and GPU processes encode
    // a frame of every page whenever its videos change), and every case runs with tracing on.
    trace: { mode: 'retain-on-failure', screenshots: false },
  },
  projects: [
    { name: 'app', testIgnore: [...RELAY_CALLS, ...WAITING_FAULTS], grepInvert: CROWDED_CALLS },
    // `CROWDED_CALL` cases, one at a time; `npm test` runs this project on its own.
    { name: 'crowded calls', testIgnore: [...RELAY_CALLS, ...WAITING_FAULTS], grep: CROWDED_CALLS, workers: 1 },
    // Mostly waiting out their outages: the cases of a file spread over the workers (each with its
    // own servers). Not three at a time: the load then shows in the figures they print.
    {
      name: 'faults',
      testMatch: WAITING_FAULTS,
      fullyParallel: true,
      use: { launchOptions: RELAY_LAUNCH_OPTIONS },
    },
    // Three people each encoding 720p simulcast for the relay: beside another call on two cores
    // their encoders drop the layers these files check for. One at a time, and `npm test` runs this
    // project on its own after the others.
    {
      name: 'relay calls',
      testMatch: RELAY_CALLS,
      workers: 1,
      use: { launchOptions: RELAY_LAUNCH_OPTIONS },
    },
  ],
});
