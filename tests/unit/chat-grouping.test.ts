import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/protocol/entities';
import { groupChatMessages } from '../../src/ui/groupChatMessages';

const ROOM = 'room@rooms.parley.localhost';
const ANN = `${ROOM}/ann`;
const T = Date.UTC(2024, 0, 1, 12);

function message(id: string, time: number, senderAddress = ANN): ChatMessage {
  return {
    id,
    stanzaId: id,
    body: id,
    direction: 'incoming',
    displayName: 'Ann',
    senderAddress,
    roomAddress: ROOM,
    time,
    editedTime: undefined,
    replace: undefined,
    acked: true,
    customerData: undefined,
  };
}

/** The ids of each group's messages, group by group. */
const grouped = (messages: readonly ChatMessage[]): string[][] => groupChatMessages(messages).map((group) => group.messages.map(({ id }) => id));

describe('SPEC §9 chat grouping window: "Chat grouping window 300 s by default"', () => {
  it('one sender 299.999 s after their last message stays in its group', () => {
    expect(grouped([message('first', T), message('second', T + 299_999)])).toEqual([['first', 'second']]);
  });

  it('one sender 300.001 s after their last message starts a new group', () => {
    expect(grouped([message('first', T), message('second', T + 300_001)])).toEqual([['first'], ['second']]);
  });
});
