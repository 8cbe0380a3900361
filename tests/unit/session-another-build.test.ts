import { createStore } from 'jotai';
import type { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdRoomAlerts, roomAlertsLockName } from '../../src/main-thread/alerts/roomAlertSeat';
import { callLockName, CallOwnership } from '../../src/main-thread/call/CallOwnership';
import { sessionUnavailableAtom } from '../../src/main-thread/sessionAtoms';
import { SessionBridge } from '../../src/main-thread/SessionBridge';
import { SESSION_ATTACH_WITHIN_MS } from '../../src/protocol/clientDefaults';
import { PARLEY_BUILD, SESSION_LOCK_PREFIX, sessionLockName } from '../../src/protocol/tabs';
import { fakeSessionPage } from '../support/fakeSessionPage';
import { FakeWebLocks } from '../support/fakeWebLocks';
import { until } from '../support/until';

const ROOM = 'room@muc.parley.test';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A page whose session the test holds: the workers the page starts, and the tab's attaches as they arrive. */
function pageWithSession(locks: FakeWebLocks): { sessionPort: MessagePort; workersStarted: () => number; attaches: { id: string }[] } {
  const sessionPort = fakeSessionPage(locks);
  let started = 0;
  const FakeSharedWorker = globalThis.SharedWorker as unknown as new () => object;
  vi.stubGlobal(
    'SharedWorker',
    class extends FakeSharedWorker {
      constructor() {
        super();
        started += 1;
      }
    },
  );
  const attaches: { id: string }[] = [];
  sessionPort.on('message', (message: { id: string; path?: string[] }) => {
    if (message.path?.join('.') === 'attach') attaches.push(message);
  });
  return { sessionPort, workersStarted: () => started, attaches };
}

/** A shared worker that holds its lock, by this name, until it ends (src/shared-worker/entry.ts). */
function runningWorker(locks: FakeWebLocks, lock: string): { end: () => void } {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  void locks.request(lock, () => ended);
  return { end };
}

/** Lets the page's port and the locks' grants run (real time, no timer decides anything). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('A page of a new build does not use a second session beside the build before’s, whose tabs would see you twice in every room: it says Parley was updated, and goes on once that build’s tabs are gone', () => {
  it.each([
    ['another build’s worker', sessionLockName('worker-before', 'build-before')],
    ['the worker of a build before builds were named (parley:session:<id>)', `${SESSION_LOCK_PREFIX}worker-before`],
  ])(`while %s runs, the page says so, sends its own worker (started at once, for the join path) nothing, and does not take that for a lost start after ${SESSION_ATTACH_WITHIN_MS / 1000} s; once it ends, the page attaches`, async (_which, lock) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const locks = new FakeWebLocks();
    const { sessionPort, workersStarted, attaches } = pageWithSession(locks);
    const before = runningWorker(locks, lock);
    const store = createStore();
    const { attached } = new SessionBridge(store).start();
    await settle();
    expect(workersStarted()).toBe(1);
    expect(attaches).toHaveLength(0);
    expect(store.get(sessionUnavailableAtom)).toBe('another-build');
    vi.advanceTimersByTime(SESSION_ATTACH_WITHIN_MS);
    await settle();
    expect(attaches).toHaveLength(0);
    expect(store.get(sessionUnavailableAtom)).toBe('another-build');

    before.end();
    await until(() => attaches.length === 1, 'the attach at the page’s own session');
    expect(workersStarted()).toBe(1);
    expect(store.get(sessionUnavailableAtom)).toBeUndefined();
    sessionPort.postMessage({ id: attaches[0]!.id, type: 'RAW', value: undefined });
    await attached;
    sessionPort.close();
  });

  it('a worker of its own build (every tab had left it, and it is ending) is no reason to wait: the page attaches at once', async () => {
    const locks = new FakeWebLocks();
    const { sessionPort, workersStarted, attaches } = pageWithSession(locks);
    runningWorker(locks, sessionLockName('worker-ending', PARLEY_BUILD));
    const store = createStore();
    new SessionBridge(store).start();
    await until(() => attaches.length === 1, 'the attach at the session');
    expect(workersStarted()).toBe(1);
    expect(store.get(sessionUnavailableAtom)).toBeUndefined();
    sessionPort.close();
  });
});

describe('Should two builds’ sessions ever run side by side, neither takes the other’s call or alerts: their locks are named with the build', () => {
  it('a tab of another build that runs the room’s call neither keeps this build’s tab from running its own nor loses it to this one', async () => {
    const locks = new FakeWebLocks();
    void locks.request(callLockName(ROOM, 'build-before'), () => new Promise(() => {}));
    const thisTab = new CallOwnership(ROOM, locks);
    expect(await Promise.race([thisTab.acquire(), settle().then(() => 'still waiting')])).toBe(true);
    expect(locks.isHeld(callLockName(ROOM, 'build-before'))).toBe(true);
    thisTab.release();
  });

  it('a tab of another build that alerts for the room does not keep this build’s tab from alerting', async () => {
    const locks = new FakeWebLocks();
    vi.stubGlobal('navigator', { locks: { request: locks.request } });
    void locks.request(roomAlertsLockName(ROOM, 'build-before'), () => new Promise(() => {}));
    const seat = holdRoomAlerts(ROOM);
    await settle();
    expect(seat.held).toBe(true);
    seat.release();
  });
});
