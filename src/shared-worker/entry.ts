/// <reference lib="webworker" />
import { consoleLogger } from '../common/logger';
import { gatewayAddresses, publicOrigin } from '../protocol/endpoints';
import { SESSION_UNAVAILABLE } from '../protocol/tabs';
import { startConnectionAhead } from './ahead/connectionAhead';
import { IndexedDbIdentityStorage, ReadAheadIdentityStorage } from './identity/IdentityStorage';

/**
 * The SharedWorker's first script (issue 14, the join path). Before it loads the session's code —
 * StanzaJS is most of it, and a module worker compiles everything it imports statically before it
 * runs a line — it starts what the session's first login needs and can be started without that
 * code: the XMPP websocket on this origin's gateway, the stored identity's read, the config
 * request, and on that socket the login, resource binding included, once the config has named the
 * account. The session takes them over when it asks for the same ones.
 * Tabs that connect meanwhile wait: a port's messages are held until the session exposes itself on it.
 * Should the session's code not load, each tab is told, and the worker closes.
 */
declare const self: SharedWorkerGlobalScope;

const addresses = gatewayAddresses(publicOrigin(self.location));
const identityStorage = new ReadAheadIdentityStorage(new IndexedDbIdentityStorage());
const fetchAhead = startConnectionAhead(globalThis, addresses, identityStorage, (url, init) => fetch(url, init), consoleLogger('[parley session]'));

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
    expose = startSessionWorker({ identityStorage, fetch: fetchAhead, addresses });
    waiting.splice(0).forEach(expose);
  },
  () => {
    // The tabs say so in words (SessionBridge); closed, this worker gives way to a new one at a reload.
    expose = (port) => port.postMessage(SESSION_UNAVAILABLE);
    waiting.splice(0).forEach(expose);
    self.close();
  },
);
