import type { Stanzas } from 'stanza';
import { expectRoomAddress } from '../../protocol/addresses';
import { LIMITS } from '../../protocol/constants';
import type { RequestingMedia } from '../../protocol/entities';
import { ValidationError } from '../../protocol/errors';

/** Validation of what tabs pass to the room commands (they arrive over Comlink: untrusted shapes). */

const MEDIA: ReadonlySet<string> = new Set<RequestingMedia>(['none', 'audio', 'video']);

export function expectPassword(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new ValidationError('password must be a non-empty string');
  if (value.length > LIMITS.roomPasswordLength) throw new ValidationError(`password is longer than ${LIMITS.roomPasswordLength} characters`);
  return value;
}

export function optionalPassword(value: unknown): string | undefined {
  return value === undefined || value === '' ? undefined : expectPassword(value);
}

export function expectMedia(value: unknown): RequestingMedia {
  if (typeof value !== 'string' || !MEDIA.has(value)) throw new ValidationError('media must be none, audio or video');
  return value as RequestingMedia;
}

/** destroyRoom's alternate venue: a room address, its password and a reason, each optional. */
export function optionalAlternate(value: unknown): Stanzas.MUCDestroy {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object') throw new ValidationError('alternate must be an object');
  const { roomAddress, password, reason } = value as Record<string, unknown>;
  const venue: Stanzas.MUCDestroy = {};
  if (roomAddress !== undefined) venue.jid = expectRoomAddress(roomAddress, 'alternate roomAddress');
  const secret = optionalPassword(password);
  if (secret !== undefined) venue.password = secret;
  if (reason !== undefined) {
    if (typeof reason !== 'string' || reason.length > LIMITS.reasonLength) throw new ValidationError(`reason must be a string of at most ${LIMITS.reasonLength} characters`);
    if (reason) venue.reason = reason;
  }
  return venue;
}
