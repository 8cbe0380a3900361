import { IndexedDbRecords } from '../indexedDb';

/** Where the browser keeps its guest identity credential: IndexedDB in the SharedWorker, memory in Node. */
export interface IdentityStorage {
  /** The stored credential as stored: anything, to be checked. */
  load(): Promise<unknown>;
  save(credential: string): Promise<void>;
}

const KEY = 'guest';

export class IndexedDbIdentityStorage implements IdentityStorage {
  private readonly records = new IndexedDbRecords('parley-identity', 'identity');

  load(): Promise<unknown> {
    return this.records.read(KEY);
  }

  save(credential: string): Promise<void> {
    return this.records.write(KEY, credential);
  }
}

/**
 * A storage whose read was started as it was made: the shared worker makes it before it loads the
 * session's code (entry.ts, issue 14), and both the config request sent ahead and the session's
 * first config request read it then. That read serves every load until a save; a load after a save
 * reads the storage anew.
 */
export class ReadAheadIdentityStorage implements IdentityStorage {
  private ahead: Promise<unknown> | undefined;

  constructor(private readonly storage: IdentityStorage) {
    const ahead = storage.load();
    // Read by the session's first connect; a failure then is the connect's to log (GuestIdentity).
    ahead.catch(() => undefined);
    this.ahead = ahead;
  }

  load(): Promise<unknown> {
    return this.ahead ?? this.storage.load();
  }

  save(credential: string): Promise<void> {
    this.ahead = undefined;
    return this.storage.save(credential);
  }
}

/** One browser's storage in Node: sessions given the same instance are the same browser (a reload). */
export class MemoryIdentityStorage implements IdentityStorage {
  private stored: string | undefined;

  async load(): Promise<unknown> {
    return this.stored;
  }

  async save(credential: string): Promise<void> {
    this.stored = credential;
  }
}
