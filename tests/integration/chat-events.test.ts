// Issue 15, against a real Prosody behind the real gateway: the chat's event lines (derived in each
// person's session, never sent), real-time text switched off, and drafts that go with their writer.
import { randomUUID } from 'node:crypto';
import type { Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { CHAT } from '../../src/protocol/constants';
import type { RoomEvent } from '../../src/protocol/entities';
import type { SessionState } from '../../src/protocol/session-state';
import type { Clock } from '../../src/common/clock';
import { ManualClock } from '../support/ManualClock';
import { useParley } from '../support/parley';
import { flushed, joinedBy, joinedRoom, peerNamed, receivedBy, useSessions, waitFor, type TestSession } from '../support/sessions';

const parley = useParley();
const openSession = useSessions();

function person<C extends Clock>(displayName: string, clock?: C): TestSession<C> {
  return openSession({ server: parley(), displayName, ...(clock ? { clock } : {}) });
}

function newRoomName(): string {
  return `events-${randomUUID().slice(0, 8)}`;
}

/** The room's event lines as [kind, who]. */
function lines(state: SessionState, roomAddress: string): Array<[RoomEvent['kind'], string | undefined]> {
  return Object.values(state.roomEvents)
    .filter((event) => event.roomAddress === roomAddress)
    .map((event) => [event.kind, event.displayName]);
}

/** Resolves once the room's lines are exactly these. */
function linesAre(who: TestSession<Clock>, roomAddress: string, expected: Array<[RoomEvent['kind'], string | undefined]>): Promise<true> {
  return waitFor(who, `lines ${JSON.stringify(expected)}`, (state) => JSON.stringify(lines(state, roomAddress)) === JSON.stringify(expected));
}

describe('Event lines: joins, leaves, kicks, lock changes and attention requests, once per person, and a reconnect repeats nobody (issue 15)', () => {
  it('shows arrivals and departures after our join, not the people already there, and not everyone again after a reconnect', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    await linesAre(alice, room.address, [['joined', 'Bob']]);
    expect(lines(bob.session.store.state, room.address)).toEqual([]);

    // Bob's connection drops and comes back: he rejoins and sees Alice again, which is no news.
    bob.session.disconnect();
    await bob.session.connect();
    await joinedRoom(bob, bobRoom.id);
    await peerNamed(bob, room.address, 'Alice');
    // Alice saw the old occupant go and, at the same address (issue 13: the session asks for its
    // config id back) within DEPARTURE_HOLD.graceMs, come back: Bob reconnected, he did not join again.
    await linesAre(alice, room.address, [
      ['joined', 'Bob'],
      ['reconnected', 'Bob'],
    ]);
    expect(lines(bob.session.store.state, room.address)).toEqual([]);
  });

  it('a rejoin names who came and went while we were away', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const carol = person('Carol');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const carolRoom = await joinedBy(carol, name);
    const bobRoom = await joinedBy(bob, name);
    await peerNamed(bob, room.address, 'Carol');

    bob.session.disconnect();
    await carol.rooms.leaveRoom(carolRoom.id);
    const dave = person('Dave');
    await joinedBy(dave, name);
    await peerNamed(alice, room.address, 'Dave');
    await bob.session.connect();
    await joinedRoom(bob, bobRoom.id);
    await linesAre(bob, room.address, [
      ['left', 'Carol'],
      ['joined', 'Dave'],
    ]);
  });

  it('the owner locking and unlocking is one line for each person; a kick is one line naming who was removed', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const carol = person('Carol');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await joinedBy(bob, name);
    await joinedBy(carol, name);
    await linesAre(alice, room.address, [
      ['joined', 'Bob'],
      ['joined', 'Carol'],
    ]);

    await alice.rooms.lockRoom(room.address, 'secret');
    // Bob learns the lock by reading the room's state after its 104 notice: a lock undone before he
    // reads it would be no change to him, so the unlock waits until he has seen the lock.
    await linesAre(bob, room.address, [
      ['joined', 'Carol'],
      ['locked', undefined],
    ]);
    await alice.rooms.unlockRoom(room.address);
    await linesAre(bob, room.address, [
      ['joined', 'Carol'],
      ['locked', undefined],
      ['unlocked', undefined],
    ]);
    // The owner's own change and the room's 104 notice that follows it make one line, not two.
    await linesAre(alice, room.address, [
      ['joined', 'Bob'],
      ['joined', 'Carol'],
      ['locked', undefined],
      ['unlocked', undefined],
    ]);

    const carolPeer = await peerNamed(alice, room.address, 'Carol');
    await alice.rooms.kickPeer(carolPeer.address);
    await waitFor(bob, "Carol's removal", (state) => lines(state, room.address).some(([kind]) => kind === 'banned'));
    expect(lines(bob.session.store.state, room.address).at(-1)).toEqual(['banned', 'Carol']);
    expect(lines(alice.session.store.state, room.address).at(-1)).toEqual(['banned', 'Carol']);
  });

  it('an attention request is one line for the person asked, not one per repeat while it holds', async () => {
    const alice = person('Alice', new ManualClock());
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await joinedBy(bob, name);
    const alicePeer = await peerNamed(bob, room.address, 'Alice');
    await bob.chat.requestAttention(alicePeer.address);
    await bob.chat.requestAttention(alicePeer.address);
    await bob.chat.sendChat(room.address, 'after both requests');
    await waitFor(alice, "Bob's message", (state) => Object.values(state.messages).some((message) => message.body === 'after both requests'));
    expect(lines(alice.session.store.state, room.address)).toEqual([
      ['joined', 'Bob'],
      ['attention', 'Bob'],
    ]);
    expect(lines(bob.session.store.state, room.address)).toEqual([]);
  });
});

/** Two people in a fresh room on fake time for Alice (the real-time text schedule), Bob recording what reaches him. */
async function writerAndReader(options: { realTimeText: boolean }) {
  const alice = person('Alice', new ManualClock());
  const bob = person('Bob');
  const reachedBob = receivedBy(bob);
  await alice.preferences.setPreferences({ realTimeText: options.realTimeText });
  const name = newRoomName();
  const room = await joinedBy(alice, name);
  await joinedBy(bob, name);
  const aliceAtBob = await peerNamed(bob, room.address, 'Alice');
  return { alice, bob, reachedBob, roomAddress: room.address, aliceAddress: aliceAtBob.address };
}

/** Alice types a draft for a while (past several real-time text sends), then sends a message; resolves once Bob has it. */
async function typeThenSend(alice: TestSession<ManualClock>, bob: TestSession<Clock>, roomAddress: string): Promise<void> {
  for (const draft of ['s', 'se', 'sec', 'secret draft']) {
    await alice.chat.updateRealTimeText(roomAddress, draft);
    await alice.clock.advance(CHAT.rttIntervalMs);
  }
  await flushed(alice);
  await alice.chat.sendChat(roomAddress, 'the message');
  // The room relays Alice's stanzas in order: once the message is there, everything before it is too.
  await waitFor(bob, 'the message', (state) => Object.values(state.messages).some((message) => message.body === 'the message'));
}

const RTT_NS = 'urn:xmpp:rtt:0';
const rttSent = (who: TestSession<Clock>): Stanzas.RTT[] => who.sentMessages.flatMap((message) => (message.rtt ? [message.rtt] : []));

describe('Real-time text off: no urn:xmpp:rtt:0 leaves the session, chat states still go (issue 15)', () => {
  it('on (the spec\'s behaviour), the draft reaches the other person as real-time text', async () => {
    const { alice, bob, reachedBob, roomAddress } = await writerAndReader({ realTimeText: true });
    await typeThenSend(alice, bob, roomAddress);
    expect(reachedBob.some((xml) => xml.includes(RTT_NS))).toBe(true);
  });

  it('off, the other person gets "composing" and the message, and no rtt element at all', async () => {
    const { alice, bob, reachedBob, roomAddress } = await writerAndReader({ realTimeText: false });
    await typeThenSend(alice, bob, roomAddress);
    expect(rttSent(alice)).toEqual([]);
    expect(reachedBob.filter((xml) => xml.includes(RTT_NS))).toEqual([]);
    expect(reachedBob.some((xml) => xml.includes('<composing'))).toBe(true);
  });

  it('turned off mid-draft, the draft already shown is taken back (one cancel) and nothing more is sent', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await writerAndReader({ realTimeText: true });
    await alice.chat.updateRealTimeText(roomAddress, 'half a tho');
    await alice.clock.advance(CHAT.rttFirstSendMs);
    await waitFor(bob, "Alice's draft", (state) => state.peers[aliceAddress]?.realTimeText === 'half a tho');

    await alice.preferences.setPreferences({ realTimeText: false });
    await waitFor(bob, "Alice's draft taken back", (state) => state.peers[aliceAddress]?.realTimeText === '');
    await alice.chat.updateRealTimeText(roomAddress, 'half a thought, kept');
    await alice.clock.advance(CHAT.rttIntervalMs * 3);
    await flushed(alice);
    expect(rttSent(alice).map((rtt) => rtt.event)).toEqual(['new', 'cancel']);
  });
});

describe("A writer's draft goes from the others' screens when they clear it or leave the room (issue 15)", () => {
  it('cleared: the draft goes; left: the writer and their draft go', async () => {
    const { alice, bob, roomAddress, aliceAddress } = await writerAndReader({ realTimeText: true });
    await alice.chat.updateRealTimeText(roomAddress, 'maybe');
    await alice.clock.advance(CHAT.rttFirstSendMs);
    await waitFor(bob, "Alice's draft", (state) => state.peers[aliceAddress]?.realTimeText === 'maybe');
    // Cleared: the chat state 'active' and the real-time text's cancel go at once and take the draft
    // off Bob's screen, not an erasing edit at the next interval.
    await alice.chat.updateRealTimeText(roomAddress, '');
    await waitFor(bob, 'the draft cleared', (state) => state.peers[aliceAddress]?.realTimeText === '' && state.peers[aliceAddress]?.chatState === 'active');
    expect(rttSent(alice).map((rtt) => rtt.event)).toEqual(['new', 'cancel']);

    await alice.chat.updateRealTimeText(roomAddress, 'never mind, I am off');
    await alice.clock.advance(CHAT.rttIntervalMs);
    await waitFor(bob, "Alice's second draft", (state) => state.peers[aliceAddress]?.realTimeText === 'never mind, I am off');
    const aliceRoom = Object.values(alice.session.store.state.rooms)[0];
    await alice.rooms.leaveRoom(aliceRoom!.id);
    await waitFor(bob, 'Alice and her draft gone', (state) => !state.peers[aliceAddress] && !Object.values(state.peers).some((peer) => peer.realTimeText !== ''));
  });
});
