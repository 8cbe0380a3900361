/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { docsLink, type ErrorCode } from '../protocol/errors';
import { tabLockName } from '../protocol/tabs';
import { systemClock } from '../common/clock';
import { createSession } from './createSession';
import { TabConnection } from './TabConnection';
import type { IdentityStorage } from './identity/IdentityStorage';
import type { Fetch } from './ConfigClient';
import type { GatewayAddresses } from '../protocol/endpoints';
import { consoleLogger } from '../common/logger';
import { IndexedDbPreferencesStorage } from './preferences/IndexedDbPreferencesStorage';

/** What the worker's first script (entry.ts) has started and hands to the session. */
export interface SessionWorkerStart {
  identityStorage: IdentityStorage;
  /** The network, with the config request the first script sent ahead. */
  fetch: Fetch;
  addresses: GatewayAddresses;
}

/**
 * The SharedWorker's session: one per origin, started as the worker starts (entry.ts loads this).
 * Returns what exposes it to a tab over that tab's MessagePort.
 */
export function startSessionWorker({ identityStorage, fetch, addresses }: SessionWorkerStart): (port: MessagePort) => void {
  const { tabs } = createSession({
    clock: systemClock,
    fetch,
    log: consoleLogger<ErrorCode>('[parley session]', docsLink),
    configUrl: addresses.config,
    serverReadyUrl: addresses.xmppReady,
    preferencesStorage: new IndexedDbPreferencesStorage(),
    identityStorage,
    // The tab holds its lock for its whole life, so ours is granted exactly when the tab is gone.
    tabGone: (tabId) => navigator.locks.request(tabLockName(tabId), () => undefined),
  });
  // A page starts this worker before its own scripts have arrived (scripts/vite/startEarly.ts): the
  // session starts connecting now, not once the first tab has attached (issue 14, the join path).
  // The worker lives only while a page holds it, and every page of Parley uses the session.
  tabs.connect();
  // One connection per tab's port: the chat commands that come in on it are that tab's (its drafts go with it).
  return (port) => Comlink.expose(new TabConnection(tabs), port);
}
