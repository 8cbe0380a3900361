// `npm run bench`: Parley's performance targets (DESIGN.md) measured on this machine, printed as
// tables beside each target — first Parley beside the SimpleWebRTC 1.30.3 reference measured in
// the same run, then Parley's own. Benchmarks, not tests: nothing here fails a build.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RunningParley } from '../../server/Parley';
import { siteWithReference } from '../../tests/support/referenceSite';
import { BUNDLE_TARGETS_KB, measureBundles } from './bundles';
import { buildRows, buildsRequestFromEnvironment } from './builds';
import { launchBrowser } from './clients';
import { startJoinServer } from './join';
import { relayRows } from './relay';
import { signallingRows } from './signalling';
import { median, printBuilds, printComparison, printTable, printTimeline, RUNS, type Row } from './table';
import { memoryRows } from './memory';
import { joinTimelineRows } from './timeline';
import { joinRows, steadyRows } from './versus';
import { voiceAnalysisRows } from './voice';

const ROOT = new URL('../../', import.meta.url).pathname;
/** BENCH_QUICK=1: only the rows beside the reference, once each, with a shorter steady window — to check the bench itself. BENCH_ONLY=signalling, relay, timeline or steady: only the signalling tier's rows, only the relay's, only a join timeline (BENCH_RUNS joins; BENCH_TIMELINE_PEOPLE 2 on the mesh, the default, or 3 or 4 on the relay), or only the steady three-person call beside the reference; BENCH_ONLY=builds: two builds of the app side by side (scripts/bench/builds.ts); BENCH_ONLY=memory: only what a tab and its session keep of someone who joined the call and left (BENCH_MEMORY_CYCLES times). */
const QUICK = Boolean(process.env.BENCH_QUICK);

/** What each page loads before its first frame (scripts/bench/bundles.ts), from the build the bench serves. */
function bundleSizes(): Row[] {
  const sizes = measureBundles(join(ROOT, 'dist'));
  const row = (metric: string, kb: number, target: number): Row => ({ metric, measured: `${kb.toFixed(1)} KB`, target: `≤ ${target} KB` });
  return [
    row('gzip JS before the first frame: call page', sizes.callPage, BUNDLE_TARGETS_KB.callPage),
    row('gzip JS before the first frame: call page of a newcomer to a call on the relay (with mediasoup-client)', sizes.callPageOnRelay, BUNDLE_TARGETS_KB.callPage),
    row('gzip JS before the first frame: shared worker', sizes.sharedWorker, BUNDLE_TARGETS_KB.sharedWorker),
    row('gzip JS before the first frame: chat pop-out', sizes.chatPopout, BUNDLE_TARGETS_KB.chatPopout),
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

/** A group of rows; one that throws (a call that never came up on a loaded machine) becomes a row saying so, and the bench goes on. */
async function section(name: string, measure: () => Promise<Row[]>): Promise<Row[]> {
  try {
    return await measure();
  } catch (error) {
    // The table has room for one line; which check failed, and where, goes to stderr.
    console.error(`${name} failed:`, error);
    return [{ metric: name, measured: `failed: ${(error as Error).message.split('\n')[0]}`, target: '—' }];
  }
}

const SIGNALLING_HEADING = 'The signalling tier: plain XMPP clients in this process, loopback, one run each.';
if (process.env.BENCH_ONLY === 'signalling') {
  printTable(await section('signalling load', signallingRows), SIGNALLING_HEADING);
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'relay') {
  const relay = await startJoinServer('relay');
  const browser = await launchBrowser();
  try {
    printTable(await section('relay layer switches and CPU', () => relayRows(browser, relay)));
  } finally {
    await browser.close();
    await relay.stop();
  }
  process.exit(0);
}

if (process.env.BENCH_ONLY === 'builds') {
  const request = buildsRequestFromEnvironment(process.env);
  printBuilds(await buildRows(request), request.a, request.b);
  process.exit(0);
}

if (process.env.BENCH_ONLY === 'timeline') {
  const people = Number(process.env.BENCH_TIMELINE_PEOPLE ?? 2);
  if (![2, 3, 4].includes(people)) throw new Error('BENCH_TIMELINE_PEOPLE is 2 (the mesh), 3 or 4 (the relay)');
  const path = people === 2 ? 'mesh' : 'relay';
  const servers = await startJoinServer(path);
  try {
    printTimeline(await section('join timeline', () => joinTimelineRows(servers, RUNS, people, path)), RUNS, people);
  } finally {
    await servers.stop();
  }
  process.exit(0);
}

/**
 * Runs `measure` against the servers both clients use: one gateway serves the app's build with the
 * reference page beside it, on each path's servers (startJoinServer).
 */
async function withComparisonServers(measure: (servers: { mesh: RunningParley; relay: RunningParley }) => Promise<void>): Promise<void> {
  const site = siteWithReference(join(ROOT, 'dist'));
  try {
    const mesh = await startJoinServer('mesh', site.root);
    const relay = await startJoinServer('relay', site.root);
    try {
      await measure({ mesh, relay });
    } finally {
      await Promise.all([mesh.stop(), relay.stop()]);
    }
  } finally {
    site.remove();
  }
}

if (process.env.BENCH_ONLY === 'memory') {
  const mesh = await startJoinServer('mesh');
  const browser = await launchBrowser();
  try {
    printTable(await section('memory kept', () => memoryRows(browser, mesh)), 'What a call tab and its session keep of someone who joined the call and left: one run, loopback, headless Chromium.');
  } finally {
    await browser.close();
    await mesh.stop();
  }
  process.exit(0);
}

if (process.env.BENCH_ONLY === 'joins') {
  await withComparisonServers(async (servers) => printComparison(await joinRows(servers)));
  process.exit(0);
}

if (process.env.BENCH_ONLY === 'steady') {
  await withComparisonServers(async ({ relay }) => printComparison(await steadyRows(relay)));
  process.exit(0);
}

const rows: Row[] = [];
await withComparisonServers(async ({ mesh, relay }) => {
  // Printed as soon as measured: the rows after it take minutes more.
  printComparison([...(await joinRows({ mesh, relay })), ...(await steadyRows(relay))]);
  const timelineRuns = QUICK ? 1 : Math.min(RUNS, 5);
  printTimeline(await section('join timeline', () => joinTimelineRows(mesh, timelineRuns)), timelineRuns);
  if (!QUICK) {
    const browser = await launchBrowser();
    try {
      rows.push(...(await section('relay layer switches and CPU', () => relayRows(browser, relay))));
      rows.push(...(await section('memory kept', () => memoryRows(browser, mesh))));
    } finally {
      await browser.close();
    }
  }
});
if (!QUICK) {
  rows.push(...bundleSizes());
  rows.push(...(await section('voice analysis', voiceAnalysisRows)));
  rows.push({ metric: '`npm start` when everything is built', measured: `${((await startupTime()) / 1000).toFixed(2)} s`, target: '≤ 3 s' });
  printTable(rows);
  printTable(await section('signalling load', signallingRows), SIGNALLING_HEADING);
}
