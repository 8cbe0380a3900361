import { expect, test, type BrowserContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import { TEST_CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../playwright.config';
import type * as MediaModule from '../../src/main-thread/media/index';
import type { systemClock } from '../../src/common/clock';
import type { OperationQueue } from '../../src/common/OperationQueue';

/**
 * The media modules in real Chromium with its fake camera, microphone and screen (DESIGN.md
 * "Browser tests"). A Vite dev server, started here, serves the repository's TypeScript as browser
 * modules; each test opens a blank page on that server's origin (127.0.0.1 is a secure context),
 * imports src/main-thread/media, wires it to the real navigator.mediaDevices (`window.parley`) and
 * drives it with page.evaluate. No app, no signalling server. Run it in a loopback-only namespace:
 *   unshare -n sh -c 'ip link set lo up && npx playwright test tests/e2e/media-devices.spec.ts'
 */

/** What openMediaPage wires in the page. */
interface Wired {
  media: typeof MediaModule;
  devices: MediaModule.DeviceManager;
  items: MediaModule.MediaItems;
  queue: OperationQueue;
  capture: MediaModule.MediaCapture;
  clock: typeof systemClock;
  logger: { info(message: string): void; error(message: string): void };
  logged: string[];
  captureErrors: Array<{ name: string; devices: readonly string[]; userMessage: string; message: string }>;
}
declare global {
  interface Window {
    parley: Wired;
  }
}

let vite: ViteDevServer;
let origin: string;

test.beforeAll(async () => {
  vite = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('../..', import.meta.url)),
    appType: 'custom',
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await vite.listen();
  const address = vite.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('Vite did not listen on a port');
  origin = `http://127.0.0.1:${address.port}`;
});

test.afterAll(async () => {
  await vite.close();
});

async function openMediaPage(page: Page): Promise<void> {
  await page.route(`${origin}/media-test`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>media test</title>' }),
  );
  await page.goto(`${origin}/media-test`);
  await page.addScriptTag({
    type: 'module',
    content: `
      import * as media from '/src/main-thread/media/index.ts';
      import { systemClock as clock } from '/src/common/clock.ts';
      import { OperationQueue } from '/src/common/OperationQueue.ts';
      const logged = [];
      const captureErrors = [];
      const logger = { info: () => {}, error: (message) => logged.push(message) };
      const devices = new media.DeviceManager({ mediaDevices: navigator.mediaDevices, clock, logger });
      const items = new media.MediaItems({ clock, probeLoaded: (item, stream) => media.probeMediaLoaded(item.kind, stream, clock) });
      const queue = new OperationQueue();
      const capture = new media.MediaCapture({
        mediaDevices: navigator.mediaDevices, devices, media: items, queue, clock, logger,
        onError: (error) => captureErrors.push({ name: error.name, devices: error.devices, userMessage: error.userMessage, message: error.message }),
      });
      window.parley = { media, devices, items, queue, capture, clock, logger, logged, captureErrors };
    `,
  });
  await page.waitForFunction(() => window.parley !== undefined);
}

test.describe('devices and capture in Chromium with fake devices', () => {
  test('lists the real devices with their labels, and the permissions as granted', async ({ page }) => {
    await openMediaPage(page);
    const state = await page.evaluate(async () => {
      await window.parley.devices.refresh();
      return window.parley.devices.state;
    });
    expect(state).toMatchObject({
      hasCamera: true,
      hasMicrophone: true,
      hasAudioOutput: true,
      cameraPermissionGranted: true,
      microphonePermissionGranted: true,
      cameraPermissionDenied: false,
      requestingCapture: false,
    });
    expect(state.list.map((device) => `${device.kind}: ${device.label}`)).toEqual([
      'audioinput: Fake Default Audio Input',
      'audioinput: Fake Audio Input 1',
      'audioinput: Fake Audio Input 2',
      'videoinput: fake_device_0',
      'audiooutput: Fake Default Audio Output',
      'audiooutput: Fake Audio Output 1',
      'audiooutput: Fake Audio Output 2',
    ]);
  });

  test('captures camera and microphone as shared local items, audio processing on', async ({ page }) => {
    await openMediaPage(page);
    const result = await page.evaluate(async () => {
      const { capture, items, devices } = window.parley;
      const flagsDuringCapture: boolean[] = [];
      devices.on('change', (state) => flagsDuringCapture.push(state.requestingCapture));
      // The playback probe fills loaded/width/height (the video check gives up after 500 ms).
      const videoLoaded = new Promise<void>((resolve) =>
        items.on('updated', (item) => item.kind === 'video' && item.loaded && resolve()),
      );
      const captured = await capture.captureUserMedia({ audio: true, video: true });
      const audio = items.getTrack(captured?.audio ?? '');
      const video = items.getTrack(captured?.video ?? '');
      await videoLoaded;
      const settings = audio?.getSettings();
      return {
        items: items.local().map(({ kind, shared, renderMirrored, screenCapture, loaded, width, height }) => ({ kind, shared, renderMirrored, screenCapture, loaded, width, height })),
        processing: [settings?.autoGainControl, settings?.echoCancellation, settings?.noiseSuppression],
        videoLive: video?.readyState,
        flagsDuringCapture,
        errors: window.parley.captureErrors,
      };
    });
    expect(result.items).toEqual([
      { kind: 'audio', shared: true, renderMirrored: false, screenCapture: false, loaded: true, width: undefined, height: undefined },
      { kind: 'video', shared: true, renderMirrored: true, screenCapture: false, loaded: true, width: 640, height: 480 },
    ]);
    expect(result.processing).toEqual([true, true, true]);
    expect(result.videoLive).toBe('live');
    expect(result.flagsDuringCapture[0]).toBe(true);
    expect(result.flagsDuringCapture.at(-1)).toBe(false);
    expect(result.errors).toEqual([]);
  });

  test('turns audio processing off for music, and hints the track', async ({ page }) => {
    await openMediaPage(page);
    const result = await page.evaluate(async () => {
      const { capture, items } = window.parley;
      const captured = await capture.captureUserMedia({ audio: true, audioHint: 'music' });
      const track = items.getTrack(captured?.audio ?? '');
      const settings = track?.getSettings();
      return { hint: track?.contentHint, processing: [settings?.autoGainControl, settings?.echoCancellation, settings?.noiseSuppression] };
    });
    expect(result).toEqual({ hint: 'music', processing: [false, false, false] });
  });

  test('refuses real tracks of the wrong kind in the spec’s words', async ({ page }) => {
    await openMediaPage(page);
    const messages = await page.evaluate(async () => {
      const { items } = window.parley;
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
      const [audio] = stream.getAudioTracks();
      const [video] = stream.getVideoTracks();
      const attempt = (add: () => void): string => {
        try {
          add();
          return 'added';
        } catch (error) {
          return (error as Error).message;
        }
      };
      return [
        attempt(() => video && items.addLocalAudio(video, stream)),
        attempt(() => audio && items.addLocalVideo(audio, stream)),
        items.all().length,
      ];
    });
    expect(messages).toEqual(['Incorrect media type. Expected audio, got: video', 'Incorrect media type. Expected video, got: audio', 0]);
  });

  test('moves the camera between resolution tiers with applyConstraints, only when the tier differs', async ({ page }) => {
    await openMediaPage(page);
    const result = await page.evaluate(async () => {
      const { capture, items, queue, logger, media } = window.parley;
      const captured = await capture.captureUserMedia({ video: true });
      const track = items.getTrack(captured?.video ?? '');
      if (!track) throw new Error('no camera track');
      let applied = 0;
      const apply = track.applyConstraints.bind(track);
      track.applyConstraints = (constraints) => {
        applied += 1;
        return apply(constraints);
      };
      const supported = navigator.mediaDevices.getSupportedConstraints();
      const moveTo = async (videoReceivingPeers: number) => {
        const tier = media.captureResolutionTier({ videoReceivingPeers, sharedVideoStreams: 1, relayInUse: false, relayPending: false });
        if (!tier) throw new Error('no tier');
        await queue.push('adjust', () => media.adjustVideoCaptureResolution([track], tier, supported, logger));
        const { width, height, frameRate } = track.getSettings();
        return { width, height, frameRate, applied };
      };
      return { initial: track.getSettings().width, three: await moveTo(3), threeAgain: await moveTo(3), one: await moveTo(1) };
    });
    expect(result.initial).toBe(640);
    expect(result.three).toEqual({ width: 320, height: 240, frameRate: 15, applied: 1 });
    expect(result.threeAgain.applied).toBe(1);
    // Chromium's fake camera gives at most 20 fps: 800x600 arrives at 20, and the 30 asked for is not asked again.
    expect(result.one).toEqual({ width: 800, height: 600, frameRate: 20, applied: 2 });
  });

  test('removes an item whose track ends, and stops the track of an item removed', async ({ page }) => {
    await openMediaPage(page);
    const result = await page.evaluate(async () => {
      const { items } = window.parley;
      // A generated track ends for real when its writer closes, as a track does when its device goes.
      type TrackGenerator = new (init: { kind: 'video' }) => MediaStreamTrack & { writable: WritableStream<VideoFrame> };
      const Generator = (window as unknown as { MediaStreamTrackGenerator: TrackGenerator }).MediaStreamTrackGenerator;
      const generated = new Generator({ kind: 'video' });
      items.addLocalVideo(generated, new MediaStream([generated]));
      items.share(generated.id);
      const ended = new Promise((resolve) => items.on('removed', resolve));
      await generated.writable.getWriter().close();
      await ended;
      const afterEnded = items.get(generated.id);

      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const [microphone] = stream.getAudioTracks();
      if (!microphone) throw new Error('no microphone');
      items.addLocalAudio(microphone, stream);
      items.remove(microphone.id);
      return { afterEnded, removedState: microphone.readyState, left: items.all().length };
    });
    expect(result).toEqual({ afterEnded: undefined, removedState: 'ended', left: 0 });
  });

  test('shares the screen as a separate screen-capture item', async ({ page }) => {
    await openMediaPage(page);
    const result = await page.evaluate(async () => {
      const { capture, items } = window.parley;
      const camera = await capture.captureUserMedia({ video: true });
      const screen = await capture.captureDisplay();
      const track = items.getTrack(screen?.video ?? '');
      return {
        supported: capture.screenCaptureSupported,
        screen: items.get(screen?.video ?? ''),
        cameraStillShared: items.get(camera?.video ?? '')?.shared,
        hint: track?.contentHint,
        surface: track?.getSettings().displaySurface,
      };
    });
    expect(result.supported).toBe(true);
    expect(result.screen).toMatchObject({ kind: 'video', screenCapture: true, renderMirrored: false, shared: true });
    expect(result.cameraStillShared).toBe(true);
    expect(result.hint).toBe('detail');
    expect(result.surface).toBe('monitor');
  });

  test('routes audio to a chosen output device', async ({ page }) => {
    await openMediaPage(page);
    const result = await page.evaluate(async () => {
      const { devices, media } = window.parley;
      await devices.refresh();
      const output = devices.state.list.find((device) => device.label === 'Fake Audio Output 1');
      const element = document.createElement('audio');
      const routed = await media.setAudioOutput(element, output?.deviceId ?? 'missing');
      return { supported: media.supportsAudioOutputSelection(), routed, sinkMatches: element.sinkId === output?.deviceId };
    });
    expect(result).toEqual({ supported: true, routed: true, sinkMatches: true });
  });
});

/**
 * A media page in a browser without the fake permission UI: Chromium asks the context's
 * permissions, so a context without them gets the real refusal and the real unlabelled
 * placeholders, and one whose permissions are cleared ends the tracks they allowed.
 */
async function withContextPermissions(playwright: PlaywrightWorkerArgs['playwright'], run: (context: BrowserContext, page: Page) => Promise<void>): Promise<void> {
  const browser = await playwright.chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: TEST_CHROMIUM_ARGS.filter((arg) => arg !== '--use-fake-ui-for-media-stream'),
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openMediaPage(page);
    await run(context, page);
  } finally {
    await browser.close();
  }
}

test.describe('a browser that has not been allowed the camera and microphone', () => {
  test('keeps unlabelled devices out of the list, reports the refusal, and lists them once allowed', async ({ playwright }) => {
    await withContextPermissions(playwright, async (context, page) => {
      const before = await page.evaluate(async () => {
        const { devices, capture, items, captureErrors, logged } = window.parley;
        await devices.refresh();
        const listed = devices.state;
        const captured = await capture.captureUserMedia({ audio: true, video: true });
        return { listed, captured, afterRefusal: devices.state, items: items.all().length, captureErrors, logged };
      });
      expect(before.listed).toMatchObject({
        list: [],
        hasCamera: true,
        hasMicrophone: true,
        hasAudioOutput: true,
        cameraPermissionGranted: false,
        microphonePermissionGranted: false,
      });
      expect(before.captured).toBeUndefined();
      expect(before.items).toBe(0);
      expect(before.afterRefusal).toMatchObject({ cameraPermissionDenied: true, microphonePermissionDenied: true, requestingCapture: false });
      expect(before.captureErrors).toEqual([
        {
          name: 'CapturePermissionError',
          devices: ['camera', 'microphone'],
          userMessage: "Parley isn't allowed to use your camera and microphone. Allow access in your browser's site settings, then try again.",
          message: 'getUserMedia failed (camera and microphone): NotAllowedError: Permission denied',
        },
      ]);
      expect(before.logged).toEqual([before.captureErrors[0]?.message]);

      await context.grantPermissions(['camera', 'microphone'], { origin });
      const after = await page.evaluate(async () => {
        const { devices, capture } = window.parley;
        await devices.refresh();
        const listed = devices.state;
        const captured = await capture.captureUserMedia({ audio: true, video: true });
        return { listed, captured, final: devices.state };
      });
      expect(after.listed).toMatchObject({ cameraPermissionGranted: true, microphonePermissionGranted: true });
      expect(after.listed.list.length).toBeGreaterThan(0);
      expect(after.captured?.audio).toBeDefined();
      expect(after.final).toMatchObject({ cameraPermissionDenied: false, microphonePermissionDenied: false });
    });
  });
});

test.describe('a camera or microphone that stops while in use is said in words for the person (SPEC §4 Media: ending a track removes the item)', () => {
  test('access revoked while camera and microphone run: Chromium ends their tracks, their items go, and each is reported once', async ({ playwright }) => {
    await withContextPermissions(playwright, async (context, page) => {
      await context.grantPermissions(['camera', 'microphone'], { origin });
      const captured = await page.evaluate(() => window.parley.capture.captureUserMedia({ audio: true, video: true }));
      expect(captured?.audio).toBeDefined();
      expect(captured?.video).toBeDefined();

      await context.clearPermissions();
      await page.waitForFunction(() => window.parley.items.all().length === 0 && window.parley.captureErrors.length === 2);
      const reported = await page.evaluate(() => window.parley.captureErrors.map(({ name, devices, userMessage }) => ({ name, devices, userMessage })));
      expect(reported).toEqual(
        expect.arrayContaining(
          (['camera', 'microphone'] as const).map((device) => ({
            name: 'CaptureEndedError',
            devices: [device],
            userMessage: `Your ${device} stopped — it may have been unplugged. Plugged back in, it comes back by itself; or pick another and turn it on.`,
          })),
        ),
      );
    });
  });
});
