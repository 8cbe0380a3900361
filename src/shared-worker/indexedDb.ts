/** The shared worker's one IndexedDB database and its stores: the person's preferences, the browser's guest identity. */
const DATABASE = 'parley';
/** 1: preferences; 2: identity. */
const VERSION = 2;
export type ParleyStore = 'preferences' | 'identity';
const STORES: readonly ParleyStore[] = ['preferences', 'identity'];

let database: Promise<IDBDatabase> | undefined;

export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Opens (once) and upgrades the database; a connection an upgrade elsewhere needs is closed rather than held. */
function open(): Promise<IDBDatabase> {
  database ??= new Promise<IDBDatabase>((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, VERSION);
    opening.onupgradeneeded = () => {
      for (const store of STORES) if (!opening.result.objectStoreNames.contains(store)) opening.result.createObjectStore(store);
    };
    opening.onsuccess = () => {
      opening.result.onversionchange = () => {
        opening.result.close();
        database = undefined;
      };
      resolve(opening.result);
    };
    // An older worker still holds the database open: fail now instead of waiting for it.
    opening.onblocked = () => reject(new Error('IndexedDB upgrade blocked by another connection'));
    opening.onerror = () => reject(opening.error ?? new Error('IndexedDB open failed'));
  }).catch((error: unknown) => {
    database = undefined;
    throw error;
  });
  return database;
}

export async function readValue(store: ParleyStore, key: string): Promise<unknown> {
  const db = await open();
  return request(db.transaction(store, 'readonly').objectStore(store).get(key));
}

export async function writeValue(store: ParleyStore, key: string, value: unknown): Promise<void> {
  const db = await open();
  await request(db.transaction(store, 'readwrite').objectStore(store).put(value, key));
}
