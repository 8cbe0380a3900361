// SPEC §3 chat message records and SPEC §5 message editing, on the real StateStore: what a correction
// does, what the room's echo acknowledges, and that a message is held once.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import type { ChatMessage } from '../../src/protocol/entities';
import { correctionFolder, correctionTarget, roomMessageRecords } from '../../src/protocol/chatCorrections';
import { ChatMessages, incomingKey, type IncomingMessage, type OutgoingMessage } from '../../src/shared-worker/chat/ChatMessages';
import { StateStore } from '../../src/shared-worker/StateStore';

const ROOM = 'room@rooms.example';
const SELF = `${ROOM}/me`;
const PEER = `${ROOM}/peer`;

function outgoing(stanzaId: string, body: string, replace?: string, time = 1_000): OutgoingMessage {
  return { stanzaId, roomAddress: ROOM, body, replace, displayName: 'Me', senderAddress: SELF, customerData: undefined, time, acked: false };
}

function incoming(stanzaId: string, body: string, replace?: string): IncomingMessage {
  return { stanzaId, roomAddress: ROOM, body, replace, displayName: 'Peer', senderAddress: PEER, customerData: undefined, time: 2_000 };
}

function setup(): { store: StateStore; messages: ChatMessages; all: () => ChatMessage[] } {
  const store = new StateStore();
  return { store, messages: new ChatMessages(store), all: () => Object.values(store.state.messages) };
}

describe('SPEC §5 message editing: accepted as a correction only if the original was outgoing', () => {
  it('corrects our own message in place: one record, new body and editedTime, unacked until echoed', () => {
    const { messages, all } = setup();
    messages.addOutgoing(outgoing('m1', 'helo'));
    messages.acknowledge(ROOM, 'm1', undefined);
    expect(messages.addOutgoing(outgoing('c1', 'hello', 'm1', 5_000))).toBe('m1');
    expect(all()).toEqual([expect.objectContaining({ id: 'm1', stanzaId: 'm1', body: 'hello', time: 1_000, editedTime: 5_000, acked: false, replace: undefined })]);
  });

  it("stores a replace naming a message that was not ours as a new message with replace set", () => {
    const { messages, all } = setup();
    messages.addIncoming(incoming('p1', 'theirs'));
    expect(messages.addOutgoing(outgoing('m2', 'mine', 'p1'))).toBe('m2');
    expect(messages.addOutgoing(outgoing('m3', 'mine too', 'unknown'))).toBe('m3');
    expect(all().map((message) => [message.id, message.body, message.replace])).toEqual([
      [incomingKey(PEER, 'p1'), 'theirs', undefined],
      ['m2', 'mine', 'p1'],
      ['m3', 'mine too', 'unknown'],
    ]);
  });

  it("stores a peer's replace as a new message, whether it names their message or one of ours", () => {
    const { messages, all } = setup();
    messages.addOutgoing(outgoing('m1', 'mine'));
    messages.addIncoming(incoming('p1', 'teh'));
    messages.addIncoming(incoming('p2', 'the', 'p1'));
    messages.addIncoming(incoming('p3', 'rewritten', 'm1'));
    expect(all().map((message) => [message.id, message.body, message.replace, message.editedTime])).toEqual([
      ['m1', 'mine', undefined, undefined],
      [incomingKey(PEER, 'p1'), 'teh', undefined, undefined],
      [incomingKey(PEER, 'p2'), 'the', 'p1', undefined],
      [incomingKey(PEER, 'p3'), 'rewritten', 'm1', undefined],
    ]);
  });

  it('takes a correction as one only within the same room', () => {
    const original: ChatMessage = { ...setupRecord(), roomAddress: 'other@rooms.example' };
    expect(correctionTarget({ m1: original }, 'm1', { roomAddress: ROOM, direction: 'outgoing' })).toBeUndefined();
    expect(correctionTarget({ m1: { ...original, roomAddress: ROOM } }, 'm1', { roomAddress: ROOM, direction: 'outgoing' })).toBeDefined();
    expect(correctionTarget({ m1: { ...original, roomAddress: ROOM } }, 'm1', { roomAddress: ROOM, direction: 'incoming' })).toBeUndefined();
  });
});

function setupRecord(): ChatMessage {
  return {
    id: 'm1',
    stanzaId: 'm1',
    body: 'b',
    direction: 'outgoing',
    displayName: 'Me',
    senderAddress: SELF,
    roomAddress: ROOM,
    time: 0,
    editedTime: undefined,
    replace: undefined,
    acked: true,
    customerData: undefined,
  };
}

describe("SPEC §3 acked: our message is acknowledged by the room's echo of its stanza id", () => {
  it('acks the message its echo names, and only in its room', () => {
    const { messages, store } = setup();
    messages.addOutgoing(outgoing('m1', 'hi'));
    expect(messages.acknowledge('other@rooms.example', 'm1', undefined)).toBe(false);
    expect(store.state.messages.m1?.acked).toBe(false);
    expect(messages.acknowledge(ROOM, 'm1', undefined)).toBe(true);
    expect(store.state.messages.m1?.acked).toBe(true);
  });

  it("acks a corrected message on the latest correction's echo, not on an earlier echo", () => {
    const { messages, store } = setup();
    messages.addOutgoing(outgoing('m1', 'a'));
    messages.stanzaToSend(store.state.messages.m1!);
    messages.addOutgoing(outgoing('c1', 'ab', 'm1'));
    messages.addOutgoing(outgoing('c2', 'abc', 'm1'));
    expect(messages.acknowledge(ROOM, 'm1', undefined)).toBe(true); // the original's echo
    expect(messages.acknowledge(ROOM, 'c1', 'm1')).toBe(false); // superseded: not ours to ack
    expect(messages.outdone(ROOM, 'c1', 'm1')).toBe(true); // nor to store: 'abc' is on its way
    expect(store.state.messages.m1?.acked).toBe(false);
    expect(messages.acknowledge(ROOM, 'c2', 'm1')).toBe(true);
    expect(store.state.messages.m1).toMatchObject({ body: 'abc', acked: true });
  });

  it('takes a correction of a message of ours that never went on a wire (or was refused) as its text: nobody has it to correct', () => {
    const { messages, store } = setup();
    messages.addOutgoing(outgoing('m1', 'helo'));
    expect(messages.addOutgoing(outgoing('c1', 'hello', 'm1', 5_000))).toBe('m1');
    expect(store.state.messages.m1).toMatchObject({ body: 'hello', editedTime: undefined, acked: false });
    expect(messages.stanzaToSend(store.state.messages.m1!)).toMatchObject({ stanzaId: 'm1', body: 'hello', replace: undefined });
    // Once on a wire, a correction is one.
    messages.addOutgoing(outgoing('c2', 'hello all', 'm1', 6_000));
    expect(messages.stanzaToSend(store.state.messages.m1!)).toMatchObject({ stanzaId: 'c2', body: 'hello all', replace: 'm1' });
    // Refused (a sendError): nobody has it, whatever went before.
    store.update('messages', 'm1', { sendError: 'not connected' });
    messages.addOutgoing(outgoing('c3', 'hello everyone', 'm1', 7_000));
    expect(store.state.messages.m1).toMatchObject({ body: 'hello everyone', sendError: 'not connected' });
  });

  it('keeps a message of ours first seen from the room (sent by an earlier connection) as outgoing and acked', () => {
    const { messages, store } = setup();
    messages.addOutgoing({ ...outgoing('old', 'from before'), acked: true });
    expect(store.state.messages.old).toMatchObject({ direction: 'outgoing', acked: true });
  });
});

describe('SPEC §3 chat message keys: ours by stanza id, others by sender and stanza id, each held once', () => {
  it('does not store the same message twice (room history replayed after a rejoin)', () => {
    const { messages, all } = setup();
    expect(messages.addIncoming(incoming('p1', 'once'))).toBe(true);
    expect(messages.addIncoming(incoming('p1', 'once'))).toBe(false);
    expect(all()).toHaveLength(1);
    expect(all()[0]).toMatchObject({ id: `${PEER}:p1`, stanzaId: 'p1', direction: 'incoming', acked: true });
  });
});

/** The records arrive in this order, a millisecond apart unless `sameTime`. */
function stored(
  records: [stanzaId: string, body: string, replace?: string, sender?: string][],
  sameTime = false,
): { store: StateStore; records: () => ChatMessage[] } {
  const store = new StateStore();
  const messages = new ChatMessages(store);
  records.forEach(([stanzaId, body, replace, sender = PEER], index) =>
    messages.addIncoming({ ...incoming(stanzaId, body, replace), senderAddress: sender, time: 2_000 + (sameTime ? 0 : index) }),
  );
  return { store, records: () => roomMessageRecords(store.state.messages, ROOM) };
}

describe("SPEC §5 message editing as read: a peer's stored correction shows as an edit of the message it names", () => {
  it('folds a chain of corrections by the same sender into the original, with the latest body and editedTime', () => {
    const { records } = stored([['p1', 'teh'], ['p2', 'the', 'p1'], ['p3', 'the end', 'p2']]);
    expect(correctionFolder()(records())).toEqual([expect.objectContaining({ id: incomingKey(PEER, 'p1'), body: 'the end', editedTime: 2_002 })]);
  });

  it("leaves a correction naming someone else's message, or one not held, as a message of its own marked edited", () => {
    const other = `${ROOM}/other`;
    const { records } = stored([['o1', 'by other', undefined, other], ['p1', 'not theirs to fix', 'o1'], ['p2', 'names nothing held', 'gone']]);
    expect(correctionFolder()(records()).map((message) => [message.body, message.editedTime])).toEqual([
      ['by other', undefined],
      ['not theirs to fix', 2_001],
      ['names nothing held', 2_002],
    ]);
  });

  it('keeps the identity of messages nothing changed, so the view does not redraw them', () => {
    const { store, records } = stored([['p1', 'first'], ['p2', 'second'], ['p3', 'secnd', 'p2']]);
    const fold = correctionFolder();
    const before = fold(records());
    new ChatMessages(store).addIncoming({ ...incoming('p4', 'third'), time: 3_000 });
    const after = fold(records());
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(after).toHaveLength(3);
  });
});

describe('SPEC §9 chat order: by time, and messages of the same time in the order they arrived', () => {
  it('folds a correction that came in the same millisecond (or second of room history) as its original, whatever their ids', () => {
    // The correction's id sorts before the original's: arrival order, not id order, decides.
    const { records } = stored([['z-original', 'Hello Alcie'], ['a-correction', 'Hello Alice', 'z-original']], true);
    expect(correctionFolder()(records()).map((message) => [message.body, message.editedTime])).toEqual([['Hello Alice', 2_000]]);
  });

  it('keeps messages of the same time in the order they arrived', () => {
    const { records } = stored([['m3', 'first'], ['m1', 'second'], ['m2', 'third']], true);
    expect(records().map((message) => message.body)).toEqual(['first', 'second', 'third']);
  });

});

describe('No chat lost: a message resent by its sender under a new occupant address is held once (issue 13)', () => {
  it('takes the same stanza id and body in the same room from another address as a duplicate', () => {
    const { messages, all } = setup();
    expect(messages.addIncoming(incoming('p1', 'hello'))).toBe(true);
    expect(messages.addIncoming({ ...incoming('p1', 'hello'), senderAddress: `${ROOM}/peer-after-reconnect` })).toBe(false);
    expect(all()).toHaveLength(1);
  });

  it('keeps a different body under the same id, and the same message in another room', () => {
    const { messages, all } = setup();
    messages.addIncoming(incoming('1', 'hello'));
    expect(messages.addIncoming({ ...incoming('1', 'something else'), senderAddress: `${ROOM}/other` })).toBe(true);
    expect(messages.addIncoming({ ...incoming('1', 'hello'), roomAddress: 'elsewhere@rooms.example', senderAddress: 'elsewhere@rooms.example/peer' })).toBe(true);
    expect(all()).toHaveLength(3);
  });
});

describe(`Bounded chat: a room keeps its last LIMITS.chatMessagesPerRoom (${LIMITS.chatMessagesPerRoom}) messages, the oldest going first, never one of ours still to be sent`, () => {
  it('drops the oldest by time, in that room only, and holds a dropped message once again if it comes back', () => {
    const { messages, all } = setup();
    const other = 'other@rooms.example';
    messages.addIncoming({ ...incoming('elsewhere', 'in another room'), roomAddress: other, time: 1 });
    // Ours, never confirmed: the oldest of all, and kept.
    messages.addOutgoing(outgoing('unsent', 'still to go', undefined, 0));
    for (let index = 0; index < LIMITS.chatMessagesPerRoom + 5; index += 1) messages.addIncoming({ ...incoming(`p${index}`, `number ${index}`), time: 10 + index });
    const ofRoom = all().filter((message) => message.roomAddress === ROOM);
    expect(ofRoom).toHaveLength(LIMITS.chatMessagesPerRoom);
    expect(ofRoom.some((message) => message.id === 'unsent')).toBe(true);
    // The unsent one counts: six of the incoming went, the oldest.
    expect(ofRoom.filter((message) => message.direction === 'incoming').map((message) => message.stanzaId).slice(0, 2)).toEqual(['p6', 'p7']);
    expect(all().filter((message) => message.roomAddress === other)).toHaveLength(1);
    // History replayed after a rejoin brings a dropped one back: it is the oldest, so it goes again.
    expect(messages.addIncoming({ ...incoming('p0', 'number 0'), time: 10 })).toBe(true);
    expect(all().filter((message) => message.roomAddress === ROOM)).toHaveLength(LIMITS.chatMessagesPerRoom);
    expect(messages.get(incomingKey(PEER, 'p0'))).toBeUndefined();
  });

  it('forgets a dropped message that had been deleted too: the same message resent afterwards is held again', () => {
    const { messages } = setup();
    messages.addIncoming({ ...incoming('gone', 'said, then deleted'), time: 1 });
    expect(messages.retract(PEER, 'gone')).toBe(true);
    for (let index = 0; index < LIMITS.chatMessagesPerRoom; index += 1) messages.addIncoming({ ...incoming(`p${index}`, `number ${index}`), time: 10 + index });
    expect(messages.get(incomingKey(PEER, 'gone'))).toBeUndefined();
    // Resent under another address: not a duplicate of anything held.
    expect(messages.addIncoming({ ...incoming('gone', 'said, then deleted'), senderAddress: `${ROOM}/peer2`, time: 2_000 })).toBe(true);
  });
});
