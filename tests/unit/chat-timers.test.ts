// Chat timing (SPEC §4 chat state and attention request, §9 chat constants) with fake time and a real
// network: each session's timers run on its own ManualClock, while its stanzas travel through a real
// Prosody behind the real gateway. Nothing waits on the wall clock to decide an outcome: the clock is
// advanced by hand, "not sent yet" is checked behind a ping round trip (the client sends stanzas in
// order), and what the other side sees is awaited with a bound.
import { randomUUID } from 'node:crypto';
import { createClient, type Stanzas } from 'stanza';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startParley, type RunningParley } from '../../server/Parley';
import type { SessionEvent } from '../../src/protocol/commands';
import { parseRoomConfigResponse } from '../../src/protocol/config';
import { ATTENTION_MS, CHAT, VOLUME } from '../../src/protocol/constants';
import type { Peer, Room } from '../../src/protocol/entities';
import type { SessionState } from '../../src/protocol/session-state';
import { parleyStanzas } from '../../src/protocol/stanzas';
import { ChatDomain } from '../../src/shared-worker/chat/ChatDomain';
import { SignalingSession } from '../../src/shared-worker/SignalingSession';
import { ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { withTimeout } from '../support/xmppClient';

/** Bounds waits for what a local server does in milliseconds; never decides an outcome. */
const WAIT_MS = 10_000;

let parley: RunningParley;
const people: Person[] = [];

beforeAll(async () => {
  parley = await startParley({ port: 0 });
});

afterEach(() => {
  for (const who of people.splice(0)) who.session.disconnect();
});

afterAll(async () => {
  await parley?.stop();
});

interface Person {
  clock: ManualClock;
  session: SignalingSession;
  chat: ChatDomain;
  events: SessionEvent[];
  /** Every message this person's client sent. */
  sent: Stanzas.Message[];
}

/**
 * A session built as the SharedWorker builds it, on fake time. Until it joins through the rooms
 * domain, the test stands in for that domain: a Room record per joined room, a Peer per occupant
 * presence (keyed by occupant address, as the rooms domain keys them).
 */
function person(displayName: string): Person {
  const clock = new ManualClock();
  const events: SessionEvent[] = [];
  const sent: Stanzas.Message[] = [];
  const session: SignalingSession = new SignalingSession({
    clock,
    fetch: (input, init) => fetch(input, init),
    log: { info: () => {}, error: () => {} },
    configUrl: new URL('/api/config', parley.url).href,
    createXmppClient: (config) => {
      const client = createClient(config);
      client.use(parleyStanzas);
      client.on('message:sent', (message) => sent.push(message));
      client.on('muc:available', (presence) => session.store.upsert('peers', presence.from, peerRecord(presence)));
      client.on('muc:unavailable', (presence) => session.store.remove('peers', presence.from));
      return client;
    },
  });
  session.store.apply({ kind: 'preferences', value: { ...session.store.state.preferences, displayName } });
  const chat = session.addDomain(new ChatDomain(session, (event) => events.push(event)));
  const created = { clock, session, chat, events, sent };
  people.push(created);
  return created;
}

function peerRecord(presence: Stanzas.ReceivedMUCPresence): Peer {
  const roomAddress = presence.from.split('/')[0] as string;
  return {
    address: presence.from,
    userAddress: undefined,
    id: presence.from.slice(roomAddress.length + 1),
    displayName: presence.nick ?? 'Anonymous',
    customerData: {},
    role: 'participant',
    affiliation: 'none',
    roomAddress,
    joinedCall: false,
    joinedCallAt: undefined,
    joinedRoomAt: 0,
    requestingMedia: 'none',
    speaking: false,
    lastSpokeAt: undefined,
    muted: false,
    chatState: 'active',
    requestingAttention: false,
    realTimeText: '',
    rtt: undefined,
    volume: 0,
    volumeLimit: VOLUME.peerLimitDefault,
    hasActiveCamera: false,
    hasActiveMicrophone: false,
    hasActiveScreenCapture: false,
    isSelf: presence.muc.statusCodes?.includes('110') ?? false,
    sessionFailed: false,
  };
}

/** Resolves once the person's state satisfies the condition; rejects after WAIT_MS. */
function waitFor<T>(who: Person, what: string, read: (state: SessionState) => T | undefined | false): Promise<T> {
  return new Promise((resolve, reject) => {
    let unsubscribe = (): void => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`gave up waiting for ${what}`));
    }, WAIT_MS);
    const check = (): boolean => {
      const value = read(who.session.store.state);
      if (value === undefined || value === false) return false;
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
      return true;
    };
    if (!check()) unsubscribe = who.session.store.subscribe(() => void check());
  });
}

/** Every stanza the client queued before this has gone out once the server answers a ping. */
async function flushed(who: Person): Promise<void> {
  await withTimeout(who.session.client!.ping(), WAIT_MS, 'ping');
}

/** Connects the person and joins the room as the rooms domain would (room config request, then MUC join). */
async function join(who: Person, roomName: string): Promise<{ roomAddress: string; occupant: string }> {
  await who.session.connect();
  await waitFor(who, 'the session to start', (state) => state.connection.state === 'connected');
  const config = who.session.config!;
  const response = await fetch(config.roomConfigUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.credential}` },
    body: JSON.stringify({ name: roomName }),
  });
  const { roomAddress } = parseRoomConfigResponse(await response.json());
  await withTimeout(who.session.client!.joinRoom(roomAddress, config.id, { nick: who.session.store.state.preferences.displayName }), WAIT_MS, 'join');
  const occupant = `${roomAddress}/${config.id}`;
  const id = randomUUID();
  const room: Room = {
    id,
    address: roomAddress,
    providedName: roomName,
    providedPassword: undefined,
    password: undefined,
    passwordRequired: false,
    banned: false,
    roomFull: false,
    roomNotStarted: false,
    roomState: 'joined',
    joined: true,
    joinedAt: who.clock.now(),
    selfAddress: occupant,
    selfAffiliation: 'none',
    selfRole: 'participant',
    autoJoinCall: false,
    unreadCount: 0,
    error: undefined,
  };
  who.session.store.upsert('rooms', id, room);
  return { roomAddress, occupant };
}

/** Two people in a fresh room, each seeing the other as a peer. */
async function pair(): Promise<{ alice: Person; bob: Person; roomAddress: string; aliceAddress: string; bobAddress: string }> {
  const alice = person('Alice');
  const bob = person('Bob');
  const name = `timers-${randomUUID().slice(0, 8)}`;
  const a = await join(alice, name);
  const b = await join(bob, name);
  await waitFor(alice, 'Bob as a peer', (state) => state.peers[b.occupant]);
  await waitFor(bob, 'Alice as a peer', (state) => state.peers[a.occupant]);
  return { alice, bob, roomAddress: a.roomAddress, aliceAddress: a.occupant, bobAddress: b.occupant };
}

function chatStatesSent(who: Person): Array<string | undefined> {
  return who.sent.filter((message) => message.chatState && !message.body).map((message) => message.chatState);
}

function rttSent(who: Person): Stanzas.RTT[] {
  return who.sent.flatMap((message) => (message.rtt ? [message.rtt] : []));
}

function peerSeenBy(who: Person, address: string): Peer | undefined {
  return who.session.store.state.peers[address];
}

describe('SPEC §4 chat state: composing turns to paused after 10 s without change', () => {
  it('sends composing on the first change and paused exactly CHAT.pausedAfterMs later, not before', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'h');
    await waitFor(bob, 'Alice composing', (state) => state.peers[aliceAddress]?.chatState === 'composing');

    await alice.clock.advance(CHAT.pausedAfterMs - 1);
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing']);
    expect(peerSeenBy(bob, aliceAddress)?.chatState).toBe('composing');

    await alice.clock.advance(1);
    await waitFor(bob, 'Alice paused', (state) => state.peers[aliceAddress]?.chatState === 'paused');
    expect(chatStatesSent(alice)).toEqual(['composing', 'paused']);
  });

  it('restarts the 10 s on every change of the draft, and not on an unchanged draft', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'h');
    await alice.clock.advance(5_000);
    await alice.chat.updateRealTimeText(roomAddress, 'hi'); // a change: the countdown starts again
    await alice.clock.advance(CHAT.pausedAfterMs - 1);
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing']);

    await alice.chat.updateRealTimeText(roomAddress, 'hi'); // the same draft: no change
    await alice.clock.advance(1);
    await waitFor(bob, 'Alice paused', (state) => state.peers[aliceAddress]?.chatState === 'paused');

    await alice.chat.updateRealTimeText(roomAddress, 'hi!');
    await waitFor(bob, 'Alice composing again', (state) => state.peers[aliceAddress]?.chatState === 'composing');
    expect(chatStatesSent(alice)).toEqual(['composing', 'paused', 'composing']);
  });

  it('sends composing once while the draft keeps changing', async () => {
    const { alice, roomAddress } = await pair();
    for (const draft of ['h', 'he', 'hel', 'hell', 'hello']) {
      await alice.chat.updateRealTimeText(roomAddress, draft);
      await alice.clock.advance(1_000);
    }
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing']);
  });
});

describe('SPEC §4 chat state: an empty message returns to active', () => {
  it('an emptied draft sends active, and no paused follows', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'typo');
    await waitFor(bob, 'Alice composing', (state) => state.peers[aliceAddress]?.chatState === 'composing');
    await alice.chat.updateRealTimeText(roomAddress, '');
    await waitFor(bob, 'Alice active', (state) => state.peers[aliceAddress]?.chatState === 'active');

    await alice.clock.advance(CHAT.pausedAfterMs * 2);
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing', 'active']);
  });

  it('sending the message is active: the message carries <active/> and no paused follows', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'hello');
    await waitFor(bob, 'Alice composing', (state) => state.peers[aliceAddress]?.chatState === 'composing');
    await alice.chat.sendChat(roomAddress, 'hello');
    await waitFor(bob, 'Alice active after her message', (state) => state.peers[aliceAddress]?.chatState === 'active');

    await alice.clock.advance(CHAT.pausedAfterMs * 2);
    await alice.chat.updateRealTimeText(roomAddress, ''); // the input clears after sending: already active
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing']);
    expect(alice.sent.find((message) => message.body === 'hello')?.chatState).toBe('active');
  });
});

describe('SPEC §9 real-time text: first send 100 ms after the first change, then every 700 ms while it changes', () => {
  it('sends the first edit at CHAT.rttFirstSendMs, not before, and the other side sees the text live', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'h');
    await alice.clock.advance(CHAT.rttFirstSendMs - 1);
    await flushed(alice);
    expect(rttSent(alice)).toEqual([]);

    await alice.clock.advance(1);
    await waitFor(bob, "Alice's real-time text", (state) => state.peers[aliceAddress]?.realTimeText === 'h');
    expect(rttSent(alice)).toMatchObject([{ event: 'new' }]);
  });

  it('sends later edits every CHAT.rttIntervalMs after the first send, gathering the changes in between', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'h');
    await alice.clock.advance(CHAT.rttFirstSendMs); // t = 100: first send
    await alice.chat.updateRealTimeText(roomAddress, 'he');
    await alice.clock.advance(50);
    await alice.chat.updateRealTimeText(roomAddress, 'hel'); // t = 150

    await alice.clock.advance(CHAT.rttIntervalMs - 50 - 1); // t = 799
    await flushed(alice);
    expect(rttSent(alice)).toHaveLength(1);
    expect(peerSeenBy(bob, aliceAddress)?.realTimeText).not.toBe('hel');

    await alice.clock.advance(1); // t = 800
    await waitFor(bob, "Alice's 'hel'", (state) => state.peers[aliceAddress]?.realTimeText === 'hel');
    const [first, second] = rttSent(alice);
    expect(second).toMatchObject({ event: 'edit', seq: (first?.seq ?? NaN) + 1 });

    await alice.chat.updateRealTimeText(roomAddress, 'he'); // erasing is an edit too
    await alice.clock.advance(CHAT.rttIntervalMs); // t = 1500
    await waitFor(bob, "Alice's 'he'", (state) => state.peers[aliceAddress]?.realTimeText === 'he');
    expect(rttSent(alice)).toHaveLength(3);
  });

  it('stops when the draft stops changing; the next change is sent CHAT.rttFirstSendMs after it', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'h');
    await alice.clock.advance(CHAT.rttFirstSendMs); // t = 100: sent
    await alice.clock.advance(CHAT.rttIntervalMs * 3); // quiet: nothing to send
    await flushed(alice);
    expect(rttSent(alice)).toHaveLength(1);

    await alice.clock.advance(CHAT.rttIntervalMs / 2); // off the interval's beat
    await alice.chat.updateRealTimeText(roomAddress, 'hi');
    await alice.clock.advance(CHAT.rttFirstSendMs - 1);
    await flushed(alice);
    expect(rttSent(alice)).toHaveLength(1);
    await alice.clock.advance(1);
    await waitFor(bob, "Alice's 'hi'", (state) => state.peers[aliceAddress]?.realTimeText === 'hi');
    expect(rttSent(alice)).toHaveLength(2);
  });

  it('sending the message resets the stream: the text clears at the other side and the next draft is a new one', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await pair();
    await alice.chat.updateRealTimeText(roomAddress, 'first');
    await alice.clock.advance(CHAT.rttFirstSendMs);
    await waitFor(bob, "Alice's 'first'", (state) => state.peers[aliceAddress]?.realTimeText === 'first');
    await alice.chat.updateRealTimeText(roomAddress, 'first!'); // pending when the message goes
    await alice.chat.sendChat(roomAddress, 'first!');
    await waitFor(bob, 'the real-time text cleared by the message', (state) => state.peers[aliceAddress]?.realTimeText === '');
    await alice.clock.advance(CHAT.rttIntervalMs * 2);
    await flushed(alice);
    expect(rttSent(alice)).toHaveLength(1);

    await alice.chat.updateRealTimeText(roomAddress, 'second');
    await alice.clock.advance(CHAT.rttFirstSendMs);
    await waitFor(bob, "Alice's 'second'", (state) => state.peers[aliceAddress]?.realTimeText === 'second');
    expect(rttSent(alice)[1]).toMatchObject({ event: 'new', actions: [{ type: 'insert', text: 'second' }] });
  });
});

describe('SPEC §4 attention request: requestingAttention stays true for 5 s, then false', () => {
  it('flags the requesting peer for ATTENTION_MS on the receiver clock; a new request starts it again', async () => {
    const { alice, bob, aliceAddress, bobAddress } = await pair();
    await bob.chat.requestAttention(aliceAddress);
    await waitFor(alice, "Bob's attention request", (state) => state.peers[bobAddress]?.requestingAttention === true);

    await alice.clock.advance(ATTENTION_MS - 1);
    expect(peerSeenBy(alice, bobAddress)?.requestingAttention).toBe(true);
    await bob.chat.requestAttention(aliceAddress);
    // The flag is already up, so the store does not change: wait for the timer the request restarts.
    await until(() => alice.clock.pendingDelays().includes(ATTENTION_MS), 'the second request to arrive');
    await alice.clock.advance(ATTENTION_MS - 1);
    expect(peerSeenBy(alice, bobAddress)?.requestingAttention).toBe(true);
    await alice.clock.advance(1);
    expect(peerSeenBy(alice, bobAddress)?.requestingAttention).toBe(false);
  });
});

describe('SessionDomain: a connection that goes stops every chat timer', () => {
  it('leaves no timer pending after a disconnect while typing and flagged', async () => {
    const { alice, bob, roomAddress, bobAddress } = await pair();
    await bob.chat.requestAttention(`${roomAddress}/${alice.session.config!.id}`);
    await waitFor(alice, "Bob's attention request", (state) => state.peers[bobAddress]?.requestingAttention === true);
    await alice.chat.updateRealTimeText(roomAddress, 'typing');
    expect(alice.clock.pendingDelays()).toEqual(expect.arrayContaining([CHAT.rttFirstSendMs, CHAT.pausedAfterMs, ATTENTION_MS]));

    alice.session.disconnect();
    expect(alice.clock.pendingDelays()).toEqual([]);
  });
});
