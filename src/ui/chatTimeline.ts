import { CHAT } from '../protocol/constants';
import type { ChatMessage, RoomEvent } from '../protocol/entities';
import { startOfDay } from './formatTime';
import { groupChatMessages, type ChatMessageGroup } from './groupChatMessages';

export type ChatTimelineItem =
  | { kind: 'group'; key: string; group: ChatMessageGroup }
  | { kind: 'event'; key: string; event: RoomEvent }
  /** The first item of a calendar day (local time), in a log that holds more than one: `time` is that item's. */
  | { kind: 'day'; key: string; time: number }
  /** Before the first message that came while you were not looking (`newFrom`). */
  | { kind: 'new'; key: string };

/**
 * A room's chat as it reads: message groups (SPEC §9 grouping) and event lines (issue 15) in time
 * order. An event line between two messages of one sender starts a new group after it. A log that
 * spans several days (a room's history) says where each day begins, and no group crosses midnight;
 * the message `newFrom` (its id) starts the new ones, after a line of its own. Both lists must be in
 * time order.
 */
export function chatTimeline(messages: readonly ChatMessage[], events: readonly RoomEvent[], newFrom?: string): ChatTimelineItem[] {
  const items: ChatTimelineItem[] = [];
  const times = [messages[0]?.time, messages.at(-1)?.time, events[0]?.time, events.at(-1)?.time].filter((time) => time !== undefined);
  // A local calendar day is known by its midnight.
  const severalDays = new Set(times.map(startOfDay)).size > 1;
  let day: number | undefined;
  let run: ChatMessage[] = [];
  const flush = () => {
    for (const group of groupChatMessages(run, CHAT.groupingWindowMs)) items.push({ kind: 'group', key: group.key, group });
    run = [];
  };
  /** Before an item at `time`: a new day's line, after what the day before said. */
  const dayBreak = (time: number) => {
    if (!severalDays || startOfDay(time) === day) return;
    flush();
    day = startOfDay(time);
    items.push({ kind: 'day', key: `day-${day}`, time });
  };
  const pushEvent = (event: RoomEvent) => {
    dayBreak(event.time);
    flush();
    items.push({ kind: 'event', key: event.id, event });
  };
  let next = 0;
  for (const message of messages) {
    while (next < events.length && (events[next] as RoomEvent).time < message.time) pushEvent(events[next++] as RoomEvent);
    dayBreak(message.time);
    if (message.id === newFrom) {
      flush();
      items.push({ kind: 'new', key: 'new-messages' });
    }
    run.push(message);
  }
  flush();
  for (const event of events.slice(next)) pushEvent(event);
  return items;
}

/**
 * The first of the room's last `unreadCount` messages from others (Room.unreadCount counts those):
 * where the new ones begin. More than the log holds (it keeps LIMITS.chatMessagesPerRoom): its first.
 */
export function firstUnreadId(messages: readonly ChatMessage[], unreadCount: number): string | undefined {
  let first: string | undefined;
  let left = unreadCount;
  for (let index = messages.length - 1; index >= 0 && left > 0; index -= 1) {
    const message = messages[index] as ChatMessage;
    if (message.direction !== 'incoming') continue;
    first = message.id;
    left -= 1;
  }
  return first;
}
