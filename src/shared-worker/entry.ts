/// <reference lib="webworker" />
import { IndexedDbIdentityStorage, ReadAheadIdentityStorage } from './identity/IdentityStorage';

/**
 * The SharedWorker's first script (issue 14, the join path): it starts reading the stored identity,
 * which the session's first config request waits for, and only then loads the session's code —
 * StanzaJS is most of it, and a module worker compiles everything it imports statically before it
 * runs a line. So the IndexedDB open and read go on while that code is fetched and compiled.
 * Tabs that connect meanwhile wait: a port's messages are held until the session exposes itself on it.
 */
declare const self: SharedWorkerGlobalScope;

const identityStorage = new ReadAheadIdentityStorage(new IndexedDbIdentityStorage());
const waiting: MessagePort[] = [];
let expose: ((port: MessagePort) => void) | undefined;

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0];
  if (!port) return;
  if (expose) expose(port);
  else waiting.push(port);
});

void import('./sessionWorker').then(({ startSessionWorker }) => {
  expose = startSessionWorker(identityStorage);
  waiting.splice(0).forEach(expose);
});
