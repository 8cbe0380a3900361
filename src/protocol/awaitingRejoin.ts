import type { Room } from './entities';

/**
 * The room was joined and the session is bringing us back in (connection lost, or rejoining; or
 * refused as not started, SPEC §4 waiting: a server that lost its rooms, with rooms that need a
 * host, refuses us until the host is back, and the session asks again until then, ROOM_START_RETRY):
 * chat written now waits for the rejoin instead of being refused, and the call keeps its people
 * (RejoinHold). Apart from the room names' rules (rooms.ts), whose StringPrep tables a page that
 * only chats need not load.
 */
export function awaitingRejoin(room: Room): boolean {
  return room.joinedAt !== undefined && room.address !== undefined && (room.roomState === 'interrupted' || room.roomState === 'joining' || room.roomState === 'waiting');
}
