// What the chat domain makes of the messages others send: the domain on a real StateStore, with a
// stand-in for the XMPP client through which the test plays the room and Bob in it.
import type { Agent, Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { correctionFolder, roomMessageRecords } from '../../src/protocol/chatCorrections';
import { LIMITS } from '../../src/protocol/constants';
import type { Room } from '../../src/protocol/entities';
import { ChatDomain } from '../../src/shared-worker/chat/ChatDomain';
import { incomingKey } from '../../src/shared-worker/chat/ChatMessages';
import { RoomEventLog } from '../../src/shared-worker/roomEvents/RoomEventLog';
import { StateStore } from '../../src/shared-worker/StateStore';
import { newRoomRecord } from '../../src/shared-worker/rooms/roomRecord';
import { firstUnreadId } from '../../src/ui/chatTimeline';
import { ManualClock } from '../support/ManualClock';
import { testSessionContext } from '../support/testSessionContext';

const ROOM = 'room@rooms.example';
const SELF = `${ROOM}/alice`;
const BOB = `${ROOM}/bob`;
const CAROL = `${ROOM}/carol`;
const MINUTE = 60_000;

/** The store's listeners run once a microtask has passed: after this they have seen every change so far. */
function delivered(): Promise<void> {
  return Promise.resolve();
}

/** Alice in a joined room whose history has ended, an hour into the session's clock. */
async function aliceInARoom() {
  const store = new StateStore();
  const clock = new ManualClock();
  await clock.advance(60 * MINUTE);
  const listeners: Array<(message: Stanzas.ReceivedMessage) => void> = [];
  const client = {
    on: (event: string, listener: (message: Stanzas.ReceivedMessage) => void) => {
      if (event === 'message') listeners.push(listener);
    },
    sendMessage: () => {},
  } as unknown as Agent;
  const chat = new ChatDomain(testSessionContext({ store, clock, client }), () => {}, new RoomEventLog(store, clock));
  chat.attachClient(client);
  /** The room's record as the rooms domain keeps it, in the room unless `change` says otherwise. */
  const setRoom = async (change: Partial<Room> = {}): Promise<void> => {
    store.upsert('rooms', 'r', { ...newRoomRecord('r', 'Room', { address: ROOM }), roomState: 'joined', joined: true, joinedAt: 1, selfAddress: SELF, ...change });
    await delivered();
  };
  /** A stanza from the room, as the client hands it over. */
  const fromRoom = (message: Partial<Stanzas.ReceivedMessage>): void => {
    for (const listener of listeners) listener({ to: SELF, ...message } as Stanzas.ReceivedMessage);
  };
  /** The subject ends a join's history (XEP-0045 §7.2.15). */
  const subject = (): void => fromRoom({ type: 'groupchat', from: ROOM, hasSubject: true });
  const fromBob = (id: string, body: string, more: Partial<Stanzas.ReceivedMessage> = {}): void => fromRoom({ type: 'groupchat', from: BOB, id, body, ...more });
  await setRoom();
  subject();
  const unread = (): number | undefined => store.state.rooms.r?.unreadCount;
  /** The room's chat as a tab shows it: each peer's corrections folded into what they correct. */
  const shown = () => correctionFolder()(roomMessageRecords(store.state.messages, ROOM));
  return { chat, store, clock, setRoom, fromRoom, subject, fromBob, unread, shown };
}

describe('Chat time: the history of a room joined again on the same connection is placed at its <delay> stamps, as at the first join (XEP-0203)', () => {
  it('left (its room record removed) and joined again: what Bob said meanwhile is at the time he said it, not at the rejoin', async () => {
    const { store, clock, setRoom, fromBob } = await aliceInARoom();
    store.remove('rooms', 'r');
    await delivered();
    await clock.advance(10 * MINUTE);
    await setRoom();
    const said = new Date(clock.now() - 5 * MINUTE);
    fromBob('b1', 'while you were away', { delay: { timestamp: said } });
    expect(store.state.messages[incomingKey(BOB, 'b1')]?.time).toBe(said.getTime());
  });

  it('put out (kicked, banned, failed) and joined again: the same', async () => {
    const { store, clock, setRoom, fromBob } = await aliceInARoom();
    await setRoom({ roomState: 'failed', joined: false });
    await clock.advance(10 * MINUTE);
    await setRoom({ roomState: 'joining', joined: false });
    await setRoom();
    const said = new Date(clock.now() - 5 * MINUTE);
    fromBob('b1', 'while you were away', { delay: { timestamp: said } });
    expect(store.state.messages[incomingKey(BOB, 'b1')]?.time).toBe(said.getTime());
  });

  it('once the rejoin’s subject has come, a live message’s own <delay> is its sender’s word again, and not believed', async () => {
    const { store, clock, setRoom, subject, fromBob } = await aliceInARoom();
    store.remove('rooms', 'r');
    await delivered();
    await setRoom();
    subject();
    fromBob('b1', 'stamped by me', { delay: { timestamp: new Date(clock.now() - 5 * MINUTE) } });
    expect(store.state.messages[incomingKey(BOB, 'b1')]?.time).toBe(clock.now());
  });
});

describe('SPEC §3 unread count: a correction (XEP-0308) of a message held is its edit, not a new message to read', () => {
  it('a message and its sender’s correction of it count as one unread message', async () => {
    const { fromBob, unread } = await aliceInARoom();
    fromBob('m1', 'helo');
    fromBob('m2', 'hello', { replace: 'm1' });
    expect(unread()).toBe(1);
  });

  it('a correction of a message already read raises no unread, and the new messages line stays before the first one not read', async () => {
    const { chat, fromRoom, fromBob, unread, shown } = await aliceInARoom();
    fromBob('m1', 'helo');
    await chat.markRead(ROOM);
    fromRoom({ type: 'groupchat', from: CAROL, id: 'c1', body: 'hi all' });
    fromBob('m2', 'hello', { replace: 'm1' });
    fromBob('m3', 'hello!', { replace: 'm2' });
    expect(unread()).toBe(1);
    expect(firstUnreadId(shown(), unread() ?? 0)).toBe(incomingKey(CAROL, 'c1'));
  });

  it('a correction of a message not held (sent before we came, or by someone else) stands as a message of its own, and counts', async () => {
    const { fromRoom, fromBob, unread } = await aliceInARoom();
    fromRoom({ type: 'groupchat', from: CAROL, id: 'c1', body: 'hi all' });
    fromBob('m2', 'hello', { replace: 'm0' });
    fromBob('m3', 'not yours to fix', { replace: 'c1' });
    expect(unread()).toBe(3);
  });
});

describe(`A message longer than LIMITS.chatBodyLength (${LIMITS.chatBodyLength}) characters, which XMPP apps send, is shown cut to it and said to be cut (beyond the spec)`, () => {
  it('keeps the first LIMITS.chatBodyLength characters and how many more there were, counted unread', async () => {
    const { store, fromBob, unread } = await aliceInARoom();
    fromBob('long', `${'x'.repeat(LIMITS.chatBodyLength)}${'y'.repeat(3_616)}`);
    const record = store.state.messages[incomingKey(BOB, 'long')];
    expect(record?.body).toBe('x'.repeat(LIMITS.chatBodyLength));
    expect(record?.charactersCut).toBe(3_616);
    expect(unread()).toBe(1);
  });

  it('one character past the limit is cut too; one at the limit is whole', async () => {
    const { store, fromBob } = await aliceInARoom();
    fromBob('over', 'x'.repeat(LIMITS.chatBodyLength + 1));
    fromBob('at', 'x'.repeat(LIMITS.chatBodyLength));
    expect(store.state.messages[incomingKey(BOB, 'over')]).toMatchObject({ body: 'x'.repeat(LIMITS.chatBodyLength), charactersCut: 1 });
    expect(store.state.messages[incomingKey(BOB, 'at')]?.charactersCut).toBeUndefined();
  });

  it('never cuts a character in two: an emoji across the limit goes whole', async () => {
    const { store, fromBob } = await aliceInARoom();
    fromBob('emoji', `${'x'.repeat(LIMITS.chatBodyLength - 1)}😀!`);
    expect(store.state.messages[incomingKey(BOB, 'emoji')]).toMatchObject({ body: 'x'.repeat(LIMITS.chatBodyLength - 1), charactersCut: 3 });
  });

  it('a correction past the limit is cut and shown as the edit, said to be cut; one within it after that is whole', async () => {
    const { fromBob, shown } = await aliceInARoom();
    fromBob('m1', 'short');
    fromBob('m2', 'z'.repeat(LIMITS.chatBodyLength + 10), { replace: 'm1' });
    expect(shown()).toMatchObject([{ id: incomingKey(BOB, 'm1'), body: 'z'.repeat(LIMITS.chatBodyLength), charactersCut: 10 }]);
    fromBob('m3', 'short again', { replace: 'm2' });
    expect(shown()[0]?.body).toBe('short again');
    expect(shown()[0]?.charactersCut).toBeUndefined();
  });

  it('a cut message its sender takes back keeps nothing of it, nor of its cut', async () => {
    const { store, fromRoom, fromBob } = await aliceInARoom();
    fromBob('long', 'x'.repeat(LIMITS.chatBodyLength + 5));
    fromRoom({ type: 'groupchat', from: BOB, retraction: { id: 'long' } } as Partial<Stanzas.ReceivedMessage>);
    expect(store.state.messages[incomingKey(BOB, 'long')]).toMatchObject({ body: '', retracted: true });
    expect(store.state.messages[incomingKey(BOB, 'long')]?.charactersCut).toBeUndefined();
  });
});
