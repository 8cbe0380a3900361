/// <reference lib="webworker" />
import { consoleLogger } from '../common/logger';
import { gatewayAddresses, publicOrigin } from '../protocol/endpoints';
import { SESSION_LOCK_HELD, SESSION_UNAVAILABLE, sessionLockName, type SessionLockHeld } from '../protocol/tabs';
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
 * The worker holds a lock of its own for its whole life and tells each tab its name, so that a tab
 * learns when the worker is gone however it ends (SessionBridge).
 */
declare const self: SharedWorkerGlobalScope;

// Asked for first, and not waited for: the request goes to the browser at once, and nothing of the
// login or of the tabs' attaches waits for its grant. Held until this worker ends; the browser
// releases it then, whether the worker closed, crashed or was killed. Each tab is told its name
// once it is held, so that a tab's request for it always comes after ours.
const sessionLock: SessionLockHeld = { type: SESSION_LOCK_HELD, lock: sessionLockName(crypto.randomUUID()) };
const sessionLockHeld = new Promise<void>((held) => {
  void navigator.locks.request(sessionLock.lock, () => {
    held();
    return new Promise<never>(() => {});
  });
});

const addresses = gatewayAddresses(publicOrigin(self.location));
const identityStorage = new ReadAheadIdentityStorage(new IndexedDbIdentityStorage());
const fetchAhead = startConnectionAhead(globalThis, addresses, identityStorage, (url, init) => fetch(url, init), consoleLogger('[parley session]'));

const waiting: MessagePort[] = [];
let expose: ((port: MessagePort) => void) | undefined;

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0];
  if (!port) return;
  void sessionLockHeld.then(() => port.postMessage(sessionLock));
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
