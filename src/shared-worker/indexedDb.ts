function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
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

  async write(key: string, value: unknown): Promise<void> {
    const db = await this.open();
    await request(db.transaction(this.storeName, 'readwrite').objectStore(this.storeName).put(value, key));
  }

  private open(): Promise<IDBDatabase> {
    this.database ??= new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open(this.databaseName, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(this.storeName);
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error ?? new Error('IndexedDB open failed'));
    }).catch((error: unknown) => {
      this.database = undefined;
      throw error;
    });
    return this.database;
  }
}
