// `npm run bench`: Parley's performance targets (DESIGN.md) measured on this machine, printed as a
// table beside each target. Benchmarks, not tests: nothing here fails a build.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { startTestParley } from '../../tests/support/testParley';
import { firstRemoteFrame } from './firstFrame';
import { relayRows } from './relay';
import { median, printTable, RUNS, type Row } from './table';
import { voiceAnalysisRows } from './voice';

const ROOT = new URL('../../', import.meta.url).pathname;


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
// Relay off: the mesh rows are the mesh's whatever the call's size (relay.ts runs the relay's rows on servers of its own).
const parley = await startTestParley({ relayWorkers: 0 });
const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const two = await firstRemoteFrame(browser, parley, 2, 'mesh');
  rows.push({ metric: 'page load → first remote frame, 2 people (mesh)', measured: `${two.ms.toFixed(0)} ms`, target: '≤ 450 ms' });
  const three = await firstRemoteFrame(browser, parley, 3, 'mesh');
  rows.push({ metric: 'page load → first remote frame, 3 people (mesh)', measured: `${three.ms.toFixed(0)} ms`, target: '≤ 600 ms' });
  rows.push({ metric: 'long tasks (> 50 ms) on the main thread while joining', measured: `${two.longTasks + three.longTasks} in ${2 * RUNS} joins`, target: '0' });
  rows.push(...(await relayRows(browser)));
} finally {
  await browser.close();
  await parley.stop();
}
rows.push(...bundleSizes());
rows.push(...(await voiceAnalysisRows()));
rows.push({ metric: '`npm start` when everything is built', measured: `${((await startupTime()) / 1000).toFixed(2)} s`, target: '≤ 3 s' });

printTable(rows);
