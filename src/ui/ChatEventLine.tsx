import type { RoomEvent } from '../protocol/entities';
import { formatDateTime, formatTime } from './formatTime';
import { roomEventText } from './roomEventText';

/** One event line in the chat (issue 15): not a message, so it has no sender header and cannot be edited. */
export function ChatEventLine({ event }: { event: RoomEvent }) {
  return (
    <p className={`chat-event chat-event-${event.kind}`}>
      <time dateTime={new Date(event.time).toISOString()} title={formatDateTime(event.time)}>
        {formatTime(event.time)}
      </time>{' '}
      {roomEventText(event)}
    </p>
  );
}
