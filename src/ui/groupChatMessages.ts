import type { ChatMessage } from '../protocol/entities';
import { CHAT } from '../protocol/constants';

export interface ChatMessageGroup {
  /** The first message's id: stable while the group grows. */
  key: string;
  senderAddress: string;
  direction: ChatMessage['direction'];
  displayName: string;
  startTime: number;
  /** Between you and one person (ChatMessage.privately): never in a group with room messages. */
  privately: boolean;
  /** Ours, private: whom they went to (one group per recipient). */
  recipientAddress: string | undefined;
  recipientName: string | undefined;
  messages: ChatMessage[];
}

/**
 * SPEC §9 chat grouping, as SimpleWebRTC 1.30.3 groups (getGroupedChatsForRoom): consecutive
 * messages from one sender under one name share one header while each is within the window of the
 * group's first message, so a header never stands for longer than the window; a new name (the
 * sender renamed) starts a group, as does a private message, a room message after it, and a private
 * one to someone else. Messages must be in time order.
 */
export function groupChatMessages(messages: readonly ChatMessage[], windowMs: number = CHAT.groupingWindowMs): ChatMessageGroup[] {
  const groups: ChatMessageGroup[] = [];
  let last: ChatMessageGroup | undefined;
  for (const message of messages) {
    const privately = message.privately === true;
    const sameThread =
      last &&
      last.senderAddress === message.senderAddress &&
      last.displayName === message.displayName &&
      last.direction === message.direction &&
      last.privately === privately &&
      last.recipientAddress === message.recipientAddress;
    if (last && sameThread && message.time <= last.startTime + windowMs) {
      last.messages.push(message);
    } else {
      last = {
        key: message.id,
        senderAddress: message.senderAddress,
        direction: message.direction,
        displayName: message.displayName,
        startTime: message.time,
        privately,
        recipientAddress: message.recipientAddress,
        recipientName: message.recipientName,
        messages: [message],
      };
      groups.push(last);
    }
  }
  return groups;
}
