import { LIMITS } from './constants';
import type { Room } from './entities';
import { ValidationError } from './errors';

/** Characters RFC 7622 forbids in a localpart, plus white space and controls. */
// eslint-disable-next-line no-control-regex
const NOT_IN_LOCALPART = /[\s"&'/:<>@\u0000-\u001f\u007f]+/gu;
/** A MUC localpart longer than this is not useful as a room name (and must fit 1023 bytes). */
const MAX_ROOM_LOCALPART_LENGTH = 128;

/**
 * Turns a room name a person typed ("Team Sync!") into a valid, stable MUC localpart ("team-sync!").
 * Throws ValidationError when nothing usable is left.
 */
export function roomNameToLocalpart(name: string): string {
  if (name.length > LIMITS.roomNameLength) throw new ValidationError(`room name is longer than ${LIMITS.roomNameLength} characters`);
  const localpart = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(NOT_IN_LOCALPART, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_ROOM_LOCALPART_LENGTH);
  if (!localpart) throw new ValidationError('room name is empty');
  return localpart;
}

/**
 * The room was joined and the session is bringing us back in (connection lost, or rejoining):
 * chat written now waits for the rejoin instead of being refused.
 */
export function awaitingRejoin(room: Room): boolean {
  return room.joinedAt !== undefined && room.address !== undefined && (room.roomState === 'interrupted' || room.roomState === 'joining');
}
