import type { RoomEvent } from '../protocol/entities';
import { formatDateTime, formatTime } from './formatTime';
import { eventLineText } from './roomEventText';

/**
 * One event line in the chat (issue 15): not a message, so it has no sender header and cannot be
 * edited. `held`: a leave's line of a person the call still keeps (their media still arrives), which
 * may yet be a reconnection and reads as one until it is settled.
 */
export function ChatEventLine({ event, held }: { event: RoomEvent; held: boolean }) {
  return (
    <p className={`chat-event chat-event-${event.kind}`}>
      <time dateTime={new Date(event.time).toISOString()} title={formatDateTime(event.time)}>
        {formatTime(event.time)}
      </time>{' '}
      {eventLineText(event, held)}
    </p>
  );
}
