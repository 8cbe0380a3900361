import { createStore, Provider } from 'jotai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Remote } from 'comlink';
import type { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Call } from '../../src/main-thread/call/Call';
import { callLockName } from '../../src/main-thread/call/CallOwnership';
import { MediaItems } from '../../src/main-thread/media';
import { sessionUnavailableAtom, type SessionUnavailability } from '../../src/main-thread/sessionAtoms';
import { SessionBridge } from '../../src/main-thread/SessionBridge';
import { SessionUnavailable } from '../../src/ui/SessionUnavailable';
import { TabCalls } from '../../src/main-thread/TabCalls';
import { SESSION_ATTACH_WITHIN_MS } from '../../src/protocol/clientDefaults';
import type { AnalysisWorkerApi } from '../../src/protocol/analysisWorker';
import { SESSION_LOCK_HELD, SESSION_UNAVAILABLE, sessionLockName, type SessionLockHeld } from '../../src/protocol/tabs';
import { fakeSessionPage } from '../support/fakeSessionPage';
import { FakeWebLocks } from '../support/fakeWebLocks';
import { ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { FakePeerConnection } from './call-fakes';
import { FakeMediaDevices, harness, ROOM } from './callTab-fakes';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A page whose session the test holds, with the tab's attaches as they arrive. */
function pageWithSession(locks = new FakeWebLocks()): { sessionPort: MessagePort; attaches: { id: string }[] } {
  const sessionPort = fakeSessionPage(locks);
  const attaches: { id: string }[] = [];
  sessionPort.on('message', (message: { id: string; path?: string[] }) => {
    if (message.path?.join('.') === 'attach') attaches.push(message);
  });
  return { sessionPort, attaches };
}

describe('A tab says when the shared session could not start, and takes it back once the session answers (issue 14: the session’s code loads after the worker’s first script)', () => {
  it('told by the worker that the session’s code did not load, the tab says so at once', async () => {
    const { sessionPort } = pageWithSession();
    const store = createStore();
    new SessionBridge(store).start();
    sessionPort.postMessage(SESSION_UNAVAILABLE);
    await until(() => store.get(sessionUnavailableAtom) === 'not-loaded', 'the tab to say its session did not load');
    sessionPort.close();
  });

  it(`an attach not answered within ${SESSION_ATTACH_WITHIN_MS / 1000} s (a worker that closed as the tab connected) says so; answered later, the tab takes it back`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { sessionPort, attaches } = pageWithSession();
    const store = createStore();
    new SessionBridge(store).start();
    await until(() => attaches.length === 1, 'the attach at the session');

    vi.advanceTimersByTime(SESSION_ATTACH_WITHIN_MS - 1);
    expect(store.get(sessionUnavailableAtom)).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(store.get(sessionUnavailableAtom)).toBe('not-loaded');

    // Comlink's answer to the attach.
    sessionPort.postMessage({ id: attaches[0]!.id, type: 'RAW', value: undefined });
    await until(() => !store.get(sessionUnavailableAtom), 'the tab to take it back');
    sessionPort.close();
  });

  it('an attach answered in time says nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { sessionPort, attaches } = pageWithSession();
    const store = createStore();
    const { attached } = new SessionBridge(store).start();
    await until(() => attaches.length === 1, 'the attach at the session');
    sessionPort.postMessage({ id: attaches[0]!.id, type: 'RAW', value: undefined });
    await attached;
    vi.advanceTimersByTime(SESSION_ATTACH_WITHIN_MS);
    expect(store.get(sessionUnavailableAtom)).toBeUndefined();
    sessionPort.close();
  });
});

describe('A browser set not to let the site keep data refuses Parley’s shared worker: the tab says so in plain words and what to change, not that part of Parley did not load', () => {
  /** The page's SharedWorker (fakeSessionPage's), each one made kept for the test to fire its error. */
  function workersMade(): EventTarget[] {
    const workers: EventTarget[] = [];
    const PageWorker = globalThis.SharedWorker as unknown as new (...args: unknown[]) => EventTarget;
    vi.stubGlobal(
      'SharedWorker',
      class extends PageWorker {
        constructor(...args: unknown[]) {
          super(...args);
          workers.push(this);
        }
      },
    );
    return workers;
  }

  /** Why the session is unavailable once the tab's shared worker errs, with cookies on or off. */
  function unavailableAfterWorkerError(cookieEnabled: boolean): SessionUnavailability | undefined {
    const sessionPort = fakeSessionPage();
    vi.stubGlobal('navigator', { ...navigator, cookieEnabled });
    const workers = workersMade();
    const store = createStore();
    new SessionBridge(store).start();
    workers[0]!.dispatchEvent(new Event('error'));
    sessionPort.close();
    return store.get(sessionUnavailableAtom);
  }

  it('cookies off (navigator.cookieEnabled false) and the worker’s error: the session is unavailable as storage-blocked', () => {
    expect(unavailableAfterWorkerError(false)).toBe('storage-blocked');
  });

  it('cookies on and the worker’s error: part of Parley did not load, as before', () => {
    expect(unavailableAfterWorkerError(true)).toBe('not-loaded');
  });

  it('says what to change, and offers Reload', () => {
    const store = createStore();
    store.set(sessionUnavailableAtom, 'storage-blocked');
    const markup = renderToStaticMarkup(createElement(Provider, { store }, createElement(SessionUnavailable)));
    expect(markup).toContain(
      'Your browser is set not to let this site keep data, which Parley needs. <span class="detail">Allow site data for this site in your browser’s settings, then reload.</span>',
    );
    expect(markup).toContain('>Reload</button>');
  });
});

/** A shared worker as entry.ts runs it, as far as its lock goes: it holds its own lock from its start until it ends. */
function runningWorker(locks: FakeWebLocks, workerId: string): { held: SessionLockHeld; end: () => void } {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const held: SessionLockHeld = { type: SESSION_LOCK_HELD, lock: sessionLockName(workerId) };
  void locks.request(held.lock, () => ended);
  return { held, end };
}

/** Comlink's answer to each attach so far. */
function answerAttaches(sessionPort: MessagePort, attaches: { id: string }[]): void {
  attaches.forEach(({ id }) => sessionPort.postMessage({ id, type: 'RAW', value: undefined }));
}

/** Lets the page's port and the locks' grants run (real time, no timer decides anything). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('A tab notices when the shared worker it attached to is gone (crashed, out of memory, ended by the browser): its port and Comlink never say so', () => {
  it('the worker holds its lock for its life and names it to the tab; ended after the tab attached, the tab is granted the lock, lets it go and says the session is unavailable', async () => {
    const locks = new FakeWebLocks();
    const { sessionPort, attaches } = pageWithSession(locks);
    const worker = runningWorker(locks, 'worker-1');
    const store = createStore();
    const { attached } = new SessionBridge(store).start();
    sessionPort.postMessage(worker.held);
    await until(() => attaches.length === 1, 'the attach at the session');
    answerAttaches(sessionPort, attaches);
    await attached;
    await until(() => locks.requested.filter((name) => name === worker.held.lock).length === 2, 'the tab’s request for the worker’s lock');
    await settle();
    expect(store.get(sessionUnavailableAtom)).toBeUndefined();

    worker.end();
    await until(() => store.get(sessionUnavailableAtom) === 'stopped', 'the tab to say its session stopped');
    // Let go at once: nothing in this page holds the worker's lock any more.
    await until(() => !locks.isHeld(worker.held.lock), 'the lock let go');
    sessionPort.close();
  });

  it('a worker that dies just after answering the attach stays gone: the answer, read after the tab was granted the worker’s lock, does not take “stopped” back', async () => {
    const locks = new FakeWebLocks();
    const { sessionPort, attaches } = pageWithSession(locks);
    const worker = runningWorker(locks, 'worker-1');
    const store = createStore();
    const { attached } = new SessionBridge(store).start();
    sessionPort.postMessage(worker.held);
    await until(() => attaches.length === 1 && locks.requested.filter((name) => name === worker.held.lock).length === 2, 'the attach and the tab’s request for the worker’s lock');

    worker.end();
    await until(() => store.get(sessionUnavailableAtom) === 'stopped', 'the tab to say its session stopped');
    answerAttaches(sessionPort, attaches);
    await attached;
    await settle();
    expect(store.get(sessionUnavailableAtom)).toBe('stopped');
    sessionPort.close();
  });

  it('two tabs attached to a living worker are told nothing; both say so once it ends', async () => {
    const locks = new FakeWebLocks();
    const { sessionPort, attaches } = pageWithSession(locks);
    const worker = runningWorker(locks, 'worker-1');
    const stores = [createStore(), createStore()];
    // Both tabs' ports are the fake page's one port: each Comlink handle takes only its own answers.
    stores.forEach((store) => new SessionBridge(store).start());
    sessionPort.postMessage(worker.held);
    await until(() => attaches.length === 2, 'both attaches at the session');
    answerAttaches(sessionPort, attaches);
    await until(() => locks.requested.filter((name) => name === worker.held.lock).length === 3, 'both tabs’ requests for the worker’s lock');
    await settle();
    expect(stores.map((store) => store.get(sessionUnavailableAtom))).toEqual([undefined, undefined]);

    worker.end();
    await until(() => stores.every((store) => store.get(sessionUnavailableAtom) === 'stopped'), 'both tabs to say their session stopped');
    sessionPort.close();
  });

  it('a worker that follows another (every tab had closed) is not taken for gone when the one before it ends', async () => {
    const locks = new FakeWebLocks();
    const { sessionPort, attaches } = pageWithSession(locks);
    const before = runningWorker(locks, 'worker-before');
    const store = createStore();
    new SessionBridge(store).start();
    // The new worker starts while the one before it still holds its lock; the tab is told the new one's.
    const after = runningWorker(locks, 'worker-after');
    sessionPort.postMessage(after.held);
    await until(() => attaches.length === 1, 'the attach at the session');
    answerAttaches(sessionPort, attaches);
    await until(() => locks.requested.filter((name) => name === after.held.lock).length === 2, 'the tab’s request for the new worker’s lock');

    before.end();
    await settle();
    expect(store.get(sessionUnavailableAtom)).toBeUndefined();
    expect(locks.requested.filter((name) => name === before.held.lock)).toHaveLength(1);

    after.end();
    await until(() => store.get(sessionUnavailableAtom) === 'stopped', 'the tab to say so once its own worker ends');
    sessionPort.close();
  });
});

describe('The tab that runs a call lets go of it when the shared worker is gone: nothing of the session answers any more, so nothing of the call should run on', () => {
  it('in the call, the worker ends: the camera and microphone stop and the call closes (its connections, relay link and lock) without leaving through the session; a reload joins it again as you were', async () => {
    const locks = new FakeWebLocks();
    const { sessionPort, attaches } = pageWithSession(locks);
    const worker = runningWorker(locks, 'worker-1');
    const call = harness();
    const { attached } = new SessionBridge(call.store).start();
    sessionPort.postMessage(worker.held);
    await until(() => attaches.length === 1, 'the attach at the session');
    answerAttaches(sessionPort, attaches);
    await attached;
    call.runtime.start();
    await settle();
    await call.runtime.joinCall();
    call.deliverCallRecord();
    await settle();
    expect(call.store.get(call.runtime.atoms.phase)).toBe('in-call');
    const tracks = call.mediaDevices.captured.flat();
    expect(tracks.filter((track) => track.readyState === 'live').map((track) => track.kind)).toEqual(['audio', 'video']);

    worker.end();
    await until(() => call.store.get(sessionUnavailableAtom) === 'stopped', 'the tab to say its session stopped');
    await settle();
    expect(tracks.filter((track) => track.readyState === 'live')).toEqual([]);
    expect(call.engines.map((engine) => engine.closed)).toEqual([true]);
    expect(call.log).not.toContain('leaveCall');
    expect(call.runtime.ownMediaInCall()).toEqual({ microphoneMuted: false, cameraOff: false, sharingScreen: false });
    call.runtime.dispose();
    expect(call.log).not.toContain('leaveCall');
    sessionPort.close();
  });

  it('a runtime started once the worker was found gone opens nothing: no camera or microphone under "Parley stopped working", and a join asked for with it takes no lock and never waits on the dead session', async () => {
    const released: string[] = [];
    const call = harness({ previewCapture: { take: async () => undefined, release: () => released.push('page-load capture') } });
    call.store.set(sessionUnavailableAtom, 'stopped');

    await call.runtime.start({ joinCall: true });
    await settle();
    expect(call.runtime.media.local()).toEqual([]);
    expect(call.mediaDevices.captured.flat().filter((track) => track.readyState === 'live')).toEqual([]);
    expect(call.engines.filter((engine) => !engine.closed)).toEqual([]);
    expect(call.log).not.toContain('joinCall');
    expect(released).toEqual(['page-load capture']);
    expect(call.store.get(call.runtime.atoms.deviceToggles).camera.starting).toBe(false);
    call.runtime.dispose();
  });

  it('a call closed once its session answers nothing lets go of its lock all the same: another tab of yours, or the page after the reload, can run it', async () => {
    const locks = new FakeWebLocks();
    const unanswered = (): Promise<never> => new Promise(() => {});
    const clock = new ManualClock();
    const call = new Call({
      roomAddress: ROOM,
      store: createStore(),
      signaling: { send: unanswered, claimCall: unanswered, releaseCall: unanswered },
      media: new MediaItems({ clock }),
      iceServers: [],
      clock,
      logger: { info: () => undefined, error: () => undefined },
      locks,
      reportPeerMedia: unanswered,
      createPeerConnection: () => new FakePeerConnection() as unknown as RTCPeerConnection,
    });
    await call.start();
    expect(locks.isHeld(callLockName(ROOM))).toBe(true);

    void call.close();
    await settle();
    expect(locks.isHeld(callLockName(ROOM))).toBe(false);
  });
});

/**
 * A room page's calls in a browser with a camera and a microphone: `attached` settles once the tab
 * has the session; `stoppedBefore`, the worker was found gone before the page's calls loaded.
 */
function roomPageCalls({ attached = Promise.resolve(), stoppedBefore = false }: { attached?: Promise<void>; stoppedBefore?: boolean } = {}) {
  const mediaDevices = new FakeMediaDevices();
  const locks = new FakeWebLocks();
  vi.stubGlobal('navigator', { locks, mediaDevices });
  const store = createStore();
  if (stoppedBefore) store.set(sessionUnavailableAtom, 'stopped');
  const bridge = { tabId: 'tab-1', actions: { jingle: {} } } as unknown as SessionBridge;
  const calls = new TabCalls({ bridge, store, attached, analysis: () => ({}) as Remote<AnalysisWorkerApi> });
  const live = () => mediaDevices.captured.flat().filter((track) => track.readyState === 'live');
  return { store, calls, live, asked: () => mediaDevices.requests, locks };
}

describe('A room page lets go of the camera and microphone it asked for as it loaded once the shared worker is gone: no call runtime can take them any more', () => {
  it('the worker ends before a call runtime took the page load’s capture: the camera and microphone go off', async () => {
    const { store, calls, live } = roomPageCalls();
    calls.startPreviewCapture('standup');
    await settle();
    expect(live().map((track) => track.kind)).toEqual(['audio', 'video']);

    store.set(sessionUnavailableAtom, 'stopped');
    await settle();
    expect(live()).toEqual([]);
  });

  it('the worker found gone while the page load’s ask waits for the session: nothing is asked for', async () => {
    let attach = (): void => undefined;
    const { store, calls, asked } = roomPageCalls({ attached: new Promise<void>((resolve) => (attach = resolve)) });
    calls.startPreviewCapture('standup');
    store.set(sessionUnavailableAtom, 'stopped');
    attach();
    await settle();
    expect(asked()).toEqual([]);
  });

  it('the worker ends after “Join call” took the call’s lock ahead, before a call runtime took it: the lock goes, for another tab of yours or the page after the reload', async () => {
    const { store, calls, locks } = roomPageCalls();
    calls.claimCallAhead(ROOM);
    await settle();
    expect(locks.isHeld(callLockName(ROOM))).toBe(true);

    store.set(sessionUnavailableAtom, 'stopped');
    await settle();
    expect(locks.isHeld(callLockName(ROOM))).toBe(false);
  });

  it('the worker found gone before the page’s calls loaded: nothing is asked for', async () => {
    const { calls, asked } = roomPageCalls({ stoppedBefore: true });
    calls.startPreviewCapture('standup');
    await settle();
    expect(asked()).toEqual([]);
  });
});

describe('A room page whose name the XMPP localpart rules refuse asks for no camera or microphone, though it reads most names without loading those rules (issue 14, the bundles)', () => {
  it('a name with a character room addresses cannot hold: nothing is asked for', async () => {
    const { calls, asked } = roomPageCalls();
    calls.startPreviewCapture('standup 🎉');
    // The rules the page loads for that name, loaded here too: the page's check has run once they are.
    await import('../../src/protocol/rooms');
    await settle();
    expect(asked()).toEqual([]);
  });

  it('a name with characters beyond ASCII that room addresses know: the camera and microphone are asked for', async () => {
    const { calls, live } = roomPageCalls();
    calls.startPreviewCapture('café');
    await until(() => live().length === 2);
    expect(live().map((track) => track.kind)).toEqual(['audio', 'video']);
  });
});
