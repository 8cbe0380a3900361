import { CHAT } from '../protocol/constants';
import type { ChatMessage, RoomEvent } from '../protocol/entities';
import { groupChatMessages, type ChatMessageGroup } from './groupChatMessages';

export type ChatTimelineItem = { kind: 'group'; key: string; group: ChatMessageGroup } | { kind: 'event'; key: string; event: RoomEvent };

/**
 * A room's chat as it reads: message groups (SPEC §9 grouping) and event lines (issue 15) in time
 * order. An event line between two messages of one sender starts a new group after it. Both lists
 * must be in time order.
 */
export function chatTimeline(messages: readonly ChatMessage[], events: readonly RoomEvent[], windowMs: number = CHAT.groupingWindowMs): ChatTimelineItem[] {
  const items: ChatTimelineItem[] = [];
  let run: ChatMessage[] = [];
  const flush = () => {
    for (const group of groupChatMessages(run, windowMs)) items.push({ kind: 'group', key: group.key, group });
    run = [];
  };
  let next = 0;
  for (const message of messages) {
    while (next < events.length && (events[next] as RoomEvent).time < message.time) {
      flush();
      const event = events[next++] as RoomEvent;
      items.push({ kind: 'event', key: event.id, event });
    }
    run.push(message);
  }
  flush();
  for (const event of events.slice(next)) items.push({ kind: 'event', key: event.id, event });
  return items;
}
