import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/protocol/entities';
import { HISTORY_OVERLAP_MS, rejoinHistorySince } from '../../src/shared-worker/chat/historySince';

const ROOM = 'room@rooms.example';

function message(id: string, time: number, change: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id, stanzaId: id, body: id, direction: 'incoming', displayName: 'P', senderAddress: `${ROOM}/p`, roomAddress: ROOM,
    time, editedTime: undefined, replace: undefined, acked: true, customerData: undefined, ...change,
  };
}

describe('No chat lost: a rejoin asks the room for its history since just before the last message it delivered (issue 13)', () => {
  it('starts an overlap before the latest message the room delivered, in that room only', () => {
    const messages = { a: message('a', 10_000_000), b: message('b', 10_500_000), c: message('c', 99_000_000, { roomAddress: 'other@rooms.example' }) };
    expect(rejoinHistorySince(messages, ROOM)).toBe(10_500_000 - HISTORY_OVERLAP_MS);
  });

  it('does not count our messages the room has not confirmed (written during the outage)', () => {
    const messages = { a: message('a', 10_000_000), mine: message('mine', 20_000_000, { direction: 'outgoing', acked: false }) };
    expect(rejoinHistorySince(messages, ROOM)).toBe(10_000_000 - HISTORY_OVERLAP_MS);
  });

  it('asks for nothing special when no message of the room is held (the room’s default history)', () => {
    expect(rejoinHistorySince({}, ROOM)).toBeUndefined();
  });
});
