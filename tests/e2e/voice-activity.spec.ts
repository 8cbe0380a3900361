import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';
import { TEST_CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../playwright.config';
import type { FramePath } from '../../src/main-thread/voice/VoiceActivityMonitor';
import { VOLUME_FLOOR_DB } from '../../src/worker/ItemVoiceAnalysis';
import { DEFAULT_INPUT_LOST_AFTER_MS } from '../../src/worker/VoiceActivityDetector';
import { CPU_PROFILE_TRACE_CATEGORIES, pageCpuProfile } from '../support/cpuProfileTrace';
import type { VoiceFixture, VoiceFixtureSnapshot } from './voice-fixture/main';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SENTENCE = 'Parley shows who is speaking while the call goes on.';
const LEAD_SILENCE_S = 1.5;
/** Long enough for speaking to end, the quiet after it to be held, and the test to disable the microphone. */
const ROOM_NOISE_S = 10;

let workDir: string;
let speechFile: string;
let speechStartMs: number;
let speechEndMs: number;
let vite: ViteDevServer;
let fixtureUrl: string;

test.beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'parley-voice-'));
  const spoken = join(workDir, 'espeak.wav');
  const trimmed = join(workDir, 'trimmed.wav');
  speechFile = join(workDir, 'speech-48k.wav');
  execFileSync('espeak-ng', ['-w', spoken, SENTENCE]);
  // 48 kHz mono 16-bit, trimmed where it is quieter than −60 dBFS so that the speech spans exactly
  // the sound (well below the speaking threshold either side of it).
  const trimQuiet = ['silence', '1', '0.01', '0.1%'];
  execFileSync('sox', [spoken, '-r', '48000', '-c', '1', '-b', '16', trimmed, ...trimQuiet, 'reverse', ...trimQuiet, 'reverse']);
  // Digital silence before, so that a false start would show; after, a room's noise floor (white
  // noise at about −70 dBFS, far below the speaking threshold), so that the input stays present
  // until the test disables the track. It must be long: at the end of a %noloop file the fake
  // device keeps repeating its last buffer.
  const led = join(workDir, 'led.wav');
  const roomNoise = join(workDir, 'room-noise.wav');
  execFileSync('sox', [trimmed, led, 'pad', String(LEAD_SILENCE_S), '0']);
  execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', roomNoise, 'synth', String(ROOM_NOISE_S), 'whitenoise', 'vol', '0.0003']);
  execFileSync('sox', [led, roomNoise, speechFile]);
  const spokenSeconds = Number(execFileSync('soxi', ['-D', trimmed], { encoding: 'utf8' }));
  speechStartMs = LEAD_SILENCE_S * 1_000;
  speechEndMs = speechStartMs + spokenSeconds * 1_000;

  vite = await createServer({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    cacheDir: join(workDir, 'vite-cache'),
    logLevel: 'warn',
    clearScreen: false,
    server: { host: '127.0.0.1', port: 0, hmr: false, watch: null },
    // Pre-bundle up front: a dependency discovered mid-test would make Vite reload the page.
    optimizeDeps: { entries: ['tests/e2e/voice-fixture/index.html'], include: ['comlink'] },
  });
  await vite.listen();
  const base = vite.resolvedUrls?.local[0];
  if (!base) throw new Error('the Vite dev server did not report its address');
  fixtureUrl = new URL('tests/e2e/voice-fixture/index.html', base).href;
});

test.afterAll(async () => {
  await vite?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function launchWithSpeechAsMicrophone(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    // %noloop: the file plays once (after it, its last buffer repeats: hence the long noise tail).
    args: [...TEST_CHROMIUM_ARGS, `--use-file-for-fake-audio-capture=${speechFile}%noloop`],
  });
}

/** The fixture page's window (tests/e2e/voice-fixture/main.ts). */
type FixtureWindow = { readonly voiceFixture: VoiceFixture };

function snapshot(page: Page): Promise<VoiceFixtureSnapshot> {
  return page.evaluate(() => (window as unknown as FixtureWindow).voiceFixture.snapshot());
}

for (const framePath of ['track-processor', 'audio-worklet'] as const satisfies readonly FramePath[]) {
  test(`real speech through the ${framePath} path: speaking on during the speech, off after it, analysed off the main thread`, async () => {
    const browser = await launchWithSpeechAsMicrophone();
    try {
      const page = await browser.newPage();
      await page.goto(fixtureUrl);
      await page.waitForFunction(() => 'voiceFixture' in window);
      await browser.startTracing(page, { categories: CPU_PROFILE_TRACE_CATEGORIES });
      await page.evaluate((path) => (window as unknown as FixtureWindow).voiceFixture.start(path), framePath);
      if (framePath === 'audio-worklet') {
        // The context is suspended until a user gesture; the monitor's resumer takes it from there.
        await page.mouse.click(5, 5);
      }

      // Wait for speaking to be off again after the speech (the timeline is checked below).
      await expect
        .poll(
          async () => {
            const last = (await snapshot(page)).speaking.at(-1);
            return { speaking: last?.speaking, afterSpeech: (last?.atMs ?? 0) > speechEndMs };
          },
          { timeout: speechEndMs + 10_000, intervals: [100] },
        )
        .toEqual({ speaking: false, afterSpeech: true });
      // The room's quiet goes on (low noise, not digital silence) for twice the silence that loses
      // the input: it must not count as lost. Then the microphone goes digitally silent: the input is lost.
      await page.waitForTimeout(2 * DEFAULT_INPUT_LOST_AFTER_MS);
      const disabledAtMs = await page.evaluate(() => (window as unknown as FixtureWindow).voiceFixture.disableMicrophone());
      await expect.poll(async () => (await snapshot(page)).firstInputLostAtMs, { timeout: 10_000, intervals: [100] }).toBeDefined();
      const result = await snapshot(page);
      const trace = await browser.stopTracing();
      const trackState = await page.evaluate(() => (window as unknown as FixtureWindow).voiceFixture.stop());
      // The dev server serves each module under its own path, so the analysis code is what comes from src/worker/.
      const profile = pageCpuProfile(trace, fixtureUrl, (frame) => frame.url.includes('/src/worker/'));
      await test.info().attach(`${framePath} timeline and profile`, {
        contentType: 'application/json',
        body: JSON.stringify({ speechStartMs, speechEndMs, disabledAtMs, ...result, profile }, null, 2),
      });

      expect(result.framePath).toBe(framePath);
      if (framePath === 'audio-worklet') expect(result.audioContextStateAtStart).toBe('suspended');
      // Times count from before getUserMedia, so they are never earlier than the audio they report:
      // speaking turns on within the speech (not in the lead silence) …
      const onAt = result.speaking.filter((change) => change.speaking).map((change) => change.atMs);
      expect(onAt.length).toBeGreaterThan(0);
      for (const at of onAt) {
        expect(at).toBeGreaterThan(speechStartMs);
        expect(at).toBeLessThan(speechEndMs);
      }
      // … and off after it. Only the order is checked here, on a real clock and a loaded machine: how
      // many samples each takes (SPEC §9, 10 quiet ones to end speaking; DEFAULT_INPUT_LOST_AFTER_MS
      // of digital silence to lose the input) is tests/unit/voice-activity-detector.test.ts's, on fake time.
      const last = result.speaking.at(-1)!;
      expect(last.speaking).toBe(false);
      expect(last.atMs).toBeGreaterThan(speechEndMs);
      expect(result.firstInputDetectedAtMs).toBeLessThanOrEqual(onAt[0]!);
      // The input is lost only once the microphone was disabled, not in the quiet before.
      expect(result.firstInputLostAtMs).toBeGreaterThan(disabledAtMs);
      expect(result.latest).toMatchObject({ speaking: false, inputDetected: true, inputLost: true, volume: VOLUME_FLOOR_DB });
      // Stopping the analysis leaves the call's track alone.
      expect(trackState).toBe('live');

      // Where the analysis runs is read from the CPU profile, not from the page's long tasks (the
      // attachment lists them): on a loaded machine a long task comes from anything, the browser's
      // own work and the audio graph's setup included, and how long the main thread spends on voice
      // analysis in a call is a benchmark's row (`npm run bench`), not a test's bound.
      // The CPU profiler, sampling every thread of the page alike, caught the analysis code
      // (src/worker/) running on the worker and never on the main thread. Were any of it — the
      // detector, the spectrum, the frame conversion — run on the main thread, its samples there
      // would carry those source URLs.
      expect(profile.main.samples).toBeGreaterThan(0);
      expect(profile.main.matchingSamples).toBe(0);
      expect(profile.dedicatedWorkers.reduce((sum, worker) => sum + worker.matchingSamples, 0)).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });
}
