import type { Room } from './entities';

/**
 * The room ended for us: banned (on joining, or by the owner's kick), or put out (kicked, destroyed,
 * removed). That stays until the person acts: the session does not rejoin it after an outage, and the
 * room's screen says how it ended (src/ui/roomEnd.ts).
 */
export function roomHasEnded(room: Room): boolean {
  return room.roomState === 'banned' || (room.roomState === 'failed' && room.removal !== undefined);
}

/**
 * We had been in the room and its rejoin failed (unanswered, refused as full or otherwise, or the room
 * stopped on its server again before we were back in): no end, but a fault the session gets over by
 * itself, joining again on ROOM_START_RETRY's schedule (RoomJoinRetries) while the page says so.
 */
export function rejoinRetried(room: Room): boolean {
  return room.roomState === 'failed' && room.joinedAt !== undefined && room.removal === undefined;
}
