import { createStore } from 'jotai';
import type { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionBridge } from '../../src/main-thread/SessionBridge';
import { fakeSessionPage } from '../support/fakeSessionPage';
import { FakeWebLocks } from '../support/fakeWebLocks';
import { until } from '../support/until';

afterEach(() => vi.unstubAllGlobals());

/** A page whose session the test holds: what the tab asks of the session, by the call's path, in order. */
function pageWithSession(onLine: boolean): { sessionPort: MessagePort; asked: string[]; attachIds: string[] } {
  const locks = new FakeWebLocks();
  const sessionPort = fakeSessionPage(locks);
  vi.stubGlobal('navigator', { locks: { request: locks.request, query: locks.query }, onLine });
  const asked: string[] = [];
  const attachIds: string[] = [];
  sessionPort.on('message', (message: { id: string; path?: string[] }) => {
    const path = message.path?.join('.');
    if (path === undefined) return;
    asked.push(path);
    if (path === 'attach') attachIds.push(message.id);
  });
  return { sessionPort, asked, attachIds };
}

describe('The session hears the browser’s network events from each tab’s attach on, not only once it is answered; navigator.onLine alone is not taken for offline (SPEC §7 browser network events)', () => {
  it('a page that reads itself offline as it opens (no network but loopback, a Parley on the same machine) says nothing but its attach: its attempt tells', async () => {
    const { sessionPort, asked } = pageWithSession(false);
    const { attachSent } = new SessionBridge(createStore()).start();
    await attachSent;
    await until(() => asked.length === 1, 'the attach');
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(['attach']);
    sessionPort.close();
  });

  it('going offline while the attach waits for its answer reaches the session, and so does coming back', async () => {
    const { sessionPort, asked, attachIds } = pageWithSession(true);
    const { attached } = new SessionBridge(createStore()).start();
    await until(() => asked.length === 1, 'the attach');
    window.dispatchEvent(new Event('offline'));
    await until(() => asked.length === 2, 'the offline event at the session');
    sessionPort.postMessage({ id: attachIds[0], type: 'RAW', value: undefined });
    await attached;
    window.dispatchEvent(new Event('online'));
    await until(() => asked.length === 3, 'the online event at the session');
    expect(asked).toEqual(['attach', 'offline', 'online']);
    sessionPort.close();
  });
});
