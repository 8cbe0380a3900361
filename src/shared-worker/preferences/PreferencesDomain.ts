import type { PreferencesCommands } from '../../protocol/commands';
import type { Preferences } from '../../protocol/entities';
import type { SessionContext, SessionDomain } from '../SessionContext';
import { roomNameToLocalpart } from '../../protocol/rooms';
import { parsePreferencesChange, recentRoomName, recentRoomsOf } from './parsePreferences';
import type { PreferencesStorage } from './PreferencesStorage';

/**
 * User preferences (SPEC §3), shared by every tab and persisted. The display name defaults to the
 * provider's configured one, else 'Anonymous', until the person sets their own.
 */
export class PreferencesDomain implements SessionDomain, PreferencesCommands {
  /** What the person chose; only this is saved, so defaults can still follow the provider. */
  private chosen: Partial<Preferences> = {};
  private readonly loaded: Promise<void>;

  constructor(
    private readonly context: SessionContext,
    private readonly storage: PreferencesStorage,
  ) {
    this.loaded = this.load();
  }

  /** Resolves once stored preferences are in the state. */
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
    try {
      const raw = await this.storage.load();
      if (raw !== undefined) this.chosen = parsePreferencesChange(raw);
    } catch (error) {
      this.context.log.error(`stored preferences ignored: ${String(error)}`);
    }
    this.publish({ ...this.context.store.state.preferences, ...this.chosen });
  }

  /**
   * Takes a validated change at once (a list read just before it is not changed meanwhile by another
   * command), then saves what the person chose.
   */
  private choose(parsed: Partial<Preferences>): Promise<void> {
    this.chosen = { ...this.chosen, ...parsed };
    this.publish({ ...this.context.store.state.preferences, ...parsed });
    return this.storage.save(this.chosen);
  }

  private publish(preferences: Preferences): void {
    this.context.store.apply({ kind: 'preferences', value: preferences });
  }
}
