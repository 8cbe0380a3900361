/// <reference lib="webworker" />
import type { Logger } from '../common/logger';
import { gatewayAddresses, publicOrigin } from '../protocol/endpoints';
import { SESSION_UNAVAILABLE } from '../protocol/tabs';
import { FetchAhead } from './ahead/FetchAhead';
import { openXmppSocketAhead } from './ahead/xmppSocketAhead';
import { configRequestInit } from './configRequestInit';
import { GuestIdentity } from './identity/GuestIdentity';
import { IndexedDbIdentityStorage, ReadAheadIdentityStorage } from './identity/IdentityStorage';

/**
 * The SharedWorker's first script (issue 14, the join path). Before it loads the session's code —
 * StanzaJS is most of it, and a module worker compiles everything it imports statically before it
 * runs a line — it starts what the session's first login needs and can be started without that
 * code: the XMPP websocket on this origin's gateway, the stored identity's read and the config
 * request. The session takes both over when it asks for the same ones.
 * Tabs that connect meanwhile wait: a port's messages are held until the session exposes itself on it.
 * Should the session's code not load, each tab is told, and the worker closes.
 */
declare const self: SharedWorkerGlobalScope;

const addresses = gatewayAddresses(publicOrigin(self.location));
openXmppSocketAhead(globalThis, addresses.xmppWebsocket);
const identityStorage = new ReadAheadIdentityStorage(new IndexedDbIdentityStorage());
const requestsAhead = new FetchAhead((url, init) => fetch(url, init));
// A new visitor's config request goes now: in a fresh profile, creating the identity's database
// took 20–60 ms of a busy join. A stored identity asks again with it, and the first answer, a
// stateless new guest, goes unused.
requestsAhead.send(addresses.config, configRequestInit());
// The session's own read of the same storage logs its trouble; this one would only say it twice.
const unlogged: Logger = { info: () => undefined, error: () => undefined };
void new GuestIdentity(identityStorage, unlogged).current().then((identity) => {
  if (identity !== undefined) requestsAhead.send(addresses.config, configRequestInit(undefined, identity));
});

const waiting: MessagePort[] = [];
let expose: ((port: MessagePort) => void) | undefined;

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0];
  if (!port) return;
  if (expose) expose(port);
  else waiting.push(port);
});

void import('./sessionWorker').then(
  ({ startSessionWorker }) => {
    expose = startSessionWorker({ identityStorage, fetch: requestsAhead.fetch, addresses });
    waiting.splice(0).forEach(expose);
  },
  () => {
    // The tabs say so in words (SessionBridge); closed, this worker gives way to a new one at a reload.
    expose = (port) => port.postMessage(SESSION_UNAVAILABLE);
    waiting.splice(0).forEach(expose);
    self.close();
  },
);
