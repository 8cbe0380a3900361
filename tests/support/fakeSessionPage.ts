import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { vi } from 'vitest';
import { FakeWebLocks } from './fakeWebLocks';

/**
 * What a page's SharedWorker and Web Locks give the session bridge, faked because Node has neither:
 * the worker's port is one end of a real message channel, whose other end is returned for the test
 * to hold as the session's; Web Locks are `locks` (by default a fresh `FakeWebLocks`, where a lock
 * nobody holds is granted at once); the browser is online, and `window` takes the events a test
 * dispatches. Undo with `vi.unstubAllGlobals()`.
 */
export function fakeSessionPage(locks: FakeWebLocks = new FakeWebLocks()): MessagePort {
  const { port1: pagePort, port2: sessionPort } = new MessageChannel();
  vi.stubGlobal(
    'SharedWorker',
    class extends EventTarget {
      readonly port = pagePort;
    },
  );
  vi.stubGlobal('navigator', { locks: { request: locks.request, query: locks.query }, onLine: true });
  // The page's own events (online, offline) are the test's to dispatch.
  vi.stubGlobal('window', new EventTarget());
  return sessionPort;
}
