// Chat timing (SPEC §4 chat state and attention request, §9 chat constants) with fake time and a real
// network: each session's timers run on its own ManualClock, while its stanzas travel through a real
// Prosody behind the real gateway. Nothing waits on the wall clock to decide an outcome: the clock is
// advanced by hand, "not sent yet" is checked behind a ping round trip (the client sends stanzas in
// order), and what the other side sees is awaited with a bound.
import { randomUUID } from 'node:crypto';
import type { Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { LIVENESS } from '../../src/protocol/clientDefaults';
import { ATTENTION_MS, CHAT } from '../../src/protocol/constants';
import type { Peer } from '../../src/protocol/entities';
import { ManualClock } from '../support/ManualClock';
import { useParley } from '../support/parley';
import { flushed, joinedBy, useSessions, waitFor, type TestSession } from '../support/sessions';
import { until } from '../support/until';

const parley = useParley();
const openSession = useSessions();

type Person = TestSession<ManualClock>;

/**
 * A session built as the SharedWorker builds it, on fake time: its own ManualClock. Its liveness
 * check (issue 13) waits longer than any advance here: fake time jumps past the real server's
 * answers, which would read as a connection that stopped answering.
 */
function person(displayName: string): Person {
  return openSession({ server: parley(), displayName, clock: new ManualClock(), liveness: { ...LIVENESS, quietMs: 10 * CHAT.pausedAfterMs } });
}

/** Connects the person and joins the room through the rooms domain (room config request, then MUC join). */
async function join(who: Person, roomName: string): Promise<{ roomId: string; roomAddress: string; occupant: string }> {
  const room = await joinedBy(who, roomName, { autoJoinCall: false });
  return { roomId: room.id, roomAddress: room.address, occupant: room.selfAddress };
}

/** Two people in a fresh room (`name`), each seeing the other as a peer. */
async function pair(): Promise<{ alice: Person; bob: Person; name: string; aliceRoomId: string; roomAddress: string; aliceAddress: string; bobAddress: string }> {
  const alice = person('Alice');
  const bob = person('Bob');
  const name = `timers-${randomUUID().slice(0, 8)}`;
  const a = await join(alice, name);
  const b = await join(bob, name);
  await waitFor(alice, 'Bob as a peer', (state) => state.peers[b.occupant]);
  await waitFor(bob, 'Alice as a peer', (state) => state.peers[a.occupant]);
  return { alice, bob, name, aliceRoomId: a.roomId, roomAddress: a.roomAddress, aliceAddress: a.occupant, bobAddress: b.occupant };
}

type Pair = Awaited<ReturnType<typeof pair>>;

/** Alice types a draft, and Bob sees it once its first real-time text is sent. */
async function draftShownToBob({ alice, bob, roomAddress, aliceAddress }: Pair, draft: string): Promise<void> {
  await alice.chat.updateRealTimeText(roomAddress, draft);
  await alice.clock.advance(CHAT.rttFirstSendMs);
  await waitFor(bob, `Alice's '${draft}'`, (state) => state.peers[aliceAddress]?.realTimeText === draft);
}

function chatStatesSent(who: Person): Array<string | undefined> {
  return who.sentMessages.filter((message) => message.chatState && !message.body).map((message) => message.chatState);
}

function rttSent(who: Person): Stanzas.RTT[] {
  return who.sentMessages.flatMap((message) => (message.rtt ? [message.rtt] : []));
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
    expect(alice.sentMessages.find((message) => message.body === 'hello')?.chatState).toBe('active');
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

  it('an emptied draft is cancelled at once: the same text typed again before the next send shows again, as a new message', async () => {
    const together = await pair();
    const { alice, bob, roomAddress, aliceAddress } = together;
    await draftShownToBob(together, 'and also');
    await alice.chat.updateRealTimeText(roomAddress, '');
    await waitFor(bob, 'the draft cleared', (state) => state.peers[aliceAddress]?.realTimeText === '');

    await draftShownToBob(together, 'and also');
    expect(rttSent(alice).map((rtt) => rtt.event)).toEqual(['new', 'cancel', 'new']);
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

describe('A room we are out of keeps nothing of what we were writing there (SPEC §4 chat state, §9 real-time text)', () => {
  it('left while composing and joined again: the next keystroke says composing again, its real-time text is a new message, and no paused comes from before', async () => {
    const together = await pair();
    const { alice, bob, name, aliceRoomId, roomAddress, aliceAddress } = together;
    await draftShownToBob(together, 'half a tho');

    await alice.rooms.leaveRoom(aliceRoomId);
    await waitFor(bob, 'Alice gone', (state) => !state.peers[aliceAddress]);
    const back = await join(alice, name);
    await waitFor(bob, 'Alice back', (state) => state.peers[back.occupant]);
    await alice.chat.updateRealTimeText(roomAddress, 'hi');
    await alice.clock.advance(CHAT.rttFirstSendMs);
    await waitFor(bob, "Alice's 'hi'", (state) => state.peers[back.occupant]?.realTimeText === 'hi');
    expect(chatStatesSent(alice)).toEqual(['composing', 'composing']);
    expect(rttSent(alice)[1]).toMatchObject({ event: 'new', actions: [{ type: 'insert', text: 'hi' }] });

    // Only the new draft's countdown runs: paused comes CHAT.pausedAfterMs after 'hi', not sooner.
    await alice.clock.advance(CHAT.pausedAfterMs - CHAT.rttFirstSendMs - 1);
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing', 'composing']);
  });
});

describe('withdrawDraft: the chat input that wrote the draft goes (its view or its tab closes), the room stays open elsewhere', () => {
  it('the draft it gave is emptied for the room; a draft given since by another input stays', async () => {
    const together = await pair();
    const { alice, bob, roomAddress, aliceAddress } = together;
    await draftShownToBob(together, 'from the pop-out');

    await alice.chat.withdrawDraft(roomAddress, 'an older draft');
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing']);

    await alice.chat.withdrawDraft(roomAddress, 'from the pop-out');
    await waitFor(bob, 'Alice no longer typing', (state) => state.peers[aliceAddress]?.chatState === 'active' && state.peers[aliceAddress]?.realTimeText === '');
    await alice.clock.advance(CHAT.pausedAfterMs);
    await flushed(alice);
    expect(chatStatesSent(alice)).toEqual(['composing', 'active']);
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
