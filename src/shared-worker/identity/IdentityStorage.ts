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
