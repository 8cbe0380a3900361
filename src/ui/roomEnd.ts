import type { Room } from '../protocol/entities';
import { roomHasEnded } from '../protocol/roomEnded';

/** How a room ended for us, when it did: the room's screen then says so and offers the way home, and the call is gone. */
export type RoomEnd =
  /** Banned: removed by the owner's kick while in the room (`reason`: theirs, if they gave one), or refused on joining. */
  | { kind: 'banned'; whileIn: boolean; reason: string | undefined }
  | { kind: 'destroyed'; reason: string | undefined; byYou: boolean }
  /** Put out of the room without a ban (role none, membership lost, …); `reason`: a moderator's, if they gave one. */
  | { kind: 'removed'; reason: string | undefined }
  /** "Leave", in another tab of yours: the session is out of the room for every tab. */
  | { kind: 'left' };

export function roomEndOf(room: Room | undefined): RoomEnd | undefined {
  if (!room || !roomHasEnded(room)) return undefined;
  if (room.roomState === 'banned' || !room.removal) {
    const ban = room.removal?.kind === 'banned' ? room.removal : undefined;
    return { kind: 'banned', whileIn: ban !== undefined, reason: ban?.reason };
  }
  switch (room.removal.kind) {
    case 'banned':
      return { kind: 'banned', whileIn: true, reason: room.removal.reason };
    case 'destroyed':
      return { kind: 'destroyed', reason: room.removal.reason, byYou: room.removal.byYou };
    case 'kicked':
      return { kind: 'removed', reason: room.removal.reason };
    case 'removed':
      return { kind: 'removed', reason: undefined };
  }
}

/**
 * The room page holds no call for the room: its join or rejoin failed (a call alone, with no room and
 * the camera live, is no call; the session ends its record too), or it asks for its password before
 * we were ever in (the prompt is the next step; nor while a password given there is tried: the camera
 * is not for a room that has not let us in). A join refused for its password sets passwordRequired
 * with the 'password-required' state.
 */
export function notInRoom(room: Room | undefined): boolean {
  return room?.roomState === 'failed' || (room?.joinedAt === undefined && room?.passwordRequired === true && room.roomState !== 'joined');
}
