// What a steady 3-person call costs the browser, for either client: main-thread scripting per tab
// (Chromium's own ScriptDuration, over CDP) and the CPU time of the whole browser's processes.
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { launchBrowser, type BenchClient } from './clients';
import { callUp, relayCarriesRoom, type ProbedWindow } from './join';

/** After everyone sees everyone, this long for the call to settle (bandwidth estimation ramps up) before measuring. */
const SETTLE_MS = 5_000;
const PEOPLE = 3;

export interface SteadyCost {
  /** Main-thread script time per tab, in ms per 30 s. */
  scriptingMsPer30s: number;
  /** CPU time of the browser's processes (all three people), in % of one core. */
  browserCpuPercent: number;
  /** The largest camera frame any tab sends, as `W×H`. */
  sent: string;
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** Every process's parent and CPU time (user + system, ms) from /proc/<pid>/stat. */
function processTable(): Map<number, { parent: number; cpuMs: number }> {
  const table = new Map<number, { parent: number; cpuMs: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited since the listing
    }
    // Fields after the command name, which is in parentheses and may hold spaces: state, ppid, … utime (14), stime (15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(Number(name), { parent: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND });
  }
  return table;
}

/** Direct children of this process that are Chromium. */
function chromiumChildren(): Set<number> {
  const children = new Set<number>();
  for (const [pid, { parent }] of processTable()) {
    if (parent !== process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('chrom')) children.add(pid);
    } catch {
      // exited since the listing
    }
  }
  return children;
}

/** CPU time so far (ms) of `root` and every process under it. */
function treeCpuMs(root: number): number {
  const table = processTable();
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, { parent }] of table) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return [...inTree].reduce((sum, pid) => sum + (table.get(pid)?.cpuMs ?? 0), 0);
}

/**
 * Reads the page's main-thread script time (ms) by Chromium's Performance domain, on one CDP
 * session kept for the page: the metrics count from when that session enabled them.
 */
async function scriptingMeter(page: Page): Promise<{ read(): Promise<number>; close(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return {
    async read() {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return (metrics.find((metric) => metric.name === 'ScriptDuration')?.value ?? 0) * 1000;
    },
    close: () => cdp.detach(),
  };
}

/** The largest outbound camera frame of the page's peer connections (those the join probe saw), as [width, height]. */
function largestSentFrame(page: Page): Promise<[number, number]> {
  return page.evaluate(async () => {
    const { connections } = (window as unknown as ProbedWindow).__benchJoin;
    let largest: [number, number] = [0, 0];
    for (const connection of connections) {
      for (const report of (await connection.getStats()).values()) {
        if (report.type === 'outbound-rtp' && report.kind === 'video' && (report.frameWidth ?? 0) > largest[0]) largest = [report.frameWidth, report.frameHeight];
      }
    }
    return largest;
  });
}

/**
 * One steady call of PEOPLE on `parley`'s relay in a fresh browser: once everyone sees everyone
 * and the call has settled, scripting and CPU over `windowMs`.
 */
export async function steadyCallCost(client: BenchClient, parley: RunningParley, windowMs: number, run: number): Promise<SteadyCost> {
  const before = chromiumChildren();
  const browser = await launchBrowser();
  try {
    const [browserPid, ...others] = [...chromiumChildren()].filter((pid) => !before.has(pid));
    if (browserPid === undefined || others.length > 0) throw new Error('could not tell which Chromium process is this run’s browser');
    const roomName = `bench-steady-${run}-${Date.now().toString(36)}`;
    const pages = await callUp(browser, client, parley, roomName, PEOPLE, 'relay');
    await Promise.all(pages.map((page) => page.evaluate(() => (window as unknown as ProbedWindow).__benchJoin.stopWatching())));
    await sleep(SETTLE_MS);
    const meters = await Promise.all(pages.map(scriptingMeter));
    const scriptingBefore = await Promise.all(meters.map((meter) => meter.read()));
    const cpuBefore = treeCpuMs(browserPid);
    const started = performance.now();
    await sleep(windowMs);
    const cpu = treeCpuMs(browserPid) - cpuBefore;
    const scripting = (await Promise.all(meters.map((meter) => meter.read()))).map((ms, i) => ms - scriptingBefore[i]!);
    const elapsed = performance.now() - started;
    await Promise.all(meters.map((meter) => meter.close()));
    if (!relayCarriesRoom(parley, roomName, PEOPLE)) throw new Error(`${client.name}: the relay call changed while it was measured`);
    const frames = await Promise.all(pages.map(largestSentFrame));
    const [width, height] = frames.sort((a, b) => b[0] - a[0])[0]!;
    const perTab = scripting.reduce((sum, ms) => sum + ms, 0) / pages.length;
    return { scriptingMsPer30s: (perTab * 30_000) / elapsed, browserCpuPercent: (cpu / elapsed) * 100, sent: `${width}×${height}` };
  } finally {
    await browser.close();
  }
}
