import type { Room } from './entities';

/**
 * The room was joined and the session is bringing us back in (connection lost, or rejoining):
 * chat written now waits for the rejoin instead of being refused. Apart from the room names'
 * rules (rooms.ts), whose StringPrep tables a page that only chats need not load.
 */
export function awaitingRejoin(room: Room): boolean {
  return room.joinedAt !== undefined && room.address !== undefined && (room.roomState === 'interrupted' || room.roomState === 'joining');
}
