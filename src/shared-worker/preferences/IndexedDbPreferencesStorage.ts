import type { Preferences } from '../../protocol/entities';
import { IndexedDbRecords } from '../indexedDb';
import type { PreferencesStorage } from './PreferencesStorage';

const KEY = 'user';

/** Preferences in IndexedDB, so every tab and the shared worker see the same ones. */
export class IndexedDbPreferencesStorage implements PreferencesStorage {
  private readonly records = new IndexedDbRecords('parley', 'preferences');

  load(): Promise<unknown> {
    return this.records.read(KEY);
  }

  save(chosen: Partial<Preferences>): Promise<void> {
    return this.records.write(KEY, chosen);
  }
}
