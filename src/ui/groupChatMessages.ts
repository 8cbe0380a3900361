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
 * SPEC §9 chat grouping: consecutive messages from one sender, each within the window of the one
 * before it, share one header; a private message starts a group of its own, as a room message after
 * it does, and a private one to someone else. Messages must be in time order.
 */
export function groupChatMessages(messages: readonly ChatMessage[], windowMs: number = CHAT.groupingWindowMs): ChatMessageGroup[] {
  const groups: ChatMessageGroup[] = [];
  let last: ChatMessageGroup | undefined;
  let lastTime = 0;
  for (const message of messages) {
    const privately = message.privately === true;
    const sameThread = last && last.senderAddress === message.senderAddress && last.direction === message.direction && last.privately === privately && last.recipientAddress === message.recipientAddress;
    if (last && sameThread && message.time - lastTime <= windowMs) {
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
    lastTime = message.time;
  }
  return groups;
}
