import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { CHROMIUM_EXECUTABLE, TEST_CHROMIUM_ARGS } from '../../playwright.config';
import { expect } from './fixtures';

/**
 * Chromium for cases that kill one tab's renderer: past Chromium's own limit (from the machine's
 * memory), a renderer per tab as on a roomier machine — a new tab otherwise shares a renderer of the
 * same site with another tab, and a kill takes both. (The shared worker may run in the renderer of the
 * tab that started it: kill a tab opened after that one.)
 */
export const RENDERER_PER_TAB_LAUNCH = { executablePath: CHROMIUM_EXECUTABLE, args: [...TEST_CHROMIUM_ARGS, '--renderer-process-limit=100'] };

/** What the page to kill takes into its memory: its renderer then outgrows every other by far. */
const BALLAST_BYTES = 128 * 1024 * 1024;

/** The browser's renderer processes (Chromium DevTools SystemInfo.getProcessInfo). */
async function rendererPids(page: Page): Promise<number[]> {
  const session = await page.context().browser()!.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
  await session.detach();
  return processInfo.filter((process) => process.type === 'renderer').map((process) => process.id);
}

/** The process's resident memory (Linux /proc), 0 once it is gone. */
function residentBytes(pid: number): number {
  try {
    const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kilobytes ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * The renderer process a page runs in: DevTools names no page's process, so the page fills
 * BALLAST_BYTES of memory and the renderer whose resident memory grew by more than half of that is
 * the one — only one may. (Not the CPU a busy page takes: on two cores shared with other tests'
 * videos, a page busy for 1.5 s once got less CPU than the other renderers together.)
 */
async function rendererOf(page: Page): Promise<number> {
  const pids = await rendererPids(page);
  const before = new Map(pids.map((pid) => [pid, residentBytes(pid)]));
  await page.evaluate((bytes) => {
    (window as Window & { rendererBallast?: Uint8Array }).rendererBallast = new Uint8Array(bytes).fill(1);
  }, BALLAST_BYTES);
  const grown = pids.filter((pid) => residentBytes(pid) - before.get(pid)! > BALLAST_BYTES / 2);
  expect(grown, 'one renderer took the page’s ballast').toHaveLength(1);
  return grown[0]!;
}

/** Pages whose renderer `killRenderer` killed: they stay among their context's pages, answering nothing. */
const killed = new WeakSet<Page>();

/**
 * The page's renderer process dies as in a crash or an out-of-memory kill (SIGKILL): no pagehide,
 * no unload, no goodbye on any port — the tab's Web Locks are let go by the browser, nothing else.
 * It is what the out-of-memory killer or a task manager's "End process" does. (DevTools' Page.crash
 * and a navigation to chrome://crash also ended a lone page's renderer in this Chromium, without a
 * pagehide, but faults-call.spec.ts found Page.crash leaving its renderer running.) Only that page
 * may die: its crash event is awaited, and every other page of its browser context must still answer.
 */
export async function killRenderer(page: Page): Promise<void> {
  const others = page.context().pages().filter((other) => other !== page && !killed.has(other));
  const pid = await rendererOf(page);
  const crashed = new Promise<boolean>((resolve) => page.once('crash', () => resolve(true)));
  process.kill(pid, 'SIGKILL');
  const inTime = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000));
  expect(await Promise.race([crashed, inTime]), 'the tab’s renderer was killed').toBe(true);
  killed.add(page);
  // Each other tab still runs its page: it answers, and reads its own document.
  for (const other of others) {
    expect(other.isClosed(), 'another tab of the browser was closed').toBe(false);
    expect(await other.evaluate(() => document.readyState), 'the other tabs of the browser still run').toBe('complete');
  }
}
