// Voice activity analysis (issue 6): the main thread's time in it during a real call, which should
// be none, and the analysis worker's CPU per analysed stream, in that call and in Node.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../playwright.config';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../../tests/support/testParley';
import { VoiceActivityDetector } from '../../src/worker/VoiceActivityDetector';
import { CPU_PROFILE_TRACE_CATEGORIES, pageCpuProfile, type ProfiledCallFrame } from '../../tests/support/cpuProfileTrace';
import type { Row } from './table';

/** The voice analysis: the worker's modules (detector, FFT, spectrum, frame conversion and the service driving them). */
const ANALYSIS_SOURCES = fileURLToPath(new URL('../../src/worker/', import.meta.url));
const TRACE_SECONDS = 20;
/** People in the profiled call: each tab analyses its own microphone and everyone else's audio. */
const CALL_SIZES = [2, 6];
/**
 * How long the profiled tab may take to hear everyone once the last person has clicked "Join call".
 * Six browsers on two cores in a slow hour take minutes (2026-12-07: the sixth person's click came
 * 40–50 s after the first's and the mesh's Jingle IQs timed out; one call had everyone heard about
 * three minutes in, four others still missed one or two people after five).
 */
const HEARING_EVERYONE_MS = 300_000;

/**
 * Whether a profiled function is voice-analysis code, i.e. was written in a module under
 * src/worker/. The bench runs the built app, where the bundler has merged and minified modules
 * into chunks, so neither file nor (reliably) function names survive. Instead the function's
 * position in its chunk is mapped back through that chunk's source map, which the build writes,
 * to its original module. Unlike telling the worker's chunk apart by URL, this still finds the
 * analysis should a change pull it into a main-thread chunk. Scripts without a source map (the
 * bundler's runtime, anything not the app's) hold no analysis; should the maps go missing
 * altogether, profileCall finds no analysis anywhere and fails rather than report zero.
 */
function isAnalysisCodeOf(parley: RunningParley): (frame: ProfiledCallFrame) => boolean {
  const sourceMaps = new Map<string, { readonly map: SourceMap; readonly mapUrl: URL } | undefined>();
  const sourceMapOf = (scriptUrl: string) => {
    if (!sourceMaps.has(scriptUrl)) {
      const mapFile = join(parley.settings.staticRoot, `${new URL(scriptUrl).pathname}.map`);
      sourceMaps.set(scriptUrl, existsSync(mapFile) ? { map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))), mapUrl: pathToFileURL(mapFile) } : undefined);
    }
    return sourceMaps.get(scriptUrl);
  };
  return (frame) => {
    const sourceMap = frame.url.startsWith(parley.url) ? sourceMapOf(frame.url) : undefined;
    if (!sourceMap) return false;
    const { originalSource } = sourceMap.map.findEntry(frame.lineNumber, frame.columnNumber) as Partial<SourceMapping>;
    return originalSource !== undefined && fileURLToPath(new URL(originalSource, sourceMap.mapUrl)).startsWith(ANALYSIS_SOURCES);
  };
}

/** Every microphone says a sentence (espeak-ng, as 48 kHz mono by sox) over and over: the fake device loops the file. */
function renderSpeech(dir: string): string {
  const spoken = join(dir, 'espeak.wav');
  const speech = join(dir, 'speech-48k.wav');
  execFileSync('espeak-ng', ['-w', spoken, 'Parley shows who is speaking while the call goes on.']);
  execFileSync('sox', [spoken, '-r', '48000', '-c', '1', '-b', '16', speech]);
  return speech;
}

/**
 * Opens the room in the person's browser and joins the call from the preview, camera
 * off: a mesh of six sending each other video would swamp a small machine with encoding, and
 * what is measured here is the audio.
 */
async function joinCall(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  // Six people joining one after another load two cores for a while.
  page.setDefaultTimeout(60_000);
  await page.goto(url);
  await page.getByRole('button', { name: 'Stop camera' }).click();
  await page.getByRole('button', { name: 'Join call' }).click();
  return page;
}

/** What the profiled tab shows of the call: its tiles, those playing a live unmuted audio track, and whether its own tile has shown it speaking. */
interface HeardCall {
  readonly tiles: number;
  readonly heard: number;
  /** Each other tile not heard: its name and what its audio is (no track, ended, muted). */
  readonly unheard: readonly string[];
  readonly spokeItself: boolean;
}

function heardCall(): HeardCall {
  // No named helper functions in here: tsx would wrap them in its __name(), which the page lacks.
  const tiles = [...document.querySelectorAll('figure[aria-label]')].map((tile) => {
    const tracks = [...tile.querySelectorAll('audio')].flatMap((audio) => (audio.srcObject instanceof MediaStream ? audio.srcObject.getAudioTracks() : []));
    return { label: tile.getAttribute('aria-label') ?? '', tracks, heard: tracks.some((track) => track.readyState === 'live' && !track.muted) };
  });
  const unheard = tiles
    .filter((tile) => !tile.heard && !tile.label.endsWith('(you)'))
    .map(({ label, tracks }) => `${label}: ${tracks.length === 0 ? 'no audio track' : tracks.map((track) => (track.readyState === 'live' ? 'muted' : track.readyState)).join(', ')}`);
  return { tiles: tiles.length, heard: tiles.filter((tile) => tile.heard).length, unheard, spokeItself: document.querySelector('figure.is-speaking[aria-label$="(you)"]') !== null };
}

/**
 * Waits until the tab hears everyone: each other person's tile plays a live, unmuted audio track,
 * and your own tile has shown you speaking. The tab then analyses `people` streams, its
 * microphone and each remote track (VoiceMonitors). A remote tile's speaking ring is no proof of
 * that: it also lights when the person says so over XMPP. Six browsers on two cores take long in
 * a slow hour: the wait is generous, and when it runs out it says what the tab was missing.
 */
async function waitUntilHearingEveryone(page: Page, people: number): Promise<void> {
  const deadline = Date.now() + HEARING_EVERYONE_MS;
  for (;;) {
    const call = await page.evaluate(heardCall);
    if (call.tiles === people && call.heard === people - 1 && call.spokeItself) return;
    if (Date.now() > deadline) {
      throw new Error(`${people} people: after ${HEARING_EVERYONE_MS / 1_000} s the first tab showed ${call.tiles} tiles, heard ${call.heard} of ${people - 1} others (${call.unheard.join('; ') || 'none missing'}), and ${call.spokeItself ? 'had' : 'had not'} shown itself speaking`);
    }
    // Your own tile shows you speaking only while you speak: look often enough to catch it.
    await sleep(100);
  }
}

interface CallVoiceCost {
  /** Sampled time with analysis code on the main thread's stack. */
  readonly mainThreadAnalysisMs: number;
  /** The analysis worker thread's CPU time, per analysed stream and second. */
  readonly workerMsPerStreamSecond: number;
}

/**
 * A call of `people` in the app's UI, every microphone speaking: the first person's tab is
 * profiled for TRACE_SECONDS. Each person has a browser of their own, as on their own machine: the
 * trace, and the sampling profiler's own cost, stay with the profiled tab, and no two people share
 * a browser's capture devices (with five in one, the fifth stayed on "Starting your camera…").
 */
async function profileCall(parley: RunningParley, speech: string, people: number): Promise<CallVoiceCost> {
  const browsers: Browser[] = [];
  try {
    const url = new URL(`bench-voice-${people}-${Date.now().toString(36)}`, parley.url).href;
    const join = async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: [...CHROMIUM_ARGS, `--use-file-for-fake-audio-capture=${speech}`] });
      browsers.push(browser);
      return { browser, page: await joinCall(browser, url) };
    };
    const profiled = await join();
    for (let person = 1; person < people; person += 1) await join();
    await waitUntilHearingEveryone(profiled.page, people);
    await profiled.browser.startTracing(profiled.page, { categories: CPU_PROFILE_TRACE_CATEGORIES });
    await sleep(TRACE_SECONDS * 1_000);
    const { main, dedicatedWorkers } = pageCpuProfile(await profiled.browser.stopTracing(), profiled.page.url(), isAnalysisCodeOf(parley));
    const analysisWorkers = dedicatedWorkers.filter((worker) => worker.matchingSamples > 0);
    // Nothing found anywhere means the attribution is broken, not that the analysis costs nothing.
    if (main.matchingSamples === 0 && analysisWorkers.length === 0) {
      throw new Error(`${people} people: no voice analysis in the profile; are dist/'s source maps there, and the build the page loaded?`);
    }
    const workerCpuMs = analysisWorkers.reduce((sum, worker) => sum + worker.taskCpuMs, 0);
    // Per second of the traced window, which the main thread's samples span.
    return { mainThreadAnalysisMs: main.matchingMs, workerMsPerStreamSecond: workerCpuMs / people / (main.sampledMs / 1_000) };
  } finally {
    for (const browser of browsers) await browser.close();
  }
}

/**
 * The detector alone in Node: CPU time per second of analysed audio for each stream, with
 * `streams` at once (48 kHz speech-band tone in 10 ms frames, as MediaStreamTrackProcessor delivers).
 */
function detectorCostInNode(streams: number): number {
  const sampleRate = 48_000;
  const frameLength = sampleRate / 100;
  // One second of signal, made before the clock starts so only the analysis is measured.
  const second = Array.from({ length: 100 }, (_, i) =>
    Float32Array.from({ length: frameLength }, (_, n) => 0.01 * Math.sin((2 * Math.PI * 150 * (i * frameLength + n)) / sampleRate)),
  );
  const seconds = 60;
  const detectors = Array.from({ length: streams }, () => new VoiceActivityDetector());
  const started = process.cpuUsage();
  for (let s = 0; s < seconds; s += 1) {
    for (const frame of second) for (const detector of detectors) detector.push(frame, sampleRate);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / seconds / streams;
}

export async function voiceAnalysisRows(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-voice-'));
  // Mesh: with the relay off, every tab receives each person's audio itself.
  const parley = await startTestParley({ relayWorkers: 0 });
  const calls: CallVoiceCost[] = [];
  try {
    const speech = renderSpeech(dir);
    for (const people of CALL_SIZES) calls.push(await profileCall(parley, speech, people));
  } finally {
    await parley.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const sizes = CALL_SIZES.join(' / ');
  const each = (values: readonly number[], digits: number) => values.map((value) => value.toFixed(digits)).join(' / ');
  return [
    { metric: `voice analysis on the main thread, ${TRACE_SECONDS} s of a call, ${sizes} streams`, measured: `${each(calls.map((call) => call.mainThreadAnalysisMs), 1)} ms`, target: '0 ms' },
    { metric: `voice analysis worker CPU per stream in that call, ${sizes} streams`, measured: `${each(calls.map((call) => call.workerMsPerStreamSecond), 2)} ms per s of audio`, target: 'off the main thread' },
    { metric: 'voice analysis worker CPU per stream in Node, 1 / 6 streams', measured: `${each([1, 6].map(detectorCostInNode), 2)} ms per s of audio`, target: 'off the main thread' },
  ];
}
