import type { ChatMessage } from '../../protocol/entities';

/**
 * How much before the last message held a rejoin asks the room's history from: it covers a
 * difference between our clock and the server's; what overlaps is dropped as a duplicate.
 */
export const HISTORY_OVERLAP_MS = 5 * 60_000;

/**
 * The `<history since>` of a rejoin (XEP-0045 §7.2.15): from just before the last message the room
 * delivered to us, so what others said while we were away is fetched and nothing older. Undefined
 * when nothing from the room is held (the room's default history then). Our messages the room has
 * not confirmed do not count: they may have been written long after the connection was lost.
 */
export function rejoinHistorySince(messages: Readonly<Record<string, ChatMessage>>, roomAddress: string): number | undefined {
  let latest: number | undefined;
  for (const message of Object.values(messages)) {
    if (message.roomAddress !== roomAddress || !message.acked) continue;
    if (latest === undefined || message.time > latest) latest = message.time;
  }
  return latest === undefined ? undefined : latest - HISTORY_OVERLAP_MS;
}
