// No chat lost (issue 13): what is written while the connection is down, or put on a socket that
// died, reaches the room exactly once after the rejoin; what others said meanwhile is fetched from
// the room's history and merged without duplicates. Sessions made by createSession, against a real
// Prosody behind the real gateway; the server is killed and restarted as a crash would.
import { randomUUID } from 'node:crypto';
import { JID, type Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/protocol/entities';
import { RoomNotJoinedError } from '../../src/protocol/errors';
import { roomNameToLocalpart } from '../../src/protocol/rooms';
import { providerConfig, useParley } from '../support/parley';
import { joinedBy, joinedRoom, useSessions, WAIT_MS, waitFor, type JoinedRoom, type TestSession } from '../support/sessions';
import { until } from '../support/until';
import { clientFor, login, MODERATED_ROOM, usePlainClients, withTimeout } from '../support/xmppClient';

const parley = useParley();
const openSession = useSessions();
const plainClient = usePlainClients();

async function inRoom(displayName: string, roomName: string): Promise<{ who: TestSession; room: JoinedRoom }> {
  const who = openSession({ server: parley(), displayName });
  return { who, room: await joinedBy(who, roomName, { autoJoinCall: false }) };
}

function bodiesIn(who: TestSession, roomAddress: string): string[] {
  return Object.values(who.session.store.state.messages)
    .filter((message) => message.roomAddress === roomAddress)
    .map((message) => message.body)
    .sort();
}

function record(who: TestSession, id: string): ChatMessage | undefined {
  return who.session.store.state.messages[id];
}

/** Both people are back in the room after a reconnect, and see each other. */
async function backTogether(alice: TestSession, aliceRoomId: string, bob: TestSession, bobRoomId: string): Promise<void> {
  const [a, b] = await Promise.all([joinedRoom(alice, aliceRoomId), joinedRoom(bob, bobRoomId)]);
  await waitFor(alice, 'Bob as a peer again', (state) => state.peers[b.selfAddress]);
  await waitFor(bob, 'Alice as a peer again', (state) => state.peers[a.selfAddress]);
}

describe('No chat lost: a message written while the server is down waits, pending, and is delivered once after the rejoin', () => {
  it('keeps the message unacked without an error while down, then the room and Bob get it exactly once', async () => {
    const name = `delivery-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    const bob = await inRoom('Bob', name);

    await parley().killXmpp();
    await waitFor(alice.who, 'the room interrupted', (state) => state.rooms[alice.room.id]?.roomState === 'interrupted');
    const id = await alice.who.chat.sendChat(alice.room.address, 'written while the server was down');
    expect(record(alice.who, id)).toMatchObject({ acked: false, body: 'written while the server was down' });
    expect(record(alice.who, id)?.sendError).toBeUndefined();

    await parley().restartXmpp();
    await backTogether(alice.who, alice.room.id, bob.who, bob.room.id);
    await waitFor(alice.who, 'the echo of the resent message', (state) => state.messages[id]?.acked);
    await waitFor(bob.who, 'the message', (state) => Object.values(state.messages).some((message) => message.stanzaId === id));
    // One more message from Alice as a barrier: once Bob has it, he has everything she sent before.
    const after = await alice.who.chat.sendChat(alice.room.address, 'and after');
    await waitFor(bob.who, 'the message after', (state) => Object.values(state.messages).some((message) => message.stanzaId === after));
    expect(bodiesIn(bob.who, bob.room.address)).toEqual(['and after', 'written while the server was down']);
    expect(alice.who.sentMessages.filter((message) => message.id === id)).toHaveLength(1);
  });

  it('a message sent right as the server dies is delivered once: sent again with its stanza id unless the room had it', async () => {
    const name = `delivery-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    const bob = await inRoom('Bob', name);

    const killing = parley().killXmpp();
    const id = await alice.who.chat.sendChat(alice.room.address, 'Enter pressed as the server died');
    await killing;
    await parley().restartXmpp();
    await backTogether(alice.who, alice.room.id, bob.who, bob.room.id);
    await waitFor(alice.who, 'the message confirmed', (state) => state.messages[id]?.acked);
    const after = await alice.who.chat.sendChat(alice.room.address, 'and after');
    await waitFor(bob.who, 'the message after', (state) => Object.values(state.messages).some((message) => message.stanzaId === after));
    expect(bodiesIn(bob.who, bob.room.address)).toEqual(['Enter pressed as the server died', 'and after'].sort());
    expect(bodiesIn(alice.who, alice.room.address)).toEqual(['Enter pressed as the server died', 'and after'].sort());
  });
});

describe('No chat lost: a correction written while the server is down waits, and corrects the message for everyone after the rejoin', () => {
  it('the corrected record waits unacked without an error; once back, one correction goes, naming the original, and Bob reads it', async () => {
    const name = `delivery-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    const bob = await inRoom('Bob', name);
    const id = await alice.who.chat.sendChat(alice.room.address, 'Helo everyone');
    await waitFor(alice.who, 'the message confirmed', (state) => state.messages[id]?.acked);
    await waitFor(bob.who, 'the message', (state) => Object.values(state.messages).some((message) => message.stanzaId === id));

    await parley().killXmpp();
    await waitFor(alice.who, 'the room interrupted', (state) => state.rooms[alice.room.id]?.roomState === 'interrupted');
    const corrected = await alice.who.chat.sendChat(alice.room.address, 'Hello everyone', id);
    expect(corrected).toBe(id);
    expect(record(alice.who, id)).toMatchObject({ acked: false, body: 'Hello everyone' });
    expect(record(alice.who, id)?.sendError).toBeUndefined();

    await parley().restartXmpp();
    await backTogether(alice.who, alice.room.id, bob.who, bob.room.id);
    await waitFor(alice.who, 'the correction confirmed', (state) => state.messages[id]?.acked);
    await waitFor(bob.who, 'the correction', (state) => Object.values(state.messages).some((message) => message.replace === id));
    const corrections = alice.who.sentMessages.filter((message) => message.replace === id);
    expect(corrections).toHaveLength(1);
    expect(corrections[0]).toMatchObject({ body: 'Hello everyone' });
    expect(corrections[0]?.id).not.toBe(id);
    expect(Object.values(bob.who.session.store.state.messages).filter((message) => message.replace === id).map((message) => message.body)).toEqual(['Hello everyone']);
  });
});

describe('A message nobody has yet takes its correction as its text: written and corrected while the server is down, it goes once, as one message', () => {
  it('once back, the room and Bob get one message with the corrected text, and no correction of a message they never had', async () => {
    const name = `delivery-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    const bob = await inRoom('Bob', name);
    await parley().killXmpp();
    await waitFor(alice.who, 'the room interrupted', (state) => state.rooms[alice.room.id]?.roomState === 'interrupted');
    const id = await alice.who.chat.sendChat(alice.room.address, 'Helo everyone');
    const corrected = await alice.who.chat.sendChat(alice.room.address, 'Hello everyone', id);
    const whileDown = record(alice.who, id);
    await parley().restartXmpp();
    expect(corrected).toBe(id);
    expect(whileDown).toMatchObject({ acked: false, body: 'Hello everyone', editedTime: undefined });

    await backTogether(alice.who, alice.room.id, bob.who, bob.room.id);
    await waitFor(alice.who, 'the message confirmed', (state) => state.messages[id]?.acked);
    const after = await alice.who.chat.sendChat(alice.room.address, 'and after');
    await waitFor(bob.who, 'the message after', (state) => Object.values(state.messages).some((message) => message.stanzaId === after));
    expect(bodiesIn(bob.who, bob.room.address)).toEqual(['Hello everyone', 'and after']);
    expect(alice.who.sentMessages.filter((message) => message.replace === id)).toHaveLength(0);
    expect(alice.who.sentMessages.filter((message) => message.id === id).map((message) => message.body)).toEqual(['Hello everyone']);
  });
});

describe('Two corrections in a row: the room’s echo of the first never brings its text back while the second is on its way (XEP-0308)', () => {
  it('the record reads each correction once, in order, and ends acknowledged with the last', async () => {
    const name = `corrections-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    const id = await alice.who.chat.sendChat(alice.room.address, 'a');
    await waitFor(alice.who, 'the message confirmed', (state) => state.messages[id]?.acked);
    const bodies = ['a'];
    alice.who.session.store.subscribe(() => {
      const body = alice.who.session.store.state.messages[id]?.body;
      if (body !== undefined && body !== bodies.at(-1)) bodies.push(body);
    });
    await alice.who.chat.sendChat(alice.room.address, 'ab', id);
    await alice.who.chat.sendChat(alice.room.address, 'abc', id);
    await waitFor(alice.who, 'the last correction confirmed', (state) => state.messages[id]?.acked && state.messages[id]?.body === 'abc');
    // A barrier: once its echo is in, both corrections' echoes have come.
    const after = await alice.who.chat.sendChat(alice.room.address, 'after');
    await waitFor(alice.who, 'the message after confirmed', (state) => state.messages[after]?.acked);
    expect(bodies).toEqual(['a', 'ab', 'abc']);
    expect(record(alice.who, id)).toMatchObject({ body: 'abc', acked: true });
  });
});

describe('No chat lost: what others said while you were away comes from the room history on rejoin, merged without duplicates', () => {
  it('asks for the history since just before the last message held, and holds each message once', async () => {
    const name = `history-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    const bob = await inRoom('Bob', name);
    const before = await bob.who.chat.sendChat(bob.room.address, 'before you left');
    await waitFor(alice.who, 'the message before', (state) => Object.values(state.messages).some((message) => message.stanzaId === before));

    alice.who.session.disconnect();
    await bob.who.chat.sendChat(bob.room.address, 'while you were away, 1');
    await bob.who.chat.sendChat(bob.room.address, 'while you were away, 2');
    await waitFor(bob.who, 'both confirmed', (state) => Object.values(state.messages).filter((message) => message.acked).length === 3);
    const sentBefore = alice.who.sent.length;
    await alice.who.session.connect();
    await joinedRoom(alice.who, alice.room.id);

    await waitFor(alice.who, 'the history of the time away', (state) =>
      Object.values(state.messages).filter((message) => message.body.startsWith('while you were away')).length === 2,
    );
    const rejoin = alice.who.sent.slice(sentBefore).find((xml) => xml.includes('<presence') && xml.includes('http://jabber.org/protocol/muc'));
    expect(rejoin).toMatch(/<history [^>]*since="[^"]+"/);
    expect(bodiesIn(alice.who, alice.room.address)).toEqual(['before you left', 'while you were away, 1', 'while you were away, 2']);
  });
});

/**
 * Alice and Bob in a room; Alice writes `body` while the server is down and disconnects on purpose,
 * which marks it not sent; then the server is back, and so are both of them.
 */
async function notSentThenBack(body: string): Promise<{ alice: Awaited<ReturnType<typeof inRoom>>; bob: Awaited<ReturnType<typeof inRoom>>; id: string }> {
  const name = `retry-${randomUUID().slice(0, 8)}`;
  const alice = await inRoom('Alice', name);
  const bob = await inRoom('Bob', name);
  await parley().killXmpp();
  await waitFor(alice.who, 'the room interrupted', (state) => state.rooms[alice.room.id]?.roomState === 'interrupted');
  const id = await alice.who.chat.sendChat(alice.room.address, body);
  alice.who.session.disconnect();
  const marked = record(alice.who, id)?.sendError;
  await parley().restartXmpp();
  expect(marked).toBe('not connected');
  await alice.who.session.connect();
  await backTogether(alice.who, alice.room.id, bob.who, bob.room.id);
  return { alice, bob, id };
}

describe('No chat lost: a message that can no longer be sent is marked with why, and Retry sends it', () => {
  it('a deliberate disconnect marks a waiting message not sent; after reconnecting, retryChat delivers it once', async () => {
    const { alice, bob, id } = await notSentThenBack('try me again');
    await alice.who.chat.retryChat(id);
    await waitFor(alice.who, 'the retried message confirmed', (state) => state.messages[id]?.acked);
    expect(record(alice.who, id)?.sendError).toBeUndefined();
    await waitFor(bob.who, 'the retried message', (state) => Object.values(state.messages).some((message) => message.stanzaId === id));
  });

  it('a message marked not sent takes a correction as its new text, sends nothing, and Retry delivers it once, as one message', async () => {
    const { alice, bob, id } = await notSentThenBack('helo');
    expect(await alice.who.chat.sendChat(alice.room.address, 'hello', id)).toBe(id);
    expect(record(alice.who, id)).toMatchObject({ body: 'hello', sendError: 'not connected', acked: false });
    await alice.who.chat.retryChat(id);
    await waitFor(alice.who, 'the retried message confirmed', (state) => state.messages[id]?.acked);
    const after = await alice.who.chat.sendChat(alice.room.address, 'and after');
    await waitFor(bob.who, 'the message after', (state) => Object.values(state.messages).some((message) => message.stanzaId === after));
    expect(bodiesIn(bob.who, bob.room.address)).toEqual(['and after', 'hello']);
    expect(alice.who.sentMessages.filter((message) => message.id === id || message.replace === id).map((message) => [message.id === id, message.body])).toEqual([[true, 'hello']]);
  });

  it('a waiting message to a room left is marked not sent, and retrying it says the room is not joined', async () => {
    const name = `retry-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    await parley().killXmpp();
    await waitFor(alice.who, 'the room interrupted', (state) => state.rooms[alice.room.id]?.roomState === 'interrupted');
    const id = await alice.who.chat.sendChat(alice.room.address, 'into a room I leave');
    await alice.who.rooms.leaveRoom(alice.room.id);
    await waitFor(alice.who, 'the message marked', (state) => state.messages[id]?.sendError);
    expect(record(alice.who, id)?.sendError).toBe('you are no longer in the room');
    await expect(alice.who.chat.retryChat(id)).rejects.toThrow(RoomNotJoinedError);
    await parley().restartXmpp();
  });
});

/** A plain XMPP client that creates the room `name` stands for, and so owns it; with the room messages it hears. */
async function ownerOf(name: string): Promise<{ owner: Agent; roomAddress: string; heard: string[] }> {
  const config = await providerConfig(parley());
  const owner = plainClient(clientFor(config));
  await login(owner);
  const roomAddress = `${roomNameToLocalpart(name)}@${parley().settings.mucDomain}`;
  const joined = await withTimeout(owner.joinRoom(roomAddress, config.id), WAIT_MS, 'the owner creating the room');
  expect(joined.muc).toMatchObject({ affiliation: 'owner' });
  const heard: string[] = [];
  owner.on('groupchat', (message) => {
    if (typeof message.body === 'string') heard.push(message.body);
  });
  return { owner, roomAddress, heard };
}

describe('A message the room sends back is not sent: marked with why, in plain words, and Retry delivers it (a moderated room, your voice taken away)', () => {
  it('the room’s forbidden bounce marks the message not sent, saying to ask a moderator for voice; once voice is back, Retry delivers it once', async () => {
    const name = `no-voice-${randomUUID().slice(0, 8)}`;
    const { owner, roomAddress, heard } = await ownerOf(name);
    const alice = await inRoom('Alice', name);
    expect(alice.room.address).toBe(roomAddress);
    const aliceNick = JID.getResource(alice.room.selfAddress);
    if (!aliceNick) throw new Error(`Alice's occupant address ${alice.room.selfAddress} names no nick`);
    await withTimeout(owner.configureRoom(roomAddress, MODERATED_ROOM), WAIT_MS, 'making the room moderated');
    await withTimeout(owner.setRoomRole(roomAddress, aliceNick, 'visitor'), WAIT_MS, 'taking Alice’s voice');
    await waitFor(alice.who, 'Alice without voice', (state) => state.rooms[alice.room.id]?.selfRole === 'visitor');

    const id = await alice.who.chat.sendChat(alice.room.address, 'may I speak?');
    const refused = await waitFor(alice.who, 'the room’s refusal', (state) => (state.messages[id]?.sendError ? state.messages[id] : undefined));
    expect(refused).toMatchObject({
      body: 'may I speak?',
      acked: false,
      sendError: 'you have no voice in this room: ask a moderator to give you voice, then retry',
    });

    await withTimeout(owner.setRoomRole(roomAddress, aliceNick, 'participant'), WAIT_MS, 'giving Alice her voice back');
    await waitFor(alice.who, 'Alice with voice', (state) => state.rooms[alice.room.id]?.selfRole === 'participant');
    await alice.who.chat.retryChat(id);
    await waitFor(alice.who, 'the retried message confirmed', (state) => state.messages[id]?.acked);
    expect(record(alice.who, id)?.sendError).toBeUndefined();
    await until(() => heard.includes('may I speak?'), 'the owner hearing the message');
    expect(heard).toEqual(['may I speak?']);
    expect(alice.who.sentMessages.filter((message) => message.id === id)).toHaveLength(2);
  });
});
