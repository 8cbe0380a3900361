import type { Room } from './entities';

// Nothing here may import ./rooms: every page's entry chunk loads this file (the tab's atoms), and
// ./rooms brings StanzaJS's stringprep tables, which no page needs before its first frame.

/** The room joined (or being joined) at an address. */
export function roomByAddress(rooms: Record<string, Room>, address: string): Room | undefined {
  for (const room of Object.values(rooms)) if (room.address === address) return room;
  return undefined;
}
