import type { Room } from './entities';
import { ValidationError } from './errors';
import { roomNameToLocalpart } from './rooms';

/** The room joined (or being joined) at an address. */
export function roomByAddress(rooms: Record<string, Room>, address: string): Room | undefined {
  for (const room of Object.values(rooms)) if (room.address === address) return room;
  return undefined;
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
