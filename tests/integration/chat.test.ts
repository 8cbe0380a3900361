// Text chat (SPEC §3 chat message; §4 chat state and attention request; §5 message editing and empty
// messages; PROTOCOL.md json-msg, replace, rtt, attention, chatstates, nick) driven the way the
// SharedWorker drives it: sessions made by createSession, in rooms joined through their rooms
// domain, against a real Prosody behind the real gateway, and beside a plain StanzaJS client that is
// not Parley.
import { randomUUID } from 'node:crypto';
import { JXT, Namespaces, RTT, type Agent, type Stanzas } from 'stanza';
import * as EntityCaps from 'stanza/helpers/LegacyEntityCapabilities.js';
import { describe, expect, it, vi } from 'vitest';
import { sleep, systemClock } from '../../src/common/clock';
import type { SessionEvent } from '../../src/protocol/commands';
import { LIMITS } from '../../src/protocol/constants';
import { reactionDefinitions } from '../../src/protocol/stanzas/reactions';
import { retractionDefinitions } from '../../src/protocol/stanzas/retraction';
import { talkyCoreDefinitions } from '../../src/protocol/stanzas/talkyCore';
import type { ChatMessage, Peer } from '../../src/protocol/entities';
import { NotConnectedError, RoomNotJoinedError, ValidationError } from '../../src/protocol/errors';
import type { SessionState } from '../../src/protocol/session-state';
import { providerConfig, useParley } from '../support/parley';
import { joinedBy, setDisplayName, useSessions, WAIT_MS, waitFor, type TestSession } from '../support/sessions';
import { until } from '../support/until';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const parley = useParley();
const openSession = useSessions();
const trackPlainClient = usePlainClients();

// ---- Parley sessions ----

interface Joined {
  roomAddress: string;
  /** Our occupant address in the room. */
  occupant: string;
  /** The Room record's local id. */
  roomId: string;
}

/** A session built as the SharedWorker builds it, with the display name preference set. */
function person(displayName: string): TestSession {
  return openSession({ server: parley(), displayName });
}

/** Connects the person and joins the room through the rooms domain (which sends the `<nick>`, PROTOCOL.md "Rooms"). */
async function join(who: TestSession, roomName: string): Promise<Joined> {
  const room = await joinedBy(who, roomName, { autoJoinCall: false });
  return { roomAddress: room.address, occupant: room.selfAddress, roomId: room.id };
}

function newRoomName(): string {
  return `chat-${randomUUID().slice(0, 8)}`;
}

/** People in one fresh room, each seeing all the others as peers. */
async function together(...names: string[]): Promise<{ who: TestSession[]; at: Joined[]; roomAddress: string }> {
  const roomName = newRoomName();
  const who = names.map((name) => person(name));
  const at: Joined[] = [];
  for (const one of who) at.push(await join(one, roomName));
  for (const [index, one] of who.entries()) {
    for (const [otherIndex, other] of at.entries()) {
      if (otherIndex !== index) await waitFor(one, `${names[otherIndex]} as a peer`, (state) => state.peers[other.occupant]);
    }
  }
  return { who, at, roomAddress: at[0]!.roomAddress };
}

function messagesIn(who: TestSession, roomAddress: string): ChatMessage[] {
  return Object.values(who.session.store.state.messages).filter((message) => message.roomAddress === roomAddress);
}

/**
 * An ordering barrier: the sender sends a JSON command to the room, and once the receiver has it,
 * the receiver has also handled everything the sender sent before (the room relays one occupant's
 * stanzas in order).
 */
async function barrier(from: TestSession, to: TestSession, roomAddress: string): Promise<void> {
  const token = randomUUID();
  await from.chat.sendCommand(roomAddress, 'test-barrier', { token });
  await until(() => to.events.some((event) => event.type === 'command' && (event.command.data as { token?: string } | null)?.token === token), 'the barrier');
}

// ---- plain XMPP clients ----

/** A plain StanzaJS client (not Parley) with its own credentials from the config service, in the room under a nick. */
/** A plain client in the room: under its config id (as Parley's clients join), or under `nickname`, a name its person chose. */
async function plainClientIn(roomAddress: string, nick: string | undefined, nickname?: string): Promise<{ client: Agent; occupant: string }> {
  const config = await providerConfig(parley());
  const client = trackPlainClient(clientFor(config));
  await login(client);
  const occupantNick = nickname ?? config.id;
  await withTimeout(client.joinRoom(roomAddress, occupantNick, nick ? { nick } : {}), WAIT_MS, 'plain client join');
  return { client, occupant: `${roomAddress}/${occupantNick}` };
}

/**
 * People in a new room with Dave on a plain XMPP client (joined as "dave_on_gajim", reading and
 * writing `definitions` too), once the first of them lists him.
 */
async function togetherWithDave(names: string[], definitions: JXT.DefinitionOptions[] = []): Promise<Awaited<ReturnType<typeof together>> & { plain: { client: Agent; occupant: string } }> {
  const people = await together(...names);
  const plain = await plainClientIn(people.roomAddress, undefined, 'dave_on_gajim');
  plain.client.stanzas.define(definitions);
  await waitFor(people.who[0]!, 'Dave as a peer', (state) => state.peers[plain.occupant]);
  return { ...people, plain };
}

/** The next message the client receives that matches; call before the action that causes it. */
function nextMessage(client: Agent, what: string, match: (message: Stanzas.ReceivedMessage) => boolean): Promise<Stanzas.ReceivedMessage> {
  return withTimeout(
    new Promise((resolve) => {
      const listener = (message: Stanzas.ReceivedMessage): void => {
        if (!match(message)) return;
        client.off('message', listener);
        resolve(message);
      };
      client.on('message', listener);
    }),
    WAIT_MS,
    what,
  );
}

// ---- the rules ----

describe('SPEC §3 chat message: groupchat with a stanza id, <nick> and active, stored at once and acked by the room echo', () => {
  it('stores our message at once with every field, unacked, and acked once the room echoes the same stanza id', async () => {
    const { who: [alice], at: [a], roomAddress } = await together('Alice', 'Bob');
    const id = await alice!.chat.sendChat(roomAddress, 'hello, Bob');
    expect(alice!.session.store.state.messages[id]).toEqual({
      id,
      stanzaId: id,
      body: 'hello, Bob',
      direction: 'outgoing',
      displayName: 'Alice',
      senderAddress: a!.occupant,
      roomAddress,
      time: expect.any(Number),
      editedTime: undefined,
      replace: undefined,
      acked: false,
      customerData: undefined,
    });
    await waitFor(alice!, 'the echo', (state) => state.messages[id]?.acked === true);
    expect(alice!.sentMessages.find((message) => message.id === id)).toMatchObject({ to: roomAddress, type: 'groupchat', body: 'hello, Bob', nick: 'Alice', chatState: 'active' });
    expect(messagesIn(alice!, roomAddress)).toHaveLength(1);
  });

  it('reaches the other side both ways, keyed by sender and stanza id and named by the <nick>', async () => {
    const { who: [alice, bob], at: [a, b], roomAddress } = await together('Alice', 'Bob');
    const fromAlice = await alice!.chat.sendChat(roomAddress, 'hi Bob');
    const seenByBob = await waitFor(bob!, "Alice's message", (state) => state.messages[`${a!.occupant}:${fromAlice}`]);
    expect(seenByBob).toEqual({
      id: `${a!.occupant}:${fromAlice}`,
      stanzaId: fromAlice,
      body: 'hi Bob',
      direction: 'incoming',
      displayName: 'Alice',
      senderAddress: a!.occupant,
      roomAddress,
      time: expect.any(Number),
      editedTime: undefined,
      replace: undefined,
      acked: true,
      // No <user> on the message: the sender Peer's customerData.
      customerData: bob!.session.store.state.peers[a!.occupant]!.customerData,
    });

    await setDisplayName(bob!, 'Robert');
    const fromBob = await bob!.chat.sendChat(roomAddress, 'hi Alice');
    const seenByAlice = await waitFor(alice!, "Bob's message", (state) => state.messages[`${b!.occupant}:${fromBob}`]);
    expect(seenByAlice).toMatchObject({ body: 'hi Alice', direction: 'incoming', displayName: 'Robert', senderAddress: b!.occupant });
  });
});

describe('SPEC §3 chat message: room history (delayed) is stored once, also across a reconnect', () => {
  it('gives a late joiner the earlier messages with their delay time, counted as unread', async () => {
    const { who: [alice], at: [a], roomAddress } = await together('Alice');
    const first = await alice!.chat.sendChat(roomAddress, 'before you came');
    await waitFor(alice!, 'the echo', (state) => state.messages[first]?.acked);
    // Bob comes 2 s later, so the time he arrived at is not the message's time.
    await sleep(systemClock, 2_000);
    const bobJoins = Date.now();
    const bob = person('Bob');
    const b = await join(bob, roomAddress.split('@')[0]!);
    const seen = await waitFor(bob, 'the history', (state) => state.messages[`${a!.occupant}:${first}`]);
    expect(seen).toMatchObject({ body: 'before you came', displayName: 'Alice', direction: 'incoming' });
    // Prosody's <delay> stamp has whole seconds: up to 1 s before Alice sent it.
    const sentAt = alice!.session.store.state.messages[first]!.time;
    expect(seen.time).toBeGreaterThanOrEqual(sentAt - 1_000);
    expect(seen.time).toBeLessThanOrEqual(sentAt + 1_000);
    expect(seen.time).toBeLessThanOrEqual(bobJoins - 1_000);
    expect(bob.session.store.state.rooms[b.roomId]?.unreadCount).toBe(1);
  });

  it('registers on every new client: after a reconnect chat flows again and the replayed history adds nothing', async () => {
    const { who: [alice, bob], at: [a, b], roomAddress } = await together('Alice', 'Bob');
    const mine = await alice!.chat.sendChat(roomAddress, 'mine, before');
    const theirs = await bob!.chat.sendChat(roomAddress, 'theirs, before');
    await waitFor(alice!, 'both before the drop', (state) => state.messages[mine]?.acked && state.messages[`${b!.occupant}:${theirs}`]);

    alice!.session.disconnect();
    const again = await join(alice!, roomAddress.split('@')[0]!);
    expect(again.occupant).toBe(a!.occupant); // a fresh config and client, the same id and nick (resumed, issue 13)
    const after = await bob!.chat.sendChat(roomAddress, 'after the reconnect');
    await waitFor(alice!, 'the message after the reconnect', (state) => state.messages[`${b!.occupant}:${after}`]);
    expect(messagesIn(alice!, roomAddress).map((message) => message.body).sort()).toEqual(['after the reconnect', 'mine, before', 'theirs, before']);
    // 'theirs, before' and 'after the reconnect': the replayed history counted nothing again.
    expect(alice!.session.store.state.rooms[again.roomId]?.unreadCount).toBe(2);
  });
});

describe('SPEC §5 validation: empty messages are not sent; bodies are bounded', () => {
  it('rejects an empty or white-space body with a clear error and sends nothing', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    for (const body of ['', '   ', '\n\t']) {
      await expect(alice!.chat.sendChat(roomAddress, body)).rejects.toThrow(new ValidationError('Empty messages are not sent.'));
    }
    await expect(alice!.chat.sendChat(roomAddress, 'x'.repeat(LIMITS.chatBodyLength + 1))).rejects.toThrow(ValidationError);
    expect(messagesIn(alice!, roomAddress)).toEqual([]);
    expect(alice!.sentMessages.filter((message) => message.body !== undefined)).toEqual([]);
  });

  it('refuses a room not joined, and any send while not connected', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    await expect(alice!.chat.sendChat(`elsewhere-${randomUUID()}@${roomAddress.split('@')[1]}`, 'hi')).rejects.toThrow(RoomNotJoinedError);
    await expect(alice!.chat.sendChat('not an address', 'hi')).rejects.toThrow(ValidationError);
    alice!.session.disconnect();
    await expect(alice!.chat.sendChat(roomAddress, 'hi')).rejects.toThrow(NotConnectedError);
    await expect(alice!.chat.sendCommand(roomAddress, 'x', {})).rejects.toThrow(NotConnectedError);
  });
});

describe('SPEC §5 message editing: a replace id is a correction only if the original was outgoing', () => {
  it('corrects our own message in place (one record, new body, editedTime), sent as an XEP-0308 replace', async () => {
    const { who: [alice, bob], at: [a], roomAddress } = await together('Alice', 'Bob');
    const id = await alice!.chat.sendChat(roomAddress, 'helo');
    await waitFor(alice!, 'the echo', (state) => state.messages[id]?.acked);
    const corrected = await alice!.chat.sendChat(roomAddress, 'hello', id);

    expect(corrected).toBe(id);
    const record = alice!.session.store.state.messages[id]!;
    expect(record).toMatchObject({ id, stanzaId: id, body: 'hello', direction: 'outgoing', editedTime: expect.any(Number) });
    expect(record.editedTime).toBeGreaterThanOrEqual(record.time);
    expect(messagesIn(alice!, roomAddress)).toHaveLength(1);
    await waitFor(alice!, 'the correction echoed', (state) => state.messages[id]?.acked === true && state.messages[id]?.body === 'hello');
    expect(messagesIn(alice!, roomAddress)).toHaveLength(1);
    const wire = alice!.sentMessages.find((message) => message.body === 'hello');
    expect(wire).toMatchObject({ replace: id, nick: 'Alice', chatState: 'active' });
    expect(wire?.id).not.toBe(id);

    // At Bob's side the original was not outgoing: the correction is a new message naming it.
    const seen = await waitFor(bob!, 'the correction', () => messagesIn(bob!, roomAddress).find((message) => message.body === 'hello'));
    expect(seen).toMatchObject({ id: `${a!.occupant}:${wire!.id}`, replace: id, direction: 'incoming' });
    expect(messagesIn(bob!, roomAddress).find((message) => message.stanzaId === id)?.body).toBe('helo');
  });

  it("stores a replace naming someone else's message as a new message, leaving theirs unchanged", async () => {
    const { who: [alice, bob], at: [, b], roomAddress } = await together('Alice', 'Bob');
    const bobsId = await bob!.chat.sendChat(roomAddress, 'original by Bob');
    await waitFor(alice!, "Bob's message", (state) => state.messages[`${b!.occupant}:${bobsId}`]);

    const id = await alice!.chat.sendChat(roomAddress, 'not a correction', bobsId);
    expect(id).not.toBe(bobsId);
    expect(alice!.session.store.state.messages[id]).toMatchObject({ body: 'not a correction', direction: 'outgoing', replace: bobsId, editedTime: undefined });
    expect(alice!.session.store.state.messages[`${b!.occupant}:${bobsId}`]?.body).toBe('original by Bob');
  });

  it('does not let a peer correct one of our messages: their replace naming our stanza id is a new message', async () => {
    const { who: [alice, bob], at: [, b], roomAddress } = await together('Alice', 'Bob');
    const id = await alice!.chat.sendChat(roomAddress, 'what Alice said');
    await waitFor(bob!, "Alice's message", () => messagesIn(bob!, roomAddress).some((message) => message.stanzaId === id));

    const bobsId = await bob!.chat.sendChat(roomAddress, 'words put in her mouth', id);
    const seen = await waitFor(alice!, "Bob's replace", (state) => state.messages[`${b!.occupant}:${bobsId}`]);
    expect(seen).toMatchObject({ body: 'words put in her mouth', direction: 'incoming', replace: id, editedTime: undefined });
    expect(alice!.session.store.state.messages[id]).toMatchObject({ body: 'what Alice said', editedTime: undefined });
  });
});

describe("SPEC §3 unread count: each incoming message counts; markRead resets the room's count", () => {
  it('counts messages from others only, and markRead sets it to 0', async () => {
    const { who: [alice, bob], at: [a], roomAddress } = await together('Alice', 'Bob');
    const unread = (state: SessionState): number | undefined => state.rooms[a!.roomId]?.unreadCount;
    await alice!.chat.sendChat(roomAddress, 'mine does not count');
    await bob!.chat.sendChat(roomAddress, 'one');
    await bob!.chat.sendChat(roomAddress, 'two');
    await waitFor(alice!, 'two unread', (state) => unread(state) === 2);

    await alice!.chat.markRead(roomAddress);
    expect(unread(alice!.session.store.state)).toBe(0);
    await bob!.chat.sendChat(roomAddress, 'three');
    await waitFor(alice!, 'one unread', (state) => unread(state) === 1);
    await barrier(bob!, alice!, roomAddress); // commands and chat states are not messages
    expect(unread(alice!.session.store.state)).toBe(1);
  });
});

describe('SPEC §4 chat state (XEP-0085 in groupchat): sent when it changes, seen by the other', () => {
  it("setChatState sends only changes, and updates the sender's Peer at the other side", async () => {
    const { who: [alice, bob], at: [a], roomAddress } = await together('Alice', 'Bob');
    await alice!.chat.setChatState(roomAddress, 'composing');
    await waitFor(bob!, 'Alice composing', (state) => state.peers[a!.occupant]?.chatState === 'composing');
    await alice!.chat.setChatState(roomAddress, 'composing');
    await alice!.chat.setChatState(roomAddress, 'paused');
    await waitFor(bob!, 'Alice paused', (state) => state.peers[a!.occupant]?.chatState === 'paused');
    await alice!.chat.setChatState(roomAddress, 'active');
    await waitFor(bob!, 'Alice active', (state) => state.peers[a!.occupant]?.chatState === 'active');
    expect(alice!.sentMessages.filter((message) => message.chatState && !message.body).map((message) => message.chatState)).toEqual(['composing', 'paused', 'active']);
  });

  it('typing is composing and an emptied input is active, at the other side', async () => {
    const { who: [alice, bob], at: [a], roomAddress } = await together('Alice', 'Bob');
    await alice!.chat.updateRealTimeText(roomAddress, 'I think');
    await waitFor(bob!, 'Alice composing', (state) => state.peers[a!.occupant]?.chatState === 'composing');
    await alice!.chat.updateRealTimeText(roomAddress, '');
    await waitFor(bob!, 'Alice active', (state) => state.peers[a!.occupant]?.chatState === 'active');
  });
});

describe("XEP-0301 real-time text: a peer's draft shows live and clears when their message arrives", () => {
  it('shows the draft at the other side as it changes, then clears it for the message', async () => {
    const { who: [alice, bob], at: [a], roomAddress } = await together('Alice', 'Bob');
    await alice!.chat.updateRealTimeText(roomAddress, 'hello wrld');
    await waitFor(bob!, "Alice's draft", (state) => state.peers[a!.occupant]?.realTimeText === 'hello wrld');
    await alice!.chat.updateRealTimeText(roomAddress, 'hello world');
    await waitFor(bob!, "Alice's fixed draft", (state) => state.peers[a!.occupant]?.realTimeText === 'hello world');
    expect(alice!.sentMessages.filter((message) => message.rtt).map((message) => message.rtt?.event)).toEqual(['new', 'edit']);

    const id = await alice!.chat.sendChat(roomAddress, 'hello world');
    await waitFor(bob!, 'the message', (state) => state.messages[`${a!.occupant}:${id}`]);
    expect(bob!.session.store.state.peers[a!.occupant]?.realTimeText).toBe('');
  });
});

describe('SPEC §4 attention request (XEP-0224): sent to one occupant, flags the sender there', () => {
  it("sets the requester's requestingAttention at the addressed peer only", async () => {
    const { who: [alice, bob, carol], at: [a, b], roomAddress } = await together('Alice', 'Bob', 'Carol');
    await alice!.chat.requestAttention(b!.occupant);
    await waitFor(bob!, "Alice's attention request", (state) => state.peers[a!.occupant]?.requestingAttention === true);
    await barrier(alice!, carol!, roomAddress);
    expect(carol!.session.store.state.peers[a!.occupant]?.requestingAttention).toBe(false);
    await expect(alice!.chat.requestAttention(roomAddress)).rejects.toThrow(ValidationError);
  });
});

describe('PROTOCOL.md JSON commands: a message with a payload is a command, never chat', () => {
  it('delivers a room command to every other occupant as an event, and stores no chat', async () => {
    const { who: [alice, bob, carol], at: [a], roomAddress } = await together('Alice', 'Bob', 'Carol');
    await alice!.chat.sendCommand(roomAddress, 'raise-hand', { raised: true, at: [1, 2] });
    const expected: SessionEvent = { type: 'command', command: { from: a!.occupant, roomAddress, type: 'raise-hand', data: { raised: true, at: [1, 2] } } };
    await until(() => bob!.events.length > 0 && carol!.events.length > 0, 'the command at Bob and Carol');
    expect(bob!.events).toEqual([expected]);
    expect(carol!.events).toEqual([expected]);
    expect(alice!.sentMessages.at(-1)).toMatchObject({ to: roomAddress, type: 'groupchat', jsonPayloads: [{ type: 'raise-hand' }] });

    const id = await alice!.chat.sendChat(roomAddress, 'after the command');
    for (const other of [bob!, carol!]) await waitFor(other, 'the chat after it', (state) => state.messages[`${a!.occupant}:${id}`]);
    await waitFor(alice!, 'the echo of the chat after it', (state) => state.messages[id]?.acked);
    for (const one of [alice!, bob!, carol!]) expect(messagesIn(one, roomAddress).map((message) => message.body)).toEqual(['after the command']);
    expect(alice!.events).toEqual([]); // our own command's echo is not an event
  });

  it('delivers a peer command (type normal to the occupant) to that peer only', async () => {
    const { who: [alice, bob, carol], at: [a, b], roomAddress } = await together('Alice', 'Bob', 'Carol');
    await alice!.chat.sendCommand(b!.occupant, 'ping-peer', { n: 1 });
    await until(() => bob!.events.length > 0, 'the command at Bob');
    expect(bob!.events).toEqual([{ type: 'command', command: { from: a!.occupant, roomAddress, type: 'ping-peer', data: { n: 1 } } }]);
    expect(alice!.sentMessages.at(-1)).toMatchObject({ to: b!.occupant, type: 'normal' });
    await barrier(alice!, carol!, roomAddress);
    expect(carol!.events.map((event) => (event.type === 'command' ? event.command.type : event.type))).toEqual(['test-barrier']);
    expect(messagesIn(bob!, roomAddress)).toEqual([]);
  });

  it('refuses commands it cannot send within bounds', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    await expect(alice!.chat.sendCommand(roomAddress, 'big', 'x'.repeat(LIMITS.jsonCommandBytes))).rejects.toThrow(ValidationError);
    await expect(alice!.chat.sendCommand(roomAddress, '', {})).rejects.toThrow(ValidationError);
    await expect(alice!.chat.sendCommand(roomAddress, 'bigint', 1n)).rejects.toThrow(ValidationError);
    await expect(alice!.chat.sendCommand(roomAddress, 'no data', undefined)).rejects.toThrow(ValidationError);
    expect(alice!.sentMessages.filter((message) => message.jsonPayloads)).toEqual([]);
  });

  it('carries on after a malformed JSON payload from another client: the server bounces it, so it never arrives', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, 'Mallory');
    // A plain client may put any text in <json>: teach this one a raw-text view of the payload. What
    // the session does with one that still arrives (from a server without the guard) is
    // protocol-tolerant-json.test.ts's.
    plain.client.stanzas.define([
      {
        element: 'payload',
        namespace: Namespaces.NS_JSON_MESSAGE_0,
        path: 'message.rawPayload',
        fields: { type: JXT.attribute('datatype'), json: JXT.childText(Namespaces.NS_JSON_0, 'json') },
      },
    ]);
    const malformed: Stanzas.Message & { rawPayload: { type: string; json: string } } = { to: roomAddress, type: 'groupchat', rawPayload: { type: 'evil', json: '{not json' } };
    plain.client.sendMessage(malformed);
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'after', body: 'still there?' });
    await waitFor(alice!, 'the message after the malformed payload', (state) => state.messages[`${plain.occupant}:after`]);
    expect(alice!.events).toEqual([]);
    // The server bounced it (payload-guard.test.ts), so the session never had to refuse it.
    expect(alice!.logs.some((line) => line.includes('malformed JSON'))).toBe(false);
    expect(alice!.session.connection.state).toBe('connected');
  });
});

describe('Interop with a plain XMPP client (StanzaJS, not Parley): standard stanzas both ways', () => {
  it("shows its groupchat messages, named by <nick>, else by its Peer's display name, else Anonymous (its room nickname an issued id)", async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, 'Pat');
    await waitFor(alice!, 'Pat as a peer', (state) => state.peers[plain.occupant]);
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'p1', body: 'with a nick', nick: 'Patricia' });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'p2', body: 'without a nick' });
    await waitFor(alice!, 'both messages', (state) => state.messages[`${plain.occupant}:p2`]);
    expect(alice!.session.store.state.messages[`${plain.occupant}:p1`]).toMatchObject({ body: 'with a nick', displayName: 'Patricia', stanzaId: 'p1', direction: 'incoming' });
    expect(alice!.session.store.state.messages[`${plain.occupant}:p2`]).toMatchObject({ body: 'without a nick', displayName: 'Pat' });

    alice!.session.store.remove('peers', plain.occupant); // as if its presence had not arrived
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'p3', body: 'from nobody known' });
    const third = await waitFor(alice!, 'the third message', (state) => state.messages[`${plain.occupant}:p3`]);
    expect(third.displayName).toBe('Anonymous');
  });

  it('names one that joined under a nickname of its own and sends no <nick> by that nickname: in the people list and on its messages, also once it is gone', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, undefined, 'dave_on_gajim');
    const peer = await waitFor(alice!, 'Dave as a peer', (state) => state.peers[plain.occupant]);
    expect(peer.displayName).toBe('dave_on_gajim');
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'd1', body: 'hi from Gajim' });
    expect(await waitFor(alice!, 'his message', (state) => state.messages[`${plain.occupant}:d1`])).toMatchObject({ displayName: 'dave_on_gajim' });

    alice!.session.store.remove('peers', plain.occupant); // as if its presence had not arrived
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'd2', body: 'still me' });
    expect(await waitFor(alice!, 'his second message', (state) => state.messages[`${plain.occupant}:d2`])).toMatchObject({ displayName: 'dave_on_gajim' });
  });

  it('says its nickname change (XEP-0045 status 303) as a rename under its new name, not as someone joining', async () => {
    const { who: [alice], roomAddress, plain } = await togetherWithDave(['Alice']);
    plain.client.sendPresence({ to: `${roomAddress}/david` });
    const renamed = await waitFor(alice!, 'David as a peer', (state) => state.peers[`${roomAddress}/david`]);
    expect(renamed.displayName).toBe('david');
    expect(alice!.session.store.state.peers[plain.occupant]).toBeUndefined();
    const lines = Object.values(alice!.session.store.state.roomEvents).filter((event) => event.roomAddress === roomAddress);
    expect(lines.map((event) => [event.kind, event.formerName, event.formerAddress, event.displayName])).toEqual([
      ['joined', undefined, undefined, 'dave_on_gajim'],
      ['renamed', 'dave_on_gajim', plain.occupant, 'david'],
    ]);
  });

  it('shows its private message (XEP-0045, which Parley cannot send) to its addressee alone, marked so and counted unread, never mixed with its room messages', async () => {
    const { who: [alice, bob], at: [aliceAt], roomAddress, plain } = await togetherWithDave(['Alice', 'Bob']);
    const unreadBefore = alice!.session.store.state.rooms[aliceAt!.roomId]!.unreadCount;
    plain.client.sendMessage({ to: aliceAt!.occupant, type: 'chat', id: 'pm1', body: 'just between us' });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'g1', body: 'hello everyone' });
    const whisper = await waitFor(alice!, 'the private message', (state) => state.messages[`${plain.occupant}:pm1`]);
    expect(whisper).toMatchObject({ body: 'just between us', direction: 'incoming', displayName: 'dave_on_gajim', roomAddress, privately: true });
    const aloud = await waitFor(alice!, 'the room message', (state) => state.messages[`${plain.occupant}:g1`]);
    expect(aloud.privately).toBeUndefined();
    expect(alice!.session.store.state.rooms[aliceAt!.roomId]!.unreadCount).toBe(unreadBefore + 2);
    // Bob had the room message, after the private one was sent: the private one is not his.
    await waitFor(bob!, 'the room message', (state) => state.messages[`${plain.occupant}:g1`]);
    expect(bob!.session.store.state.messages[`${plain.occupant}:pm1`]).toBeUndefined();
  });

  it('shows its groupchat messages without an id we can keep (none, or one too long) under an id, also where crypto.randomUUID is missing (a plain-http page)', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, 'Pat');
    await waitFor(alice!, 'Pat as a peer', (state) => state.peers[plain.occupant]);
    const shown = (body: string) => waitFor(alice!, `'${body}'`, (state) => Object.values(state.messages).find((message) => message.body === body));
    // A page outside a secure context has a crypto without randomUUID.
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto), subtle: crypto.subtle });
    try {
      // StanzaJS's sendMessage would give them an id of its own: sent as the bare stanzas.
      plain.client.send('message', { to: roomAddress, type: 'groupchat', body: 'no id' });
      plain.client.send('message', { to: roomAddress, type: 'groupchat', id: 'x'.repeat(LIMITS.stanzaIdLength + 1), body: 'too long an id' });
      // The room may stamp an id on a message that has none (Prosody does); else it is ours.
      const withoutId = await shown('no id');
      expect(withoutId).toMatchObject({ id: `${plain.occupant}:${withoutId.stanzaId}`, stanzaId: expect.stringMatching(/.+/), displayName: 'Pat' });
      const overlong = await shown('too long an id');
      expect(overlong).toMatchObject({ id: `${plain.occupant}:${overlong.stanzaId}`, stanzaId: expect.stringMatching(UUID), displayName: 'Pat' });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows its message longer than LIMITS.chatBodyLength, which the room passes on, cut to the limit and saying how much more there was', async () => {
    const { who: [alice], roomAddress, plain } = await togetherWithDave(['Alice']);
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'paste', body: `${'x'.repeat(LIMITS.chatBodyLength)}${'y'.repeat(3_616)}` });
    const paste = await waitFor(alice!, 'Dave’s long paste', (state) => state.messages[`${plain.occupant}:paste`]);
    expect(paste).toMatchObject({ body: 'x'.repeat(LIMITS.chatBodyLength), charactersCut: 3_616, displayName: 'dave_on_gajim' });
  });

  it('stores its XEP-0308 correction as a new message naming the original (SPEC §5: the original was not outgoing)', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, 'Pat');
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'orig', body: 'teh' });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'fix', body: 'the', replace: 'orig' });
    await waitFor(alice!, 'the correction', (state) => state.messages[`${plain.occupant}:fix`]);
    expect(alice!.session.store.state.messages[`${plain.occupant}:orig`]).toMatchObject({ body: 'teh', replace: undefined });
    expect(alice!.session.store.state.messages[`${plain.occupant}:fix`]).toMatchObject({ body: 'the', replace: 'orig', editedTime: undefined });
  });

  it('shows its XEP-0085 chat states on its Peer (inactive and gone read as not typing)', async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, 'Pat');
    await waitFor(alice!, 'Pat as a peer', (state) => state.peers[plain.occupant]);
    const states: Array<[Stanzas.Message['chatState'], Peer['chatState']]> = [
      ['composing', 'composing'],
      ['paused', 'paused'],
      ['composing', 'composing'],
      ['inactive', 'active'],
      ['composing', 'composing'],
      ['gone', 'active'],
    ];
    for (const [sent, shown] of states) {
      plain.client.sendMessage({ to: roomAddress, type: 'groupchat', chatState: sent });
      await waitFor(alice!, `Pat ${shown}`, (state) => state.peers[plain.occupant]?.chatState === shown);
    }
  });

  it("shows its real-time text made with StanzaJS's InputBuffer", async () => {
    const { who: [alice], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, 'Pat');
    await waitFor(alice!, 'Pat as a peer', (state) => state.peers[plain.occupant]);
    const input = new RTT.InputBuffer(undefined, true);
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', rtt: input.start() });
    for (const draft of ['Hi', 'Hi there', 'Hi here', 'Hi here 👋']) {
      input.update(draft);
      plain.client.sendMessage({ to: roomAddress, type: 'groupchat', rtt: input.diff()! });
      await waitFor(alice!, `Pat's draft '${draft}'`, (state) => state.peers[plain.occupant]?.realTimeText === draft);
    }
  });

  it('sends Parley messages, corrections, chat states and real-time text as standard stanzas it reads', async () => {
    const { who: [alice], at: [a], roomAddress } = await together('Alice');
    const plain = await plainClientIn(roomAddress, 'Pat');
    const fromAlice = (message: Stanzas.ReceivedMessage): boolean => message.from === a!.occupant;

    let received = nextMessage(plain.client, 'the message', (message) => fromAlice(message) && message.body !== undefined);
    const id = await alice!.chat.sendChat(roomAddress, 'hello Pat');
    expect(await received).toMatchObject({ type: 'groupchat', id, body: 'hello Pat', nick: 'Alice', chatState: 'active' });

    received = nextMessage(plain.client, 'the correction', (message) => fromAlice(message) && message.body !== undefined);
    await alice!.chat.sendChat(roomAddress, 'hello, Pat', id);
    expect(await received).toMatchObject({ body: 'hello, Pat', replace: id, nick: 'Alice', chatState: 'active' });

    received = nextMessage(plain.client, 'composing', (message) => fromAlice(message) && message.chatState === 'composing');
    const rttReceived = nextMessage(plain.client, 'real-time text', (message) => fromAlice(message) && message.rtt !== undefined);
    await alice!.chat.updateRealTimeText(roomAddress, 'more 🎉');
    expect((await received).body).toBeUndefined();
    // StanzaJS's own DisplayBuffer reads Parley's real-time text back to the draft.
    const display = new RTT.DisplayBuffer(undefined, true);
    display.process((await rttReceived).rtt!);
    await until(() => display.text === 'more 🎉', "the plain client's display buffer");

    received = nextMessage(plain.client, 'paused', (message) => fromAlice(message) && message.chatState === 'paused');
    await alice!.chat.setChatState(roomAddress, 'paused');
    expect((await received).body).toBeUndefined();
  });
});

describe('A live message’s own <delay> is its sender’s word: only the room’s history is placed in the past (XEP-0203)', () => {
  it('places a plain client’s message stamped years ago, with or without the room’s name on the stamp, at the time it came', async () => {
    const { who: [alice], roomAddress, plain } = await togetherWithDave(['Alice']);
    const longAgo = new Date(Date.UTC(2001, 0, 1));
    const before = Date.now();
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'stamped', body: 'stamped long ago', delay: { timestamp: longAgo } });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'as-room', body: 'stamped as the room', delay: { timestamp: longAgo, from: roomAddress } });
    for (const id of ['stamped', 'as-room']) {
      const seen = await waitFor(alice!, `Dave’s message ${id}`, (state) => state.messages[`${plain.occupant}:${id}`]);
      expect(seen.time).toBeGreaterThanOrEqual(before);
    }
  });
});

describe('What a message says of its sender is the room’s word: the customerData the server put on their presence, not a <user> they wrote on the message (PROTOCOL.md talky core)', () => {
  it('keeps the customerData of Dave’s presence on his message that claims other data', async () => {
    const { who: [alice], roomAddress, plain } = await togetherWithDave(['Alice'], talkyCoreDefinitions);
    const vouched = alice!.session.store.state.peers[plain.occupant]!.customerData;
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'claims', body: 'trust me', talkyUser: { customerData: JSON.stringify({ displayName: 'The Owner', role: 'admin' }) } });
    const seen = await waitFor(alice!, 'Dave’s message', (state) => state.messages[`${plain.occupant}:claims`]);
    expect(seen.customerData).toEqual(vouched);
  });
});

describe('Real-time text ends with its writer: someone who left takes their draft with them, and whoever comes back under that nickname starts afresh (XEP-0301)', () => {
  it('shows nothing of Dave’s draft from before he left once the nickname writes again', async () => {
    const { who: [alice], roomAddress, plain } = await togetherWithDave(['Alice']);
    const input = new RTT.InputBuffer(undefined, true);
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', rtt: input.start() });
    input.update('the secret plan');
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', rtt: input.diff()! });
    await waitFor(alice!, 'Dave’s draft', (state) => state.peers[plain.occupant]?.realTimeText === 'the secret plan');

    await plain.client.leaveRoom(roomAddress, 'dave_on_gajim');
    await waitFor(alice!, 'Dave gone', (state) => state.peers[plain.occupant] === undefined);
    await withTimeout(plain.client.joinRoom(roomAddress, 'dave_on_gajim'), WAIT_MS, 'Dave back');
    await waitFor(alice!, 'Dave back as a peer', (state) => state.peers[plain.occupant]);
    // An edit that carries on the old stream: it lands on nothing.
    input.update('the secret plan, and more');
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', rtt: input.diff()! });
    const shown = await waitFor(alice!, 'the edit applied', (state) => state.peers[plain.occupant]?.realTimeText || undefined);
    expect(shown).toBe(', and more');
  });
});

describe('Private replies (XEP-0045 §7.5): Parley answers a private message through the room to its sender alone', () => {
  it('goes to that occupant as type chat with the MUC user element, never to the room, and is marked passed on once the room has handled it', async () => {
    const { who: [alice, bob], at: [a], roomAddress, plain } = await togetherWithDave(['Alice', 'Bob']);
    const received = nextMessage(plain.client, 'the private reply', (message) => message.from === a!.occupant && message.body !== undefined);
    const id = await alice!.chat.sendChat(roomAddress, 'just for you', undefined, plain.occupant);
    expect(alice!.session.store.state.messages[id]).toMatchObject({ body: 'just for you', direction: 'outgoing', privately: true, recipientAddress: plain.occupant, recipientName: 'dave_on_gajim' });
    const reply = await received;
    expect(reply).toMatchObject({ type: 'chat', id, body: 'just for you', nick: 'Alice' });
    // As it left Alice (the servers add the element too), through the room: StanzaJS reads no field from it.
    expect(alice!.sent.find((xml) => xml.includes('<body>just for you</body>'))).toMatch(/<x xmlns=["']http:\/\/jabber\.org\/protocol\/muc#user["']\/>/);
    await waitFor(alice!, 'the reply passed on', (state) => state.messages[id]?.acked === true);
    expect(alice!.session.store.state.messages[id]!.sendError).toBeUndefined();

    // Its correction goes where it went: to Dave alone.
    const corrected = nextMessage(plain.client, 'the correction', (message) => message.from === a!.occupant && message.body !== undefined);
    const correctionId = await alice!.chat.sendChat(roomAddress, 'just for you, Dave', id);
    expect(correctionId).toBe(id);
    expect(await corrected).toMatchObject({ type: 'chat', body: 'just for you, Dave', replace: id });
    await waitFor(alice!, 'the correction passed on', (state) => state.messages[id]?.acked === true && state.messages[id]?.body === 'just for you, Dave');

    // Bob had a room message Alice sent after both: the private ones were not his.
    const aloud = await alice!.chat.sendChat(roomAddress, 'hello everyone');
    await waitFor(bob!, 'the room message', (state) => Object.values(state.messages).some((message) => message.stanzaId === aloud));
    expect(messagesIn(bob!, roomAddress).map((message) => message.body)).not.toContain('just for you');
    expect(messagesIn(bob!, roomAddress).map((message) => message.body)).not.toContain('just for you, Dave');
  });

  it('leaves the room its draft and chat state: a private message ends neither', async () => {
    const { who: [alice, bob], at: [a], roomAddress, plain } = await togetherWithDave(['Alice', 'Bob']);
    await alice!.chat.updateRealTimeText(roomAddress, 'a room draft');
    await waitFor(bob!, "Alice's draft", (state) => state.peers[a!.occupant]?.realTimeText === 'a room draft');
    const id = await alice!.chat.sendChat(roomAddress, 'aside to Dave', undefined, plain.occupant);
    await waitFor(alice!, 'the reply passed on', (state) => state.messages[id]?.acked === true);
    await barrier(alice!, bob!, roomAddress);
    expect(bob!.session.store.state.peers[a!.occupant]).toMatchObject({ realTimeText: 'a room draft', chatState: 'composing' });
  });

  it('to someone who has left, comes back from the room: not sent, saying so, and kept to send again', async () => {
    const { who: [alice], roomAddress, plain } = await togetherWithDave(['Alice']);
    await plain.client.leaveRoom(roomAddress, 'dave_on_gajim');
    await until(() => alice!.session.store.state.peers[plain.occupant] === undefined, 'Dave gone');
    const id = await alice!.chat.sendChat(roomAddress, 'are you there?', undefined, plain.occupant);
    const refused = await waitFor(alice!, 'the refusal', (state) => (state.messages[id]?.sendError ? state.messages[id] : undefined));
    expect(refused).toMatchObject({ acked: false, sendError: 'dave_on_gajim left the room', body: 'are you there?' });
    // The room's answer to the ping that followed, which comes before the echo of a later room
    // message, does not mark it passed on.
    const later = await alice!.chat.sendChat(roomAddress, 'anyone?');
    await waitFor(alice!, 'the room message echoed', (state) => state.messages[later]?.acked === true);
    expect(alice!.session.store.state.messages[id]).toMatchObject({ acked: false, sendError: 'dave_on_gajim left the room' });
  });

  it('refuses an address that is not someone else in the room, sending nothing', async () => {
    const { who: [alice], at: [a], roomAddress } = await together('Alice');
    const before = messagesIn(alice!, roomAddress).length;
    for (const privateTo of ['not an address', `${roomAddress}`, a!.occupant, `other-${roomAddress}/dave`]) {
      await expect(alice!.chat.sendChat(roomAddress, 'hello', undefined, privateTo)).rejects.toBeInstanceOf(ValidationError);
    }
    expect(messagesIn(alice!, roomAddress)).toHaveLength(before);
  });
});

describe('Private messages between people (XEP-0045 §7.5): each Parley presence says what its app can do (XEP-0115), so that the others know a private message reaches it', () => {
  it('Parley’s room presence carries its capabilities, which its app answers for; those who say theirs can be written to alone, those who say nothing (SimpleWebRTC 1.30.3) cannot', async () => {
    const roomName = newRoomName();
    const alice = person('Alice');
    const a = await join(alice, roomName);
    const plain = await plainClientIn(a.roomAddress, undefined, 'dave_on_gajim');
    const presence = withTimeout(
      new Promise<Stanzas.ReceivedPresence>((resolve) => plain.client.on('presence', (received) => received.from === a.occupant && received.legacyCapabilities && resolve(received))),
      WAIT_MS,
      'Alice’s presence with her capabilities',
    );
    const bob = person('Bob');
    const b = await join(bob, roomName);
    // Dave read Alice's presence as he joined; he reads it again when she changes her name.
    await setDisplayName(alice, 'Alice Liddell');
    const [caps] = (await presence).legacyCapabilities ?? [];
    expect(caps).toMatchObject({ algorithm: 'sha-1', node: 'parley:client' });
    const info = await withTimeout(plain.client.getDiscoInfo(a.occupant, `${caps!.node}#${caps!.value}`), WAIT_MS, 'Alice’s disco#info');
    expect(info.features).toContain('urn:xmpp:jingle:1');
    // As the answer carries its identity: StanzaJS gives it the stream's language, which the element has not.
    const answered = { ...info, type: 'info' as const, identities: info.identities.map(({ lang: _streamLanguage, ...identity }) => identity) };
    expect(EntityCaps.verify(answered, 'sha-1', caps!.value), 'the hash is of what her app answers').toBe(true);

    await waitFor(alice, 'Bob as someone a private message reaches', (state) => state.peers[b.occupant]?.readsPrivateMessages === true);
    await waitFor(bob, 'Alice as someone a private message reaches', (state) => state.peers[a.occupant]?.readsPrivateMessages === true);
    expect(alice.session.store.state.peers[plain.occupant]?.readsPrivateMessages, 'Dave’s app said nothing of itself').toBe(false);

    // Alice writes to Bob alone: he reads it as a private message to him.
    const id = await alice.chat.sendChat(a.roomAddress, 'just between us', undefined, b.occupant);
    const got = await waitFor(bob, 'the private message', (state) => Object.values(state.messages).find((message) => message.body === 'just between us'));
    expect(got).toMatchObject({ direction: 'incoming', privately: true, senderAddress: a.occupant });
    await waitFor(alice, 'passed on', (state) => state.messages[id]?.acked === true);
  });
});

describe('Retractions (XEP-0424) from a plain XMPP client: the message it takes back loses its text in every tab, and its fallback body is no message', () => {
  it('takes back a message and its correction (the current form and the one before 0.4); a retraction of someone else’s message, or of none, changes nothing', async () => {
    const { who: [alice, bob], roomAddress, plain } = await togetherWithDave(['Alice', 'Bob'], retractionDefinitions);
    const fallback = { body: 'dave_on_gajim retracted a message, which your app does not show.' };
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'r1', body: 'my password is hunter2' });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'r2', body: 'my password is hunter3', replace: 'r1' });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'k1', body: 'keep this one' });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'o1', body: 'an older app’s message' });
    const bobsSaid = await bob!.chat.sendChat(roomAddress, 'Bob’s own');
    await waitFor(alice!, 'every message', (state) => state.messages[`${plain.occupant}:o1`] && Object.values(state.messages).some((message) => message.stanzaId === bobsSaid));

    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'x1', body: fallback.body, retraction: { id: 'r1' } });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'x2', body: fallback.body, fastened: { id: 'o1', retract: true } });
    // Not his to take back, or nobody's.
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'x3', retraction: { id: bobsSaid } });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'x4', retraction: { id: 'no-such-message' } });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'after', body: 'after the retractions' });

    for (const who of [alice!, bob!]) {
      await waitFor(who, 'the message after the retractions', (state) => state.messages[`${plain.occupant}:after`]);
      const messages = who.session.store.state.messages;
      for (const id of ['r1', 'r2', 'o1']) expect(messages[`${plain.occupant}:${id}`]).toMatchObject({ body: '', retracted: true });
      expect(messages[`${plain.occupant}:k1`]).toMatchObject({ body: 'keep this one' });
      expect(messages[`${plain.occupant}:k1`]!.retracted).toBeUndefined();
      expect(Object.values(messages).find((message) => message.stanzaId === bobsSaid)).toMatchObject({ body: 'Bob’s own' });
      expect(Object.values(messages).map((message) => message.body)).not.toContain(fallback.body);
      expect(Object.values(messages).map((message) => message.body).join(' ')).not.toContain('hunter');
    }
  });
});

describe('Deleting a message of yours (XEP-0424): its text goes for everyone whose app reads retractions, and the others read that you deleted one', () => {
  it('sends the retraction with its fallback where the message went; Parley people and you see it deleted, and it takes no correction; someone else’s message or one not yet in the room is refused', async () => {
    const { who: [alice, bob], at: [a], roomAddress, plain } = await togetherWithDave(['Alice', 'Bob'], retractionDefinitions);
    const id = await alice!.chat.sendChat(roomAddress, 'wrong room, sorry');
    await waitFor(alice!, 'the echo', (state) => state.messages[id]?.acked === true);
    await waitFor(bob!, 'the message', (state) => Object.values(state.messages).some((message) => message.stanzaId === id));
    await alice!.chat.react(id, ['👍']);

    const received = nextMessage(plain.client, 'the retraction', (message) => message.from === a!.occupant && message.retraction !== undefined);
    await alice!.chat.retractChat(id);
    expect(await received).toMatchObject({ type: 'groupchat', retraction: { id }, fallback: { for: 'urn:xmpp:message-retract:1' }, body: '/me deleted a message' });
    expect(alice!.session.store.state.messages[id]).toMatchObject({ body: '', retracted: true, reactions: undefined });
    const atBob = await waitFor(bob!, 'the message deleted', (state) => Object.values(state.messages).find((message) => message.stanzaId === id && message.retracted));
    expect(atBob.body).toBe('');
    expect(messagesIn(bob!, roomAddress).map((message) => message.body)).not.toContain('/me deleted a message');
    // Deleted, it cannot be corrected back: apps that ignore the deletion would show the correction.
    await expect(alice!.chat.sendChat(roomAddress, 'brought back', id)).rejects.toThrow('replace names a message you deleted');
    expect(alice!.session.store.state.messages[id]).toMatchObject({ body: '', retracted: true });

    // Privately sent, privately taken back.
    plain.client.sendMessage({ to: a!.occupant, type: 'chat', id: 'ask', body: 'psst' });
    await waitFor(alice!, 'Dave’s private message', (state) => state.messages[`${plain.occupant}:ask`]);
    const reply = await alice!.chat.sendChat(roomAddress, 'not here', undefined, plain.occupant);
    await waitFor(alice!, 'the reply passed on', (state) => state.messages[reply]?.acked === true);
    const privately = nextMessage(plain.client, 'the private retraction', (message) => message.from === a!.occupant && message.retraction !== undefined);
    await alice!.chat.retractChat(reply);
    expect(await privately).toMatchObject({ type: 'chat', retraction: { id: reply } });

    const bobs = await bob!.chat.sendChat(roomAddress, 'mine');
    await waitFor(alice!, 'Bob’s message', (state) => Object.values(state.messages).some((message) => message.stanzaId === bobs));
    const atAlice = Object.values(alice!.session.store.state.messages).find((message) => message.stanzaId === bobs)!;
    for (const refused of [atAlice.id, id, `${plain.occupant}:ask`, 'no-such-message']) await expect(alice!.chat.retractChat(refused)).rejects.toBeInstanceOf(ValidationError);
    // Not yet echoed by the room: nothing to take back there yet.
    const pending = await alice!.chat.sendChat(roomAddress, 'on its way');
    await expect(alice!.chat.retractChat(pending)).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('Reactions (XEP-0444): each person’s whole set on a message, kept by who gave it, to and from plain XMPP clients', () => {
  it('shows a plain client’s reactions to a Parley message, each new set in place of the last, none taking them away', async () => {
    const { who: [alice, bob], roomAddress, plain } = await togetherWithDave(['Alice', 'Bob'], reactionDefinitions);
    const id = await alice!.chat.sendChat(roomAddress, 'ship it?');
    await waitFor(bob!, 'the message', (state) => Object.values(state.messages).some((message) => message.stanzaId === id));
    const reactionsAt = (who: TestSession) => Object.values(who.session.store.state.messages).find((message) => message.stanzaId === id)?.reactions;

    for (const set of [['👍', '🎉', '👍'], ['❤️'], []]) {
      plain.client.sendMessage({ to: roomAddress, type: 'groupchat', reactions: { id, reactions: set } });
      const expected = set.length === 0 ? undefined : { [plain.occupant]: { name: 'dave_on_gajim', emojis: [...new Set(set)] } };
      for (const who of [alice!, bob!]) await until(() => JSON.stringify(reactionsAt(who)) === JSON.stringify(expected), `${JSON.stringify(set)} on ${who.tabId}`);
    }
    // No body came: nothing new to read.
    expect(messagesIn(alice!, roomAddress)).toHaveLength(1);
  });

  it('sends Parley’s reactions as the whole set to the room, or to the one person of a private message, and keeps them as yours', async () => {
    const { who: [alice, bob], at: [a], roomAddress, plain } = await togetherWithDave(['Alice', 'Bob'], reactionDefinitions);
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', id: 'd1', body: 'lunch at noon' });
    plain.client.sendMessage({ to: a!.occupant, type: 'chat', id: 'd2', body: 'psst' });
    await waitFor(alice!, 'both messages', (state) => state.messages[`${plain.occupant}:d2`] && state.messages[`${plain.occupant}:d1`]);

    let received = nextMessage(plain.client, 'Alice’s reactions', (message) => message.from === a!.occupant && message.reactions !== undefined);
    await alice!.chat.react(`${plain.occupant}:d1`, ['👍', '🎉']);
    expect(await received).toMatchObject({ type: 'groupchat', reactions: { id: 'd1', reactions: ['👍', '🎉'] } });
    expect(alice!.session.store.state.messages[`${plain.occupant}:d1`]!.reactions).toEqual({ [a!.occupant]: { name: 'Alice', emojis: ['👍', '🎉'] } });
    await waitFor(bob!, 'Alice’s reactions', (state) => state.messages[`${plain.occupant}:d1`]?.reactions?.[a!.occupant]);

    received = nextMessage(plain.client, 'Alice’s private reaction', (message) => message.from === a!.occupant && message.reactions !== undefined);
    await alice!.chat.react(`${plain.occupant}:d2`, ['😮']);
    expect(await received).toMatchObject({ type: 'chat', reactions: { id: 'd2', reactions: ['😮'] } });

    received = nextMessage(plain.client, 'Alice taking hers back', (message) => message.from === a!.occupant && message.reactions !== undefined);
    await alice!.chat.react(`${plain.occupant}:d1`, []);
    expect((await received).reactions).toMatchObject({ id: 'd1' });
    expect((await received).reactions?.reactions ?? []).toEqual([]);
    expect(alice!.session.store.state.messages[`${plain.occupant}:d1`]!.reactions).toBeUndefined();
    await until(() => bob!.session.store.state.messages[`${plain.occupant}:d1`]?.reactions === undefined, 'Bob sees them gone');
  });

  it('ignores a set too large or not emoji-shaped, or one for no message; refuses the same from a tab, sending nothing', async () => {
    const { who: [alice], roomAddress, plain } = await togetherWithDave(['Alice'], reactionDefinitions);
    const id = await alice!.chat.sendChat(roomAddress, 'react to me');
    await waitFor(alice!, 'the echo', (state) => state.messages[id]?.acked === true);
    const tooMany = Array.from({ length: LIMITS.reactionsPerPerson + 1 }, (_, index) => String.fromCodePoint(0x1f600 + index));
    for (const reactions of [tooMany, ['two words'], ['x'.repeat(LIMITS.reactionLength + 1)]]) plain.client.sendMessage({ to: roomAddress, type: 'groupchat', reactions: { id, reactions } });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', reactions: { id: 'no-such-message', reactions: ['👍'] } });
    plain.client.sendMessage({ to: roomAddress, type: 'groupchat', reactions: { id, reactions: ['✅'] } });
    await waitFor(alice!, 'the last, valid set', (state) => state.messages[id]?.reactions);
    expect(alice!.session.store.state.messages[id]!.reactions).toEqual({ [plain.occupant]: { name: 'dave_on_gajim', emojis: ['✅'] } });

    const sentBefore = alice!.sent.length;
    for (const reactions of [tooMany, ['two words'], 'not a list' as unknown as string[]]) await expect(alice!.chat.react(id, reactions)).rejects.toBeInstanceOf(ValidationError);
    await expect(alice!.chat.react('no-such-message', ['👍'])).rejects.toBeInstanceOf(ValidationError);
    expect(alice!.sent.slice(sentBefore).filter((xml) => xml.includes('urn:xmpp:reactions:0'))).toEqual([]);
  });
});
