import type { Room } from '../protocol/entities';
import { roomHasEnded } from '../protocol/roomEnded';

/** How a room ended for us, when it did: the room's screen then says so and offers the way home, and the call is gone. */
export type RoomEnd =
  /** Banned: removed by the owner's kick while in the room, or refused on joining. */
  | { kind: 'banned'; whileIn: boolean }
  | { kind: 'destroyed'; reason: string | undefined; byYou: boolean }
  /** Put out of the room without a ban (role none, a server shutdown, …). */
  | { kind: 'removed' }
  /** "Leave", in another tab of yours: the session is out of the room for every tab. */
  | { kind: 'left' };

export function roomEndOf(room: Room | undefined): RoomEnd | undefined {
  if (!room || !roomHasEnded(room)) return undefined;
  if (room.roomState === 'banned' || !room.removal) return { kind: 'banned', whileIn: room.removal?.kind === 'banned' };
  switch (room.removal.kind) {
    case 'banned':
      return { kind: 'banned', whileIn: true };
    case 'destroyed':
      return { kind: 'destroyed', reason: room.removal.reason, byYou: room.removal.byYou };
    case 'kicked':
    case 'removed':
      return { kind: 'removed' };
  }
}
