import { STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS } from '../../protocol/clientDefaults';
import { DEFAULT_PREFERENCES, LIMITS } from '../../protocol/constants';
import type { Preferences, RequestingMedia } from '../../protocol/entities';
import { ValidationError } from '../../protocol/errors';
import { roomNameToLocalpart } from '../../protocol/rooms';
import { expectRecord } from '../../protocol/validate';

const MEDIA: readonly RequestingMedia[] = ['none', 'audio', 'video'];

function boolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new ValidationError(`${name} must be true or false`);
  return value;
}

function numberIn(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new ValidationError(`${name} must be a number from ${min} to ${max}`);
  }
  return value;
}

function text(value: unknown, name: string, maxLength: number): string {
  if (typeof value !== 'string') throw new ValidationError(`${name} must be text`);
  if (value.length > maxLength) throw new ValidationError(`${name} is longer than ${maxLength} characters`);
  return value;
}

/** A room name as the person gave it, trimmed; a name that names no room is refused (RoomNameError). */
export function recentRoomName(value: unknown): string {
  const name = text(value, 'a recent room', LIMITS.roomNameLength).trim();
  roomNameToLocalpart(name);
  return name;
}

/** Adds a room to `byAddress` once (by its address: "Team Sync" and "team-sync" are one room), the first name kept, while it holds fewer than LIMITS.recentRooms. */
function addRecentRoom(byAddress: Map<string, string>, name: string): void {
  const localpart = roomNameToLocalpart(name);
  if (!byAddress.has(localpart) && byAddress.size < LIMITS.recentRooms) byAddress.set(localpart, name);
}

/** Each room once (by its address), the first kept, at most LIMITS.recentRooms. */
export function recentRoomsOf(names: readonly string[]): string[] {
  const byAddress = new Map<string, string>();
  for (const name of names) addRecentRoom(byAddress, name);
  return [...byAddress.values()];
}

/** Validates each field a change carries; unknown fields are refused rather than stored. */
const FIELDS: { [K in keyof Preferences]: (value: unknown) => Preferences[K] } = {
  displayName: (value) => text(value, 'displayName', LIMITS.displayNameLength).trim() || DEFAULT_PREFERENCES.displayName,
  globalVolumeLimit: (value) => numberIn(value, 'globalVolumeLimit', 0, 1),
  mediaEnabled: (value) => boolean(value, 'mediaEnabled'),
  pushToTalk: (value) => boolean(value, 'pushToTalk'),
  requestingMedia: (value) => {
    if (!MEDIA.includes(value as RequestingMedia)) throw new ValidationError(`requestingMedia must be one of ${MEDIA.join(', ')}`);
    return value as RequestingMedia;
  },
  voiceActivityThreshold: (value) => numberIn(value, 'voiceActivityThreshold', -127, 0),
  audioOutputDeviceId: (value) => text(value, 'audioOutputDeviceId', 256),
  sendOnEnter: (value) => boolean(value, 'sendOnEnter'),
  realTimeText: (value) => boolean(value, 'realTimeText'),
  sounds: (value) => boolean(value, 'sounds'),
  recentRooms: (value) => {
    if (!Array.isArray(value) || value.length > LIMITS.recentRooms) throw new ValidationError(`recentRooms must be a list of at most ${LIMITS.recentRooms} room names`);
    return recentRoomsOf(value.map(recentRoomName));
  },
};

/** The check of a preference this build knows (an own field of FIELDS: not `toString` and the like). */
function fieldCheck(name: string): ((value: unknown) => unknown) | undefined {
  return Object.hasOwn(FIELDS, name) ? FIELDS[name as keyof Preferences] : undefined;
}

export function parsePreferencesChange(change: unknown): Partial<Preferences> {
  const record = expectRecord(change, 'preferences');
  const parsed: Partial<Record<keyof Preferences, unknown>> = {};
  for (const [name, value] of Object.entries(record)) {
    const check = fieldCheck(name);
    if (!check) throw new ValidationError(`unknown preference ${name}`);
    parsed[name as keyof Preferences] = check(value);
  }
  return parsed as Partial<Preferences>;
}

/** The stored record read field by field (parseStoredPreferences). */
export interface StoredPreferences {
  /** The fields this build knows that pass their check. */
  chosen: Partial<Preferences>;
  /**
   * The fields this build does not know: another build's (a newer one's, before a rollback), kept
   * as they are and saved again with the record, so that this build does not delete them.
   */
  otherFields: Record<string, unknown>;
  /** Why each field left out was left out, for the log. */
  dropped: string[];
}

/** The JSON length of a value, or undefined for one JSON cannot hold (a cycle, a bigint). */
function jsonLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

/** The good names of a stored list of recent rooms, its first LIMITS.recentRooms rooms; the bad ones are counted in `dropped`. */
function storedRecentRooms(stored: readonly unknown[], dropped: string[]): string[] {
  const byAddress = new Map<string, string>();
  let refused = 0;
  for (const entry of stored) {
    if (byAddress.size === LIMITS.recentRooms) break;
    try {
      addRecentRoom(byAddress, recentRoomName(entry));
    } catch {
      refused += 1;
    }
  }
  if (refused > 0) dropped.push(`${refused} recent room${refused === 1 ? '' : 's'} naming no room`);
  return [...byAddress.values()];
}

/**
 * What was stored, read leniently: unlike a change from a tab, one bad or unknown field does not
 * cost the others (a record written by another build, a room name a newer rule refuses), since the
 * next save would make that loss permanent. Each known field that passes its check is kept, a list
 * of recent rooms keeps its good names, and other builds' fields are carried through, at most
 * STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS of them (as JSON), so the record stays bounded.
 */
export function parseStoredPreferences(stored: unknown): StoredPreferences {
  const record = expectRecord(stored, 'stored preferences');
  const chosen: Partial<Record<keyof Preferences, unknown>> = {};
  const otherFields = new Map<string, unknown>();
  const dropped: string[] = [];
  let otherFieldsLength = 0;
  let otherFieldsNotKept = 0;
  for (const [name, value] of Object.entries(record)) {
    const check = fieldCheck(name);
    if (name === 'recentRooms' && Array.isArray(value)) {
      chosen.recentRooms = storedRecentRooms(value, dropped);
    } else if (check) {
      try {
        chosen[name as keyof Preferences] = check(value);
      } catch (error) {
        dropped.push(String(error));
      }
    } else {
      const length = jsonLength(value);
      if (length !== undefined && otherFieldsLength + name.length + length <= STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS) {
        otherFieldsLength += name.length + length;
        otherFields.set(name, value);
      } else {
        otherFieldsNotKept += 1;
      }
    }
  }
  if (otherFieldsNotKept > 0) dropped.push(`${otherFieldsNotKept} fields of another build (beyond ${STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS} characters of them, or not plain data)`);
  return { chosen: chosen as Partial<Preferences>, otherFields: Object.fromEntries(otherFields), dropped };
}
