import { nodeprep } from 'stanza/lib/stringprep/index.js';
import type { Room } from './entities';
import { ValidationError } from './errors';
import { mapRoomName, RoomNameError } from './roomLocalpart';

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

/**
 * Turns a room name a person typed ("Team Sync!") into a valid, stable MUC localpart ("team-sync!"):
 * `mapRoomName`, then the XMPP localpart rules. The home page, the client and the server's room
 * config all decide with this. Throws RoomNameError when the name cannot name a room, saying why.
 */
export function roomNameToLocalpart(name: string): string {
  const localpart = mapRoomName(name);
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
