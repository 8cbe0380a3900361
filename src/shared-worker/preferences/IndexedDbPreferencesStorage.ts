import type { Preferences } from '../../protocol/entities';
import { readValue, writeValue } from '../indexedDb';
import type { PreferencesStorage } from './PreferencesStorage';

const KEY = 'user';

/** Preferences in IndexedDB, so every tab and the shared worker see the same ones. */
export class IndexedDbPreferencesStorage implements PreferencesStorage {
  load(): Promise<unknown> {
    return readValue('preferences', KEY);
  }

  save(chosen: Partial<Preferences>): Promise<void> {
    return writeValue('preferences', KEY, chosen);
  }
}
