// `npm run bench`: Parley's performance targets (DESIGN.md) measured on this machine, printed as a
// table beside each target. Benchmarks, not tests: nothing here fails a build.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { startParley, type RunningParley } from '../../server/Parley';
import { VoiceActivityDetector } from '../../src/worker/VoiceActivityDetector';
import { median, printTable, RUNS, type Row } from './table';

const ROOT = new URL('../../', import.meta.url).pathname;


/** Records, in the page, when the first remote video frame is presented and every long task. */
const FIRST_FRAME_PROBE = `
  window.__bench = { firstRemoteFrameAt: undefined, longTasks: 0 };
  new PerformanceObserver((list) => { window.__bench.longTasks += list.getEntries().length; }).observe({ type: 'longtask', buffered: true });
  const look = () => {
    for (const figure of document.querySelectorAll('figure[aria-label]')) {
      if (figure.getAttribute('aria-label').endsWith('(you)')) continue;
      const video = figure.querySelector('video');
      if (video && video.getVideoPlaybackQuality().totalVideoFrames > 0) {
        window.__bench.firstRemoteFrameAt = performance.now();
        return;
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
`;

/** Opens the room in a new person's browser and joins the call as soon as the button is there. */
async function joinCall(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(FIRST_FRAME_PROBE);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Join call' }).click();
  return page;
}

/** Page load → first decoded remote frame for the last of `people` to arrive; median over RUNS. */
async function firstRemoteFrame(browser: Browser, parley: RunningParley, people: number): Promise<{ ms: number; longTasks: number }> {
  const times: number[] = [];
  let longTasks = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const url = new URL(`bench-${people}-${run}-${Date.now().toString(36)}`, parley.url).href;
    const earlier: Page[] = [];
    for (let i = 1; i < people; i += 1) {
      const page = await joinCall(browser, url);
      await page.waitForFunction(() => document.querySelectorAll('figure[aria-label] video').length > 0, undefined, { timeout: 20_000 });
      earlier.push(page);
    }
    const last = await joinCall(browser, url);
    await last.waitForFunction(() => (window as unknown as { __bench: { firstRemoteFrameAt?: number } }).__bench.firstRemoteFrameAt !== undefined, undefined, { timeout: 30_000 });
    const probe = await last.evaluate(() => (window as unknown as { __bench: { firstRemoteFrameAt: number; longTasks: number } }).__bench);
    times.push(probe.firstRemoteFrameAt);
    longTasks += probe.longTasks;
    for (const page of [...earlier, last]) await page.context().close();
  }
  return { ms: median(times), longTasks };
}

function bundleSizes(): Row[] {
  const assets = join(ROOT, 'dist', 'assets');
  const gz = (file: string) => gzipSync(readFileSync(join(assets, file))).length / 1024;
  const scripts = readdirSync(assets).filter((file) => file.endsWith('.js'));
  const html = readFileSync(join(ROOT, 'dist', 'index.html'), 'utf8');
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  // The shared worker is the largest chunk that starts with the worker entry's name and holds StanzaJS.
  const worker = scripts.filter((file) => file.startsWith('entry-')).map((file) => ({ file, kb: gz(file) })).sort((a, b) => b.kb - a.kb)[0];
  const room = scripts.filter((file) => file.startsWith('RoomView-') || file.startsWith('useRoomOfView-')).reduce((sum, file) => sum + gz(file), 0);
  const popout = scripts.filter((file) => file.startsWith('ChatPopout-') || file.startsWith('useRoomOfView-')).reduce((sum, file) => sum + gz(file), 0);
  const base = entry ? gz(entry) : 0;
  return [
    { metric: 'gzip JS: call page', measured: `${(base + room).toFixed(1)} KB`, target: '≤ 150 KB' },
    { metric: 'gzip JS: shared worker', measured: `${(worker?.kb ?? 0).toFixed(1)} KB`, target: '≤ 120 KB' },
    { metric: 'gzip JS: chat pop-out', measured: `${(base + popout).toFixed(1)} KB`, target: '≤ 80 KB' },
  ];
}

/**
 * The worker's analysis cost: CPU time per second of analysed audio for each stream, with 1 and 6
 * streams at once (48 kHz speech-band tone in 10 ms frames, as MediaStreamTrackProcessor delivers).
 */
function voiceAnalysisCost(streams: number): number {
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

/** `npm start` with everything built: start to the ready line. */
async function startupTime(): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < Math.min(RUNS, 5); run += 1) {
    const started = performance.now();
    const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Parley ready at') && resolve());
      child.once('exit', () => reject(new Error('npm start exited before ready')));
    });
    times.push(performance.now() - started);
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  return median(times);
}

const rows: Row[] = [];
const parley = await startParley({ port: 0 });
const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const two = await firstRemoteFrame(browser, parley, 2);
  rows.push({ metric: 'page load → first remote frame, 2 people (mesh)', measured: `${two.ms.toFixed(0)} ms`, target: '≤ 450 ms' });
  const three = await firstRemoteFrame(browser, parley, 3);
  rows.push({ metric: 'page load → first remote frame, 3 people', measured: `${three.ms.toFixed(0)} ms`, target: '≤ 600 ms' });
  rows.push({ metric: 'long tasks (> 50 ms) on the main thread while joining', measured: `${two.longTasks + three.longTasks} in ${2 * RUNS} joins`, target: '0' });
} finally {
  await browser.close();
  await parley.stop();
}
rows.push(...bundleSizes());
for (const streams of [1, 6]) {
  rows.push({ metric: `voice analysis worker CPU per stream, ${streams} stream${streams > 1 ? 's' : ''}`, measured: `${voiceAnalysisCost(streams).toFixed(2)} ms per s of audio`, target: 'off the main thread' });
}
rows.push({ metric: '`npm start` when everything is built', measured: `${((await startupTime()) / 1000).toFixed(2)} s`, target: '≤ 3 s' });

printTable(rows);
