// Issue 14 "A join path with nothing on it that need not be there": the structural wins, held here.
import type { Agent, AgentConfig } from 'stanza';
import StanzaTransportModule from 'stanza/transports/websocket.js';
import { describe, expect, it, vi } from 'vitest';
import { commonJsDefault } from '../../src/protocol/commonJsDefault';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { fetchThrough, useHeldWebsockets, type HeldWebsocket } from '../support/heldWebsocket';
import { useParley } from '../support/parley';
import { connected, joinedBy, joinedRoom, peerNamed, useSessions, WAIT_MS, waitFor, type TestSession } from '../support/sessions';

const server = useParley();
const openSession = useSessions();

/** What a sent stanza is on the join path, or undefined for stream management and the test's own ping. */
function stepOf(xml: string): string | undefined {
  if (/^<(r|a|enable) xmlns="urn:xmpp:sm:3"/.test(xml) || xml.includes('urn:xmpp:ping')) return undefined;
  if (xml.startsWith('<presence')) {
    const call = xml.includes('http://andyet.net/xmlns/mmuc') && xml.includes('<conf');
    if (xml.includes('http://jabber.org/protocol/muc"')) return call ? 'join presence with the call' : 'join presence';
    if (call) return 'call presence';
  }
  if (xml.includes('http://jabber.org/protocol/disco#info') || xml.includes('http://jabber.org/protocol/muc#owner')) return 'lock check';
  const head = /^<(\w+)[^>]*>(<\w+ xmlns="[^"]+")?/.exec(xml);
  return `other: ${head?.[0] ?? xml.slice(0, 80)}`;
}

/** Everything the session sent since `from` has gone out: a ping answered. */
async function sentSince(who: TestSession, from: number): Promise<string[]> {
  await who.session.client?.ping();
  return who.sent.slice(from).flatMap((xml) => stepOf(xml) ?? []);
}

describe('Join path: a room opened at page load looks up its address beside the websocket and login, not after them (issue 14, SPEC §7 room config request)', () => {
  it('the room config request goes out before the XMPP session has started, and the join uses it', async () => {
    const lookups: Array<{ loggedIn: boolean }> = [];
    const person: TestSession = openSession({
      server: server(),
      displayName: 'Alice',
      fetch: (input, init) => {
        if (String(input).includes('/api/room-config')) lookups.push({ loggedIn: person.session.client !== undefined });
        return fetch(input, init);
      },
    });
    const roomId = await person.rooms.joinRoom('join-path-early', { autoJoinCall: true });
    await connected(person);
    const room = await joinedRoom(person, roomId);

    expect(room.address).toMatch(/^join-path-early@/);
    expect(lookups).toEqual([{ loggedIn: false }]);
  });
});

describe('Join path: the XMPP client is made while the config request is out, not after its answer (issue 14, SPEC §7 config request)', () => {
  it('the config is asked, the client made, and the room config request goes out as the config comes', async () => {
    const order: string[] = [];
    const person: TestSession = openSession({
      server: server(),
      displayName: 'Alice',
      fetch: (input, init) => {
        if (String(input).includes('/api/config')) order.push('config asked');
        if (String(input).includes('/api/room-config')) order.push('room address asked');
        return fetch(input, init).then((response) => {
          if (String(input).includes('/api/config')) order.push('config answered');
          return response;
        });
      },
      createXmppClient: (config) => {
        order.push('XMPP client made');
        return createParleyXmppClient(config);
      },
    });
    const roomId = await person.rooms.joinRoom('join-path-before-client', { autoJoinCall: true });
    await connected(person);
    await joinedRoom(person, roomId);

    expect(order).toEqual(['config asked', 'XMPP client made', 'config answered', 'room address asked']);
  });
});

describe('Join path: a room that auto-joins its call sends one join presence, which carries the call and starts the offers; the lock check comes after (issue 14, SPEC §4 autoJoinCall, PROTOCOL.md "After joining")', () => {
  it('a newcomer to a running call sends the join presence with the call, and only then reads the lock state', async () => {
    const alice = openSession({ server: server(), displayName: 'Alice' });
    const call = await joinedBy(alice, 'join-path', { autoJoinCall: true });
    const bob = openSession({ server: server(), displayName: 'Bob' });
    await connected(bob);
    const from = bob.sent.length;

    await joinedRoom(bob, await bob.rooms.joinRoom('join-path', { autoJoinCall: true }));
    await waitFor(bob, 'Bob in the call', (state) => state.calls[call.address]?.joined === true);
    await waitFor(bob, 'Alice in the call', (state) => state.peers[call.selfAddress]?.joinedCall === true);

    expect(await sentSince(bob, from)).toEqual(['join presence with the call', 'lock check']);
  });

  it('an owner reads the secret from the room config form, also after the join presence with the call', async () => {
    const alice = openSession({ server: server(), displayName: 'Alice' });
    await connected(alice);
    const from = alice.sent.length;
    const room = await joinedRoom(alice, await alice.rooms.joinRoom('join-path-owner', { autoJoinCall: true }));
    await waitFor(alice, 'Alice in the call', (state) => state.calls[room.address]?.joined === true);

    expect(await sentSince(alice, from)).toEqual(['join presence with the call', 'lock check']);
  });
});

const holdWebsocket = useHeldWebsockets(server);
const sessionThrough = (held: HeldWebsocket, displayName: string): TestSession => openSession({ server: server(), displayName, fetch: fetchThrough(held) });

describe('Join path: the room’s address is known, and its call can be joined, while the session logs in; the join presence then carries the call (issue 14, SPEC §7 room config request, PROTOCOL.md "Rooms")', () => {
  it('a newcomer who joins the call before the room answered sends one join presence, which carries the call; the others see them in the call from it', async () => {
    const alice = openSession({ server: server(), displayName: 'Alice' });
    const call = await joinedBy(alice, 'join-path-with-call', { autoJoinCall: true });
    const held = await holdWebsocket();
    // The login waits until the test releases the held websocket.
    const bob = sessionThrough(held, 'Bob');
    await bob.ready;
    bob.tabs.attach(bob.tabId, { state: () => {}, event: () => {}, jingle: () => {} });
    // As a room page opens it: the call waits for "Join call".
    const roomId = await bob.rooms.joinRoom('join-path-with-call', { autoJoinCall: false });

    const address = await waitFor(bob, 'the room’s address', (state) => state.rooms[roomId]?.address);
    expect(bob.session.store.state.connection.state).toBe('connecting');
    await bob.rooms.joinCall(address);
    held.release();
    await connected(bob);
    const room = await joinedRoom(bob, roomId);
    const seen = await peerNamed(alice, call.address, 'Bob');

    expect(seen.joinedCall).toBe(true);
    expect(room.address).toBe(call.address);
    // From the session's initial presence (the login is done) on.
    const loggedIn = bob.sent.findIndex((xml) => /^<presence(?![^>]* to=)/.test(xml)) + 1;
    expect(await sentSince(bob, loggedIn)).toEqual(['join presence with the call', 'lock check']);
  });
});

describe('Join path: "Join call" goes to the session by the room’s name, before the room has an address; the join presence then carries the call (issue 14, SPEC §4 autoJoinCall)', () => {
  it('a room opened without its call, then asked for it at once, sends one join presence with the call; the others see them in the call from it', async () => {
    const alice = openSession({ server: server(), displayName: 'Alice' });
    const call = await joinedBy(alice, 'join-path-call-by-name', { autoJoinCall: true });
    const bob = openSession({ server: server(), displayName: 'Bob' });
    await connected(bob);
    const from = bob.sent.length;

    // As a room page opens it, and as its "Join call" asks for the call before the address lookup has answered.
    const opened = bob.rooms.joinRoom('join-path-call-by-name', { autoJoinCall: false });
    const asked = bob.rooms.joinRoom('join-path-call-by-name', { autoJoinCall: true });
    const [roomId, sameRoomId] = await Promise.all([opened, asked]);
    expect(bob.session.store.state.rooms[roomId]?.address).toBeUndefined();
    const room = await joinedRoom(bob, roomId);
    const seen = await peerNamed(alice, call.address, 'Bob');

    expect(sameRoomId).toBe(roomId);
    expect(room.address).toBe(call.address);
    expect(seen.joinedCall).toBe(true);
    expect(await sentSince(bob, from)).toEqual(['join presence with the call', 'lock check']);
  });
});

describe('Join path: a call joined while the join presence awaits the room’s answer goes out at once, not after the answer (issue 14, PROTOCOL.md "After joining")', () => {
  it('the call presence follows the join presence before the self-presence has come; the room then has the newcomer in the call', async () => {
    const alice = openSession({ server: server(), displayName: 'Alice' });
    const call = await joinedBy(alice, 'join-path-early-call', { autoJoinCall: true });
    const held = await holdWebsocket();
    held.release();
    const bob = sessionThrough(held, 'Bob');
    await connected(bob);
    const from = bob.sent.length;
    // The room's answers to Bob wait: his join stays unanswered while he joins the call.
    held.holdIncoming();
    const roomId = await bob.rooms.joinRoom('join-path-early-call', { autoJoinCall: false });
    const stepsSent = () => bob.sent.slice(from).flatMap((xml) => stepOf(xml) ?? []);
    await vi.waitFor(() => expect(stepsSent()).toContain('join presence'), { timeout: WAIT_MS });
    await bob.rooms.joinCall(call.address);

    await vi.waitFor(() => expect(stepsSent()).toContain('call presence'), { timeout: WAIT_MS });
    const before = stepsSent();
    expect(bob.session.store.state.rooms[roomId]?.roomState).toBe('joining');
    held.releaseIncoming();
    await joinedRoom(bob, roomId);
    const seen = await peerNamed(alice, call.address, 'Bob', (peer) => peer.joinedCall);

    expect(before).toEqual(['join presence', 'call presence']);
    expect(seen.joinedCall).toBe(true);
    expect(await sentSince(bob, from)).toEqual(['join presence', 'call presence', 'lock check']);
  });
});

/** Parley's XMPP client, but with StanzaJS's own websocket transport in place of Parley's. */
function withStanzaJsTransport(config: AgentConfig): Agent {
  const client = createParleyXmppClient(config);
  client.transports.websocket = commonJsDefault(StanzaTransportModule) as unknown as Agent['transports'][string];
  return client;
}

describe('Join path: the session’s XMPP frames go between its websocket and its XML parser as the strings they are, not through UTF-8 bytes and back (issue 14)', () => {
  it('two people in a room exchange a message with accents, an emoji and CJK text, and StanzaJS’s transport turns no frame into bytes', async () => {
    // In a browser that Buffer is StanzaJS's pure-JavaScript one; here it is Node's, which `ws` also uses to send.
    const bytesOf = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer;
    const framesThroughBytes: string[] = [];
    const fromValue = vi.spyOn(Buffer, 'from').mockImplementation(((...args: unknown[]) => {
      // Who called it: the nearest frame outside this function and the spy. Not anywhere in the
      // stack, which also holds StanzaJS's transport below the socket's own conversions.
      const caller = new Error().stack
        ?.split('\n')
        .slice(2)
        .find((frame) => !frame.includes('@vitest/') && !frame.includes('tinyspy'));
      if (typeof args[0] === 'string' && caller?.includes('stanza/transports/websocket')) framesThroughBytes.push(args[0]);
      return bytesOf(...args);
    }) as typeof Buffer.from);
    try {
      const alice = openSession({ server: server(), displayName: 'Alice' });
      const bob = openSession({ server: server(), displayName: 'Bob' });
      const room = await joinedBy(alice, 'frames-as-strings');
      await joinedBy(bob, 'frames-as-strings');
      const body = 'Grüße 🎉 — 日本語';
      await alice.chat.sendChat(room.address, body);
      await waitFor(bob, 'the message', (state) => Object.values(state.messages).find((message) => message.body === body));

      expect(framesThroughBytes).toEqual([]);

      // The control: a session with StanzaJS's own transport is caught at it, both ways.
      const carol = openSession({ server: server(), displayName: 'Carol', createXmppClient: withStanzaJsTransport });
      await connected(carol);
      expect(framesThroughBytes).toEqual(expect.arrayContaining([expect.stringMatching(/^<open [^>]*\bto=/), expect.stringMatching(/^<open [^>]*\bfrom=/)]));
    } finally {
      fromValue.mockRestore();
    }
  });
});
