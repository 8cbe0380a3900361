import type { PreferencesCommands } from '../../protocol/commands';
import type { Preferences } from '../../protocol/entities';
import { PREFERENCES_READ_WITHIN_MS } from '../../protocol/clientDefaults';
import type { SessionContext, SessionDomain } from '../SessionContext';
import { roomNameToLocalpart } from '../../protocol/rooms';
import { readWithin } from '../indexedDb';
import { parsePreferencesChange, parseStoredPreferences, recentRoomName, recentRoomsOf } from './parsePreferences';
import type { PreferencesStorage } from './PreferencesStorage';

/**
 * User preferences (SPEC §3), shared by every tab and persisted. The display name defaults to the
 * provider's configured one, else 'Anonymous', until the person sets their own. Storage never holds
 * the session up: a read unanswered within PREFERENCES_READ_WITHIN_MS leaves the defaults meanwhile.
 */
export class PreferencesDomain implements SessionDomain, PreferencesCommands {
  /** What the person chose; no default is saved, so defaults can still follow the provider. */
  private chosen: Partial<Preferences> = {};
  /** The stored fields this build does not know (another build's), saved again with the record. */
  private otherFields: Readonly<Record<string, unknown>> = {};
  private readonly loaded: Promise<void>;

  constructor(
    private readonly context: SessionContext,
    private readonly storage: PreferencesStorage,
  ) {
    this.loaded = this.load();
  }

  /** Resolves once stored preferences are in the state, or the defaults once the read took too long. */
  ready(): Promise<void> {
    return this.loaded;
  }

  async setPreferences(change: Partial<Preferences>): Promise<void> {
    await this.loaded;
    await this.choose(parsePreferencesChange(change));
  }

  async rememberRoom(roomName: unknown): Promise<void> {
    const name = recentRoomName(roomName);
    await this.loaded;
    await this.choose({ recentRooms: recentRoomsOf([name, ...this.context.store.state.preferences.recentRooms]) });
  }

  async forgetRoom(roomName: unknown): Promise<void> {
    const localpart = roomNameToLocalpart(recentRoomName(roomName));
    await this.loaded;
    await this.choose({ recentRooms: this.context.store.state.preferences.recentRooms.filter((name) => roomNameToLocalpart(name) !== localpart) });
  }

  connected(): void {
    const configured = this.context.config?.displayName;
    if (this.chosen.displayName === undefined && configured) this.publish({ ...this.context.store.state.preferences, displayName: configured });
  }

  private async load(): Promise<void> {
    let answered = false;
    const reading = Promise.resolve()
      .then(() => this.storage.load())
      .finally(() => (answered = true));
    try {
      this.take(await readWithin(reading, this.context.clock, PREFERENCES_READ_WITHIN_MS));
    } catch (error) {
      if (answered) {
        this.context.log.error(`stored preferences ignored: ${String(error)}`);
      } else {
        this.context.log.info(`stored preferences not read (${String(error)}): the defaults meanwhile`);
        reading.then(
          (stored) => this.takeLate(stored),
          (lateError: unknown) => this.context.log.error(`stored preferences ignored: ${String(lateError)}`),
        );
      }
    }
    this.publish({ ...this.context.store.state.preferences, ...this.chosen });
  }

  /**
   * Takes a stored record under what the person chose since the session started (nothing, unless
   * the record came late): each field that passes its check, the others logged.
   */
  private take(stored: unknown): void {
    if (stored === undefined) return;
    const { chosen, otherFields, dropped } = parseStoredPreferences(stored);
    for (const reason of dropped) this.context.log.info(`a stored preference ignored: ${reason}`);
    const meanwhile = this.chosen;
    this.chosen = { ...chosen, ...meanwhile };
    // Rooms remembered meanwhile go ahead of the stored ones, which they do not replace.
    if (meanwhile.recentRooms && chosen.recentRooms) this.chosen.recentRooms = recentRoomsOf([...meanwhile.recentRooms, ...chosen.recentRooms]);
    this.otherFields = otherFields;
  }

  /** A stored record that came after the session went on with the defaults; saved again if a save meanwhile wrote over it. */
  private takeLate(stored: unknown): void {
    const choseMeanwhile = Object.keys(this.chosen).length > 0;
    try {
      this.take(stored);
    } catch (error) {
      this.context.log.error(`stored preferences ignored: ${String(error)}`);
      return;
    }
    this.publish({ ...this.context.store.state.preferences, ...this.chosen });
    if (choseMeanwhile) this.save().catch((error: unknown) => this.context.log.error(`preferences not saved: ${String(error)}`));
  }

  /**
   * Takes a validated change at once (a list read just before it is not changed meanwhile by another
   * command), then saves what the person chose.
   */
  private choose(parsed: Partial<Preferences>): Promise<void> {
    this.chosen = { ...this.chosen, ...parsed };
    this.publish({ ...this.context.store.state.preferences, ...parsed });
    return this.save();
  }

  /** Saves what the person chose; a refusal is in the state too, for the home page to say what it means. */
  private async save(): Promise<void> {
    try {
      await this.storage.save({ ...this.otherFields, ...this.chosen });
    } catch (error) {
      this.keptInStorage(false);
      throw error;
    }
    this.keptInStorage(true);
  }

  private keptInStorage(kept: boolean): void {
    if (this.context.store.state.preferencesNotKept === !kept) return;
    this.context.store.apply({ kind: 'preferencesNotKept', value: !kept });
  }

  private publish(preferences: Preferences): void {
    this.context.store.apply({ kind: 'preferences', value: preferences });
  }
}
