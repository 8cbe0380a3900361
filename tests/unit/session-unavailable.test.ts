import { createStore } from 'jotai';
import type { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionUnavailableAtom } from '../../src/main-thread/sessionAtoms';
import { SessionBridge } from '../../src/main-thread/SessionBridge';
import { SESSION_ATTACH_WITHIN_MS } from '../../src/protocol/clientDefaults';
import { SESSION_UNAVAILABLE } from '../../src/protocol/tabs';
import { fakeSessionPage } from '../support/fakeSessionPage';
import { until } from '../support/until';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A page whose session the test holds, with the tab's attaches as they arrive. */
function pageWithSession(): { sessionPort: MessagePort; attaches: { id: string }[] } {
  const sessionPort = fakeSessionPage();
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
    await until(() => store.get(sessionUnavailableAtom), 'the tab to say so');
    sessionPort.close();
  });

  it(`an attach not answered within ${SESSION_ATTACH_WITHIN_MS / 1000} s (a worker that closed as the tab connected) says so; answered later, the tab takes it back`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { sessionPort, attaches } = pageWithSession();
    const store = createStore();
    new SessionBridge(store).start();
    await until(() => attaches.length === 1, 'the attach at the session');

    vi.advanceTimersByTime(SESSION_ATTACH_WITHIN_MS - 1);
    expect(store.get(sessionUnavailableAtom)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.get(sessionUnavailableAtom)).toBe(true);

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
    expect(store.get(sessionUnavailableAtom)).toBe(false);
    sessionPort.close();
  });
});
