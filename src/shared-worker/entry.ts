/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { docsLink, type ErrorCode } from '../protocol/errors';
import { tabLockName } from '../protocol/tabs';
import { systemClock } from '../common/clock';
import { createSession } from './createSession';
import { IndexedDbIdentityStorage } from './identity/IdentityStorage';
import { consoleLogger } from '../common/logger';
import { IndexedDbPreferencesStorage } from './preferences/IndexedDbPreferencesStorage';

/** The SharedWorker adapter: one session per origin, exposed to every tab over its MessagePort. */
declare const self: SharedWorkerGlobalScope;

const { tabs } = createSession({
  clock: systemClock,
  fetch: (input, init) => fetch(input, init),
  log: consoleLogger<ErrorCode>('[parley session]', docsLink),
  configUrl: new URL('/api/config', self.location.origin).href,
  serverReadyUrl: new URL('/api/xmpp-ready', self.location.origin).href,
  preferencesStorage: new IndexedDbPreferencesStorage(),
  identityStorage: new IndexedDbIdentityStorage(),
  // The tab holds its lock for its whole life, so ours is granted exactly when the tab is gone.
  tabGone: (tabId) => navigator.locks.request(tabLockName(tabId), () => undefined),
});

// A page starts this worker before its own scripts have arrived (scripts/vite/startEarly.ts): the
// session starts connecting now, not once the first tab has attached (issue 14, the join path).
// The worker lives only while a page holds it, and every page of Parley uses the session.
tabs.connect();

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0];
  if (port) Comlink.expose(tabs, port);
});
