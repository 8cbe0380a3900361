// What a person's tab and session keep of someone who joined their call and left it: Bob joins a
// two-person mesh call with Alice and hangs up, again and again; after each of his leaves, Alice's
// call tab and her session worker are measured after garbage collection. What is kept of a call
// that ended is a leak that a long day of calls adds up.
import type { Browser, CDPSession, Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { attachSessionWorker, type AttachedWorker } from '../../tests/support/attachedWorker';
import { PARLEY } from './clients';
import { enterCall } from './join';
import type { Row } from './table';

/** Bob's joins and leaves: the figures compare what is kept after the first with what is kept after the last. */
const CYCLES = Number(process.env.BENCH_MEMORY_CYCLES ?? 10);
/** After a leave, this long for what a leave sets off (sessions ending, tiles going) before measuring. */
const SETTLE_MS = 1_500;

interface Kept {
  pageHeapKb: number;
  workerHeapKb: number;
  peerConnections: number;
  eventListeners: number;
}

/** Runs a full collection `send` reaches (the page's or the worker's DevTools), three times over. */
async function collectGarbage(send: () => Promise<unknown>): Promise<void> {
  // Blink's objects go in a later collection than the script objects that held them.
  for (let round = 0; round < 3; round += 1) await send();
}

/** How many objects of the page have `constructorName`'s prototype: the live ones, after a collection. */
async function instancesOf(cdp: CDPSession, constructorName: string): Promise<number> {
  const { result: prototype } = await cdp.send('Runtime.evaluate', { expression: `${constructorName}.prototype` });
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: prototype.objectId! });
  const { result } = await cdp.send('Runtime.callFunctionOn', { objectId: objects.objectId!, functionDeclaration: 'function () { return this.length; }', returnByValue: true });
  return result.value as number;
}

async function kept(page: Page, worker: AttachedWorker): Promise<Kept> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await collectGarbage(() => cdp.send('HeapProfiler.collectGarbage'));
    const tab = await cdp.send('Runtime.getHeapUsage');
    const { jsEventListeners } = await cdp.send('Memory.getDOMCounters');
    const peerConnections = await instancesOf(cdp, 'RTCPeerConnection');
    await collectGarbage(() => worker.send('HeapProfiler.collectGarbage'));
    const session = await worker.send<{ usedSize: number }>('Runtime.getHeapUsage');
    return { pageHeapKb: tab.usedSize / 1024, workerHeapKb: session.usedSize / 1024, peerConnections, eventListeners: jsEventListeners };
  } finally {
    await cdp.detach();
  }
}

/**
 * What the tab keeps for good: the fewest connections and listeners of five readings a second
 * apart. A leave's ended sessions are let go over the seconds after it (a slow machine takes
 * longer): what one reading holds and a later one no longer does is not kept.
 */
async function keptForGood(page: Page, worker: AttachedWorker): Promise<Kept> {
  let fewest = await kept(page, worker);
  for (let reading = 1; reading < 5; reading += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const current = await kept(page, worker);
    if (current.peerConnections + current.eventListeners < fewest.peerConnections + fewest.eventListeners) fewest = current;
  }
  return fewest;
}

/** A person in the call of `roomName` with a tab of no probe of the bench's: what it keeps is the app's alone. */
async function personInCall(browser: Browser, parley: RunningParley, roomName: string): Promise<Page> {
  const page = await (await browser.newContext({ permissions: ['camera', 'microphone'] })).newPage();
  await enterCall(PARLEY, page, parley.url, roomName);
  return page;
}

/** Tiles showing a video in `page`: its own and each other person's. */
function videosShown(page: Page, count: number): Promise<unknown> {
  return page.waitForFunction((expected) => document.querySelectorAll('figure video').length === expected, count, { timeout: 30_000 });
}

export async function memoryRows(browser: Browser, parley: RunningParley): Promise<Row[]> {
  const roomName = `bench-memory-${Date.now().toString(36)}`;
  const alice = await personInCall(browser, parley, roomName);
  const { worker, detach } = await attachSessionWorker(alice);
  await worker.send('HeapProfiler.enable');
  try {
    const bob = await personInCall(browser, parley, roomName);
    const measured: Kept[] = [];
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      await videosShown(alice, 2);
      await bob.getByRole('button', { name: 'Hang up' }).click();
      await videosShown(alice, 1);
      await bob.getByRole('button', { name: 'Join call' }).waitFor();
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      measured.push(await (cycle === 1 || cycle === CYCLES ? keptForGood : kept)(alice, worker));
      if (cycle < CYCLES) await bob.getByRole('button', { name: 'Join call' }).click();
    }
    const first = measured[0]!;
    const last = measured.at(-1)!;
    const perCycle = (heap: (figures: Kept) => number) => `${((heap(last) - heap(first)) / (CYCLES - 1)).toFixed(1)} KB`;
    const what = `${CYCLES} joins and leaves of another person, a two-person call`;
    return [
      { metric: `peer connections / event listeners the call tab keeps of them (${what})`, measured: `${last.peerConnections - first.peerConnections} / ${last.eventListeners - first.eventListeners}`, target: '0 / 0' },
      { metric: `JS heap the call tab keeps per join and leave, after collection (${first.pageHeapKb.toFixed(0)} KB after the first)`, measured: perCycle((figures) => figures.pageHeapKb), target: '—' },
      { metric: `JS heap the session worker keeps per join and leave, after collection (${first.workerHeapKb.toFixed(0)} KB after the first)`, measured: perCycle((figures) => figures.workerHeapKb), target: '—' },
    ];
  } finally {
    await detach();
  }
}
