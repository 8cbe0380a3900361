// The CPU time a benchmark's own Chromium uses, all its processes together, from /proc: the
// measure of work done when two cores are shared by every process of a call.
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import type { Browser } from '@playwright/test';
import { launchBrowser } from './clients';

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

/** A fresh browser (`launchBrowser`) and a reading of the CPU time its processes have used so far, in ms. */
export async function launchMeteredBrowser(): Promise<{ browser: Browser; cpuMs: () => number }> {
  const before = chromiumChildren();
  const browser = await launchBrowser();
  const [browserPid, ...others] = [...chromiumChildren()].filter((pid) => !before.has(pid));
  if (browserPid === undefined || others.length > 0) {
    await browser.close();
    throw new Error('could not tell which Chromium process is this run’s browser');
  }
  return { browser, cpuMs: () => treeCpuMs(browserPid) };
}

/** How long `windowOpenedSettled` waits at most, and the window over which it reads the browser's CPU rate. */
const SETTLE_MAX_MS = 3_000;
const SETTLE_SAMPLE_MS = 200;
/** Back to its rate before the window opened, give or take this share of one core. */
const SETTLE_MARGIN = 0.1;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The browser's CPU rate (cores) over the next `ms`. */
async function cpuRate(cpuMs: () => number, ms: number): Promise<number> {
  const before = cpuMs();
  await sleep(ms);
  return (cpuMs() - before) / ms;
}

/**
 * Opens a window (`open`) and waits until the browser is back to the CPU rate it had before it, at
 * most SETTLE_MAX_MS: a person navigates to a room in a browser window that is already open. A new
 * window of a fresh headless Chromium builds its own UI for 300–400 ms after it opens (the omnibox
 * popup's renderer, 370–400 ms of CPU on this machine), which is no part of joining a room, and
 * which would otherwise share the two cores with whichever client is being timed.
 */
export async function windowOpenedSettled<T>(cpuMs: () => number, open: () => Promise<T>): Promise<T> {
  const before = await cpuRate(cpuMs, SETTLE_SAMPLE_MS);
  const opened = await open();
  const giveUpAt = Date.now() + SETTLE_MAX_MS;
  while (Date.now() < giveUpAt) {
    if ((await cpuRate(cpuMs, SETTLE_SAMPLE_MS)) <= before + SETTLE_MARGIN) break;
  }
  return opened;
}
