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

/** Each room once (by its address: "Team Sync" and "team-sync" are one room), the first kept, at most LIMITS.recentRooms. */
export function recentRoomsOf(names: readonly string[]): string[] {
  const byAddress = new Map<string, string>();
  for (const name of names) {
    const localpart = roomNameToLocalpart(name);
    if (!byAddress.has(localpart)) byAddress.set(localpart, name);
  }
  return [...byAddress.values()].slice(0, LIMITS.recentRooms);
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

export function parsePreferencesChange(change: unknown): Partial<Preferences> {
  const record = expectRecord(change, 'preferences');
  const parsed: Partial<Record<keyof Preferences, unknown>> = {};
  for (const [name, value] of Object.entries(record)) {
    const field = FIELDS[name as keyof Preferences];
    if (!field) throw new ValidationError(`unknown preference ${name}`);
    parsed[name as keyof Preferences] = field(value);
  }
  return parsed as Partial<Preferences>;
}
