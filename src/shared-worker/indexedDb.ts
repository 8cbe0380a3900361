import type { Clock } from '../common/clock';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Resolves once the transaction is committed: a put's success comes before, and a commit can still fail (quota). */
function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * A stored record's read, or a rejection once it has gone unanswered for `withinMs`: an IndexedDB
 * can hang (a browser's bug, a database held by a page that does not let go), and what waits for
 * the read must not wait for ever.
 */
export function readWithin<T>(read: Promise<T>, clock: Clock, withinMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(`no answer within ${withinMs} ms`)), withinMs);
    read.then(resolve, reject).finally(() => clock.clearTimeout(timer));
  });
}

/**
 * Records the shared worker keeps in IndexedDB, readable by every tab's worker of the origin. One
 * database of one store per kind of record, each at version 1: a new kind never upgrades another's
 * database, which an older worker still running in an open tab would block.
 */
export class IndexedDbRecords {
  private database: Promise<IDBDatabase> | undefined;

  constructor(
    private readonly databaseName: string,
    private readonly storeName: string,
  ) {}

  async read(key: string): Promise<unknown> {
    const db = await this.open();
    return request(db.transaction(this.storeName, 'readonly').objectStore(this.storeName).get(key));
  }

  /** Resolves once the value is committed, and rejects with what refused it (a full quota, an abort). */
  async write(key: string, value: unknown): Promise<void> {
    const db = await this.open();
    const transaction = db.transaction(this.storeName, 'readwrite');
    transaction.objectStore(this.storeName).put(value, key);
    await committed(transaction);
  }

  private open(): Promise<IDBDatabase> {
    if (this.database) return this.database;
    const database: Promise<IDBDatabase> = new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open(this.databaseName, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(this.storeName);
      opening.onsuccess = () => {
        const db = opening.result;
        // The browser closes the connection when the site's data is cleared, and a page deleting the
        // database asks it to close (its delete waits for that): the next use opens afresh.
        const forget = (): void => {
          db.close();
          if (this.database === database) this.database = undefined;
        };
        db.onclose = forget;
        db.onversionchange = forget;
        resolve(db);
      };
      opening.onerror = () => reject(opening.error ?? new Error('IndexedDB open failed'));
    }).catch((error: unknown) => {
      if (this.database === database) this.database = undefined;
      throw error;
    });
    this.database = database;
    return database;
  }
}
