import type { RoomEvent } from '../protocol/entities';

const whoOf = (event: RoomEvent) => event.displayName ?? 'Someone';

/** A removal's reason, when the moderator gave one, as a destroyed room's is said (RoomStatus). */
const reasonOf = (event: RoomEvent) => (event.reason ? ` (“${event.reason}”)` : '');

/** What an event line says, in the chat log and to a screen reader (RoomAnnouncer). */
export function roomEventText(event: RoomEvent): string {
  const who = whoOf(event);
  switch (event.kind) {
    case 'joined':
      return `${who} joined`;
    case 'left':
      return `${who} left`;
    case 'reconnected':
      return `${who} reconnected`;
    case 'renamed':
      return `${event.formerName ?? 'Someone'} is now known as ${who}`;
    case 'kicked':
      return `${who} was removed from the room${reasonOf(event)}`;
    case 'banned':
      return `${who} was removed and banned from the room${reasonOf(event)}`;
    case 'locked':
      return 'The room was locked with a password';
    case 'unlocked':
      return 'The room was unlocked';
    case 'attention':
      return `${who} asked for your attention`;
  }
}

/**
 * What an event line of the chat log says. A leave's line of a person the call still keeps
 * (`heldLeaveIdsAtomFamily`) says they are reconnecting, as their tile and list entry do: it becomes
 * "reconnected" if they are back, or "left" once the call lets them go.
 */
export function eventLineText(event: RoomEvent, held: boolean): string {
  return held ? `${whoOf(event)} is reconnecting…` : roomEventText(event);
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
