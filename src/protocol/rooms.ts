import { nodeprep } from 'stanza/lib/stringprep/index.js';
import { LIMITS } from './constants';
import type { Room } from './entities';
import { ValidationError } from './errors';

/** Characters RFC 7622 forbids in a localpart, plus white space and controls. */
// eslint-disable-next-line no-control-regex
const NOT_IN_LOCALPART = /[\s"&'/:<>@\u0000-\u001f\u007f]+/gu;
/** A MUC localpart longer than this many characters is not useful as a room name (and fits 1023 bytes). */
export const MAX_ROOM_LOCALPART_LENGTH = 128;

/** Why a room name cannot name a room; `kind` lets a page word it for its own context. */
export class RoomNameError extends ValidationError {
  constructor(
    readonly kind: 'empty' | 'too-long' | 'not-addressable',
    message: string,
  ) {
    super(message);
  }
}

/** How a character that room addresses cannot hold is described to a person. */
function describeRefused(character: string, refusal: string): string {
  const codePoint = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\p{Cs}/u.test(character)) return `${codePoint}, half of a character that is missing its other half`;
  if (/\p{Cc}/u.test(character)) return `${codePoint}, a control character`;
  if (/\p{Co}/u.test(character)) return `${codePoint}, a private-use character`;
  // Room addresses know the characters of Unicode 3.2 (stringprep, RFC 3454): emoji came later.
  if (refusal.startsWith('Unassigned')) return `"${character}" (${codePoint}), which room addresses do not know (they cannot hold emoji or other characters added to Unicode since 2002)`;
  return `"${character}" (${codePoint}), a character room addresses cannot hold`;
}

/** Throws RoomNameError when the XMPP localpart rules (nodeprep, unassigned code points refused, as the server applies them) refuse it. */
function expectAddressable(localpart: string): void {
  try {
    nodeprep(localpart, false);
    return;
  } catch {
    for (const character of localpart) {
      try {
        nodeprep(character, false);
      } catch (error) {
        throw new RoomNameError('not-addressable', `That room name cannot become a room address: it contains ${describeRefused(character, (error as Error).message)}.`);
      }
    }
    // Every character passes alone: the bidirectional-text rule refused the mix.
    throw new RoomNameError('not-addressable', 'That room name cannot become a room address: it mixes right-to-left and left-to-right letters.');
  }
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Turns a room name a person typed ("Team Sync!") into a valid, stable MUC localpart ("team-sync!"),
 * counting and cutting in characters (code points), never inside one. The home page, the client
 * and the server's room config all decide with this. Throws RoomNameError when the name cannot
 * name a room, saying why.
 */
export function roomNameToLocalpart(name: string): string {
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
  expectAddressable(localpart);
  return localpart;
}

/** The RoomNameError roomNameToLocalpart would throw for this name, if any (for forms that show it). */
export function roomNameError(name: string): RoomNameError | undefined {
  try {
    roomNameToLocalpart(name);
    return undefined;
  } catch (error) {
    if (error instanceof RoomNameError) return error;
    throw error;
  }
}

/** The room a person asked for by a name that normalises to this localpart (roomNameToLocalpart). */
export function roomByLocalpart(rooms: Record<string, Room>, localpart: string): Room | undefined {
  for (const room of Object.values(rooms)) {
    try {
      if (roomNameToLocalpart(room.providedName) === localpart) return room;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
    }
  }
  return undefined;
}
