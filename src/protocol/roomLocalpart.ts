import { LIMITS } from './constants';
import { ValidationError } from './errors';

/**
 * A room name's localpart as far as it can be read without the XMPP localpart rules (stringprep,
 * `rooms.ts`), whose tables weigh 10 KB of gzip: a room page reads its own name with this before
 * its first frame (issue 14, the bundles), and loads those rules only for a name that needs them.
 */

/** Characters RFC 7622 forbids in a localpart, plus white space and controls. */
// eslint-disable-next-line no-control-regex
const NOT_IN_LOCALPART = /[\s"&'/:<>@\u0000-\u001f\u007f]+/gu;
/** A MUC localpart longer than this many characters is not useful as a room name (and fits 1023 bytes). */
export const MAX_ROOM_LOCALPART_LENGTH = 128;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const NON_ASCII = /[^\p{ASCII}]/u;

/** Why a room name cannot name a room; `kind` lets a page word it for its own context. */
export class RoomNameError extends ValidationError {
  constructor(
    readonly kind: 'empty' | 'too-long' | 'not-addressable',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The localpart a room name maps to ("Team Sync!" → "team-sync!"), counting and cutting in
 * characters (code points), never inside one, before the XMPP localpart rules are applied. Throws
 * RoomNameError when the name is too long or maps to nothing a person could tell apart.
 */
export function mapRoomName(name: string): string {
  const length = Array.from(name).length;
  if (length > LIMITS.roomNameLength) {
    throw new RoomNameError('too-long', `A room name has at most ${LIMITS.roomNameLength} characters; this one has ${length}.`);
  }
  const mapped = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(NOT_IN_LOCALPART, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  const localpart = Array.from(mapped).slice(0, MAX_ROOM_LOCALPART_LENGTH).join('').replace(/-+$/, '');
  if (!localpart) throw new RoomNameError('empty', 'room name is empty');
  // "!!!" is a valid address, but names nothing a person could tell apart or say.
  if (!LETTER_OR_DIGIT.test(localpart)) throw new RoomNameError('empty', 'room name has no letters or digits');
  return localpart;
}

/**
 * Whether the XMPP localpart rules could refuse this mapped localpart. Those rules refuse, among
 * ASCII, only white space, controls and `"&'/:<>@`, which `mapRoomName` has replaced, and they
 * lowercase, which it has done: an ASCII localpart always passes.
 */
export function needsLocalpartRules(localpart: string): boolean {
  return NON_ASCII.test(localpart);
}
