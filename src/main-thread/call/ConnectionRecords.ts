import type { createStore } from 'jotai';
import { connectionsAtom } from './callAtoms';
import type { Connection } from './Connection';

type JotaiStore = ReturnType<typeof createStore>;

/**
 * The one writer of SPEC §3 Connection records (connectionsAtom): every Jingle session of the call
 * — mesh both ways, and the relay's sessions that carry a consumer's offer — is set here while it
 * lives and removed when it ends.
 */
export class ConnectionRecords {
  constructor(private readonly store: JotaiStore) {}

  set(connection: Connection): void {
    this.store.set(connectionsAtom, (connections) => ({ ...connections, [connection.id]: connection }));
  }

  remove(sid: string): void {
    this.store.set(connectionsAtom, (connections) => {
      if (!(sid in connections)) return connections;
      const rest = { ...connections };
      delete rest[sid];
      return rest;
    });
  }
}
