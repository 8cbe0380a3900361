import type { RoomEvent } from '../protocol/entities';

/** What an event line says, in the chat log and to a screen reader (RoomAnnouncer). */
export function roomEventText(event: RoomEvent): string {
  const who = event.displayName ?? 'Someone';
  switch (event.kind) {
    case 'joined':
      return `${who} joined`;
    case 'left':
      return `${who} left`;
    case 'reconnected':
      return `${who} reconnected`;
    case 'kicked':
      return `${who} was removed from the room`;
    case 'banned':
      return `${who} was removed and banned from the room`;
    case 'locked':
      return 'The room was locked with a password';
    case 'unlocked':
      return 'The room was unlocked';
    case 'attention':
      return `${who} asked for your attention`;
  }
}

/**
 * The event lines a screen reader has not been told of: those that arrived since the last look
 * (`seen`, the ids then), none on the first look (what was there when the page opened is no news),
 * and never an attention request, which AttentionAlerts already announces as an alert.
 */
export function unannouncedEvents(seen: ReadonlySet<string> | undefined, events: readonly RoomEvent[]): RoomEvent[] {
  if (!seen) return [];
  return events.filter((event) => !seen.has(event.id) && event.kind !== 'attention');
}
