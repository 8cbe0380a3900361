import type { Preferences } from '../../protocol/entities';

/** Where preferences persist: IndexedDB in the browser (readable by the shared worker), memory in Node. */
export interface PreferencesStorage {
  load(): Promise<unknown>;
  /** Saves the preferences the person chose (not the defaults), with the fields of another build's record carried through. */
  save(chosen: Partial<Preferences>): Promise<void>;
}

export class MemoryPreferencesStorage implements PreferencesStorage {
  private saved: Partial<Preferences> | undefined;

  async load(): Promise<unknown> {
    return this.saved;
  }

  async save(chosen: Partial<Preferences>): Promise<void> {
    this.saved = { ...chosen };
  }
}
