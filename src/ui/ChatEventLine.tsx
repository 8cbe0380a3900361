import type { RoomEvent } from '../protocol/entities';
import { formatDateTime, formatTime } from './formatTime';

/** What an event line says. */
function eventText(event: RoomEvent): string {
  const who = event.displayName ?? 'Someone';
  switch (event.kind) {
    case 'joined':
      return `${who} joined`;
    case 'left':
      return `${who} left`;
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

/** One event line in the chat (issue 15): not a message, so it has no sender header and cannot be edited. */
export function ChatEventLine({ event }: { event: RoomEvent }) {
  return (
    <p className={`chat-event chat-event-${event.kind}`}>
      <time dateTime={new Date(event.time).toISOString()} title={formatDateTime(event.time)}>
        {formatTime(event.time)}
      </time>{' '}
      {eventText(event)}
    </p>
  );
}
