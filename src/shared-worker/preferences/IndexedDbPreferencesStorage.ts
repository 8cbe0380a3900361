import type { Preferences } from '../../protocol/entities';
import type { PreferencesStorage } from './PreferencesStorage';

const DATABASE = 'parley';
const STORE = 'preferences';
const KEY = 'user';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Preferences in IndexedDB, so every tab and the shared worker see the same ones. */
export class IndexedDbPreferencesStorage implements PreferencesStorage {
  private database: Promise<IDBDatabase> | undefined;

  async load(): Promise<unknown> {
    const db = await this.open();
    return request(db.transaction(STORE, 'readonly').objectStore(STORE).get(KEY));
  }

  async save(chosen: Partial<Preferences>): Promise<void> {
    const db = await this.open();
    await request(db.transaction(STORE, 'readwrite').objectStore(STORE).put(chosen, KEY));
  }

  private open(): Promise<IDBDatabase> {
    this.database ??= new Promise((resolve, reject) => {
      const opening = indexedDB.open(DATABASE, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error ?? new Error('IndexedDB open failed'));
    });
    return this.database;
  }
}
