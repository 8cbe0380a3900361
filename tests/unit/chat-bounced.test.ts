// A message of ours the room itself sends back (a message of type error with its id: XEP-0045 §7.4,
// RFC 6120 §8.3.3) is not sent: the chat domain on a real StateStore, with a recording stand-in for
// the XMPP client through which the test plays the room.
import type { Agent, Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import type { ChatMessage } from '../../src/protocol/entities';
import { roomRefusal } from '../../src/shared-worker/chat/bounceReasons';
import { ChatDomain } from '../../src/shared-worker/chat/ChatDomain';
import { RoomEventLog } from '../../src/shared-worker/roomEvents/RoomEventLog';
import { StateStore } from '../../src/shared-worker/StateStore';
import { newRoomRecord } from '../../src/shared-worker/rooms/roomRecord';
import { ManualClock } from '../support/ManualClock';
import { testSessionContext } from '../support/testSessionContext';

const ROOM = 'room@rooms.example';
const OTHER_ROOM = 'other@rooms.example';
const SELF = `${ROOM}/alice`;
const NO_VOICE: Stanzas.StanzaError = { type: 'auth', condition: 'forbidden' };

/** Alice in a joined room whose history has ended: what she sends goes at once. */
function aliceInARoom() {
  const store = new StateStore();
  const clock = new ManualClock();
  const sent: Stanzas.Message[] = [];
  const listeners: Array<(message: Stanzas.ReceivedMessage) => void> = [];
  const client = {
    on: (event: string, listener: (message: Stanzas.ReceivedMessage) => void) => {
      if (event === 'message') listeners.push(listener);
    },
    sendMessage: (message: Stanzas.Message) => sent.push(message),
  } as unknown as Agent;
  const context = testSessionContext({ store, clock, client });
  const chat = new ChatDomain(context, () => {}, new RoomEventLog(store, clock));
  chat.attachClient(client);
  store.upsert('rooms', 'r', { ...newRoomRecord('r', 'Room', { address: ROOM }), roomState: 'joined', joined: true, joinedAt: 1, selfAddress: SELF });
  /** A stanza from the room, as the client hands it over. */
  const fromRoom = (message: Partial<Stanzas.ReceivedMessage>): void => {
    for (const listener of listeners) listener({ to: SELF, ...message } as Stanzas.ReceivedMessage);
  };
  // The subject ends the join's history (XEP-0045 §7.2.15).
  fromRoom({ type: 'groupchat', from: ROOM, hasSubject: true });
  const record = (id: string): ChatMessage | undefined => store.state.messages[id];
  return { chat, sent, fromRoom, record };
}

describe('A message the room sends back is not sent: marked with why, in words that say what to do, and Retry sends it again', () => {
  it('a message to everyone the room bounces (no voice: forbidden) is marked not sent with the room’s reason, and Retry sends it again under its id', async () => {
    const { chat, sent, fromRoom, record } = aliceInARoom();
    const id = await chat.sendChat(ROOM, 'hello?');
    expect(sent.map((message) => message.id)).toEqual([id]);

    fromRoom({ type: 'error', from: ROOM, id, error: NO_VOICE });
    expect(record(id)).toMatchObject({ body: 'hello?', acked: false, sendError: roomRefusal(NO_VOICE) });

    await chat.retryChat(id);
    expect(sent.map((message) => message.id)).toEqual([id, id]);
    expect(record(id)?.sendError).toBeUndefined();
    fromRoom({ type: 'groupchat', from: SELF, id, body: 'hello?' });
    expect(record(id)?.acked).toBe(true);
  });

  it('a correction the room bounces marks the message it corrects, with the corrected text to retry', async () => {
    const { chat, sent, fromRoom, record } = aliceInARoom();
    const id = await chat.sendChat(ROOM, 'helo');
    fromRoom({ type: 'groupchat', from: SELF, id, body: 'helo' });
    await chat.sendChat(ROOM, 'hello', id);
    const correction = sent.at(-1);
    expect(correction).toMatchObject({ replace: id, body: 'hello' });

    fromRoom({ type: 'error', from: ROOM, id: correction?.id, error: NO_VOICE });
    expect(record(id)).toMatchObject({ body: 'hello', acked: false, sendError: roomRefusal(NO_VOICE) });
  });

  it('a bounce from anywhere but the room the message went to, or naming no message of ours, changes nothing', async () => {
    const { chat, fromRoom, record } = aliceInARoom();
    const id = await chat.sendChat(ROOM, 'still on its way');
    fromRoom({ type: 'error', from: OTHER_ROOM, id, error: NO_VOICE });
    fromRoom({ type: 'error', from: `${ROOM}/mallory`, id, error: NO_VOICE });
    fromRoom({ type: 'error', from: ROOM, id: 'not-one-of-ours', error: NO_VOICE });
    expect(record(id)?.acked).toBe(false);
    expect(record(id)?.sendError).toBeUndefined();
  });
});

describe('The reason a room gives for sending a message back, in words that say what to do', () => {
  it('says what each refusal asks of the person: voice, a rejoin, a wait; else the server’s own words, bounded, or that it refused', () => {
    expect(roomRefusal({ type: 'auth', condition: 'forbidden' })).toBe('you have no voice in this room: ask a moderator to give you voice, then retry');
    expect(roomRefusal({ type: 'modify', condition: 'not-acceptable' })).toBe('the room does not count you in it: leave the room and join it again, then retry');
    expect(roomRefusal({ type: 'wait', condition: 'policy-violation', text: 'The room is currently overactive, please try again later' })).toBe(
      'you are sending messages faster than the room takes them: wait a moment, then retry',
    );
    expect(roomRefusal({ type: 'wait', condition: 'resource-constraint' })).toBe('you are sending messages faster than the room takes them: wait a moment, then retry');
    expect(roomRefusal({ type: 'modify', condition: 'bad-request', text: 'a message carries more than one chat state.\n' })).toBe('the room refused it: a message carries more than one chat state');
    expect(roomRefusal({ type: 'modify', condition: 'bad-request', text: 'x'.repeat(LIMITS.reasonLength + 10) })).toBe(`the room refused it: ${'x'.repeat(LIMITS.reasonLength)}`);
    expect(roomRefusal({ type: 'cancel', condition: 'service-unavailable' })).toBe('the room refused it');
    expect(roomRefusal(undefined)).toBe('the room refused it');
  });
});
