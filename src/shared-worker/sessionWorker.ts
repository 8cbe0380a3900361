/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { docsLink, type ErrorCode } from '../protocol/errors';
import { tabLockName } from '../protocol/tabs';
import { systemClock } from '../common/clock';
import { createSession } from './createSession';
import type { IdentityStorage } from './identity/IdentityStorage';
import { consoleLogger } from '../common/logger';
import { IndexedDbPreferencesStorage } from './preferences/IndexedDbPreferencesStorage';

declare const self: SharedWorkerGlobalScope;

/**
 * The SharedWorker's session: one per origin, started as the worker starts (entry.ts loads this).
 * Returns what exposes it to a tab over that tab's MessagePort.
 */
export function startSessionWorker(identityStorage: IdentityStorage): (port: MessagePort) => void {
  const { tabs } = createSession({
    clock: systemClock,
    fetch: (input, init) => fetch(input, init),
    log: consoleLogger<ErrorCode>('[parley session]', docsLink),
    configUrl: new URL('/api/config', self.location.origin).href,
    serverReadyUrl: new URL('/api/xmpp-ready', self.location.origin).href,
    preferencesStorage: new IndexedDbPreferencesStorage(),
    identityStorage,
    // The tab holds its lock for its whole life, so ours is granted exactly when the tab is gone.
    tabGone: (tabId) => navigator.locks.request(tabLockName(tabId), () => undefined),
  });
  // A page starts this worker before its own scripts have arrived (scripts/vite/startEarly.ts): the
  // session starts connecting now, not once the first tab has attached (issue 14, the join path).
  // The worker lives only while a page holds it, and every page of Parley uses the session.
  tabs.connect();
  return (port) => Comlink.expose(tabs, port);
}
