import type { Room } from './entities';

/**
 * The room ended for us: banned (on joining, or by the owner's kick), or put out (kicked, destroyed,
 * removed). That stays until the person acts: the session does not rejoin it after an outage, and the
 * room's screen says how it ended (src/ui/roomEnd.ts).
 */
export function roomHasEnded(room: Room): boolean {
  return room.roomState === 'banned' || (room.roomState === 'failed' && room.removal !== undefined);
}
