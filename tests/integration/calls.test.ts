import type { Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { LIVENESS } from '../../src/protocol/clientDefaults';
import type { JingleIq, SessionEvent } from '../../src/protocol/commands';
import { CallNotRunningError, ValidationError } from '../../src/protocol/errors';
import { LIMITS, UNCLAIMED_CALL_HOLD } from '../../src/protocol/constants';
import type { Peer } from '../../src/protocol/entities';
import type { Clock } from '../../src/common/clock';
import { ManualClock } from '../support/ManualClock';
import { providerConfig, useParley } from '../support/parley';
import { connected, flushed, joinedBy, joinedRoom, receivedBy, useSessions, WAIT_MS, waitFor, type JoinedRoom, type TestSession } from '../support/sessions';
import { until } from '../support/until';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

const server = useParley();
const openSession = useSessions();
const plainClient = usePlainClients();

async function personIn(roomName: string) {
  const person = openSession({ server: server() });
  const room = await joinedBy(person, roomName);
  return { person, room };
}

const peer = (person: TestSession, address: string): Peer | undefined => person.session.store.state.peers[address];
const seen = (person: TestSession, address: string, what: string, test: (peer: Peer) => boolean) =>
  waitFor(person, what, (state) => (state.peers[address] && test(state.peers[address]) ? state.peers[address] : undefined));

describe('Speaking state: a bodiless groupchat <state speaking="1|0"/> marks the speaker on every side (PROTOCOL.md, SPEC §3 Peer speaking)', () => {
  it('local speaking reaches the other person and marks our own Peer, with lastSpokeAt', async () => {
    const alice = await personIn('speaking-room');
    const bob = await personIn('speaking-room');
    await seen(bob.person, alice.room.selfAddress, 'Bob sees Alice', () => true);

    await alice.person.calls.setSpeaking(alice.room.address, true);
    expect(peer(alice.person, alice.room.selfAddress)?.speaking).toBe(true);
    const speaking = await seen(bob.person, alice.room.selfAddress, 'Bob sees Alice speaking', (p) => p.speaking);
    expect(speaking.lastSpokeAt).toBeGreaterThan(0);

    await alice.person.calls.setSpeaking(alice.room.address, false);
    await seen(bob.person, alice.room.selfAddress, 'Bob sees Alice stop', (p) => !p.speaking);
  });

  it('a plain XMPP client reads it as a standard bodiless groupchat message with the mmuc element', async () => {
    const alice = await personIn('speaking-interop');
    const config = await providerConfig(server());
    const plain = clientFor(config);
    await login(plain);
    const heard = new Promise<string | undefined>((resolve) => plain.on('message', (message) => message.mmucState && resolve(message.mmucState.speaking)));
    await withTimeout(plain.joinRoom(alice.room.address, config.id), 10_000, 'plain join');
    await alice.person.calls.setSpeaking(alice.room.address, true);
    expect(await withTimeout(heard, 10_000, 'speaking message')).toBe('1');
    plain.disconnect();
  });
});

describe("Peer media reports: the call tab's facts about a peer reach every tab, validated (SPEC §3 Peer)", () => {
  it('merges muted / hasActiveCamera into the Peer and refuses anything else', async () => {
    const alice = await personIn('media-report-room');
    const bob = await personIn('media-report-room');
    const bobAddress = bob.room.selfAddress;
    await seen(alice.person, bobAddress, 'Alice sees Bob', () => true);
    await alice.person.calls.reportPeerMedia(bobAddress, { muted: true, hasActiveCamera: true });
    expect(peer(alice.person, bobAddress)).toMatchObject({ muted: true, hasActiveCamera: true });
    await expect(alice.person.calls.reportPeerMedia(bobAddress, { muted: 'yes' as never })).rejects.toThrow('muted must be true or false');
    await expect(alice.person.calls.reportPeerMedia(bobAddress, { role: 'visitor' } as never)).rejects.toThrow('unknown peer media field role');
    expect(peer(alice.person, bobAddress)?.role).not.toBe('visitor');
  });

  it('keeps a per-peer volume limit (default 0.8) between 0 and 1', async () => {
    const alice = await personIn('volume-room');
    const bob = await personIn('volume-room');
    const bobPeer = await seen(alice.person, bob.room.selfAddress, 'Alice sees Bob', () => true);
    expect(bobPeer.volumeLimit).toBe(0.8);
    await alice.person.calls.setPeerVolumeLimit(bob.room.selfAddress, 0.25);
    expect(peer(alice.person, bob.room.selfAddress)?.volumeLimit).toBe(0.25);
    await expect(alice.person.calls.setPeerVolumeLimit(bob.room.selfAddress, 1.5)).rejects.toThrow('volumeLimit must be a number from 0 to 1');
  });
});

describe('Own media on the call record: what a tab taking the call over starts from (issue 13 handover)', () => {
  it('kept while in the call, merged per field, validated (flags true or false, troubles words of bounded length), and reset by leaving the call', async () => {
    const { person, room } = await personIn('own-media-room');
    const own = () => person.session.store.state.calls[room.address]?.ownMedia;
    // Out of the call (joining the room joined it) there is nothing to carry.
    await person.rooms.leaveCall(room.address);
    await person.calls.setOwnMedia(room.address, { microphoneMuted: true });
    expect(own()?.microphoneMuted ?? false).toBe(false);

    await person.rooms.joinCall(room.address);
    await person.calls.setOwnMedia(room.address, { microphoneMuted: true });
    await person.calls.setOwnMedia(room.address, { cameraOff: true });
    expect(own()).toEqual({ microphoneMuted: true, cameraOff: true, sharingScreen: false, cameraStopped: false, microphoneStopped: false, cameraTrouble: '', microphoneTrouble: '' });
    await person.calls.setOwnMedia(room.address, { cameraTrouble: 'No camera was found. Connect one and try again.' });
    expect(own()).toMatchObject({ cameraTrouble: 'No camera was found. Connect one and try again.', microphoneTrouble: '' });
    await expect(person.calls.setOwnMedia(room.address, { microphoneTrouble: true as never })).rejects.toThrow('microphoneTrouble must be a string');
    await expect(person.calls.setOwnMedia(room.address, { cameraTrouble: 'x'.repeat(LIMITS.deviceTroubleLength + 1) })).rejects.toThrow(`cameraTrouble is longer than ${LIMITS.deviceTroubleLength} characters`);
    await person.calls.setOwnMedia(room.address, { cameraStopped: true });
    expect(own()).toMatchObject({ cameraOff: true, cameraStopped: true, microphoneStopped: false });
    await expect(person.calls.setOwnMedia(room.address, { microphoneStopped: 1 as never })).rejects.toThrow('microphoneStopped must be true or false');
    await expect(person.calls.setOwnMedia(room.address, { cameraOff: 'yes' as never })).rejects.toThrow('cameraOff must be true or false');
    await expect(person.calls.setOwnMedia(room.address, { joined: false } as never)).rejects.toThrow('unknown own media field joined');
    await expect(person.calls.setOwnMedia(42 as never, {})).rejects.toThrow();

    await person.rooms.leaveCall(room.address);
    expect(own()).toEqual({ microphoneMuted: false, cameraOff: false, sharingScreen: false, cameraStopped: false, microphoneStopped: false, cameraTrouble: '', microphoneTrouble: '' });
  });
});

describe("Own media asked from another tab: the pop-out chat's microphone and camera reach the tab that runs the call, and only that tab", () => {
  it('delivered to the claiming tab as set values, validated, and refused in plain words while no tab of yours runs the call', async () => {
    const { person, room } = await personIn('own-media-request-room');
    const popoutEvents: SessionEvent[] = [];
    person.tabs.attach('own-media-popout', { state: () => {}, event: (event) => popoutEvents.push(event), jingle: () => {} });
    const callTabAsked = () => person.events.filter((event) => event.type === 'own-media-request');

    // Joining the room joined the call, but no tab runs it yet: nobody could do what is asked.
    await expect(person.calls.requestOwnMedia(room.address, { microphoneMuted: true })).rejects.toThrow(CallNotRunningError);
    await person.jingle.claimCall(person.tabId, room.address);
    await person.calls.requestOwnMedia(room.address, { microphoneMuted: true });
    await person.calls.requestOwnMedia(room.address, { cameraOff: false, microphoneMuted: false });
    expect(callTabAsked()).toEqual([
      { type: 'own-media-request', roomAddress: room.address, change: { microphoneMuted: true } },
      { type: 'own-media-request', roomAddress: room.address, change: { cameraOff: false, microphoneMuted: false } },
    ]);
    // The tab that asked (the pop-out) hears nothing: the call's tab does it, and the records say so.
    expect(popoutEvents).toEqual([]);

    await expect(person.calls.requestOwnMedia(room.address, { sharingScreen: true } as never)).rejects.toThrow('unknown own media request field sharingScreen');
    await expect(person.calls.requestOwnMedia(room.address, { microphoneMuted: 'yes' as never })).rejects.toThrow('microphoneMuted must be true or false');
    await expect(person.calls.requestOwnMedia(room.address, {})).rejects.toThrow('asks for the microphone, the camera or both');
    await expect(person.calls.requestOwnMedia('x'.repeat(LIMITS.addressLength + 1), { cameraOff: true })).rejects.toThrow(ValidationError);
    expect(callTabAsked()).toHaveLength(2);

    // Out of the call, and with the call's tab gone, there is no call to ask.
    await person.rooms.leaveCall(room.address);
    await expect(person.calls.requestOwnMedia(room.address, { cameraOff: true })).rejects.toThrow('No tab of yours runs this call');
    await person.rooms.joinCall(room.address);
    await person.jingle.releaseCall(person.tabId, room.address);
    await expect(person.calls.requestOwnMedia(room.address, { cameraOff: true })).rejects.toThrow(CallNotRunningError);
    expect(callTabAsked()).toHaveLength(2);
  });
});

describe('Held peers on the call record: whom the call keeps although the room says they left, as the session last knew them, so that every tab, a pop-out chat too, lists them and reads their leave as a reconnection (issue 15 event lines)', () => {
  it('kept while in the call as their last record, validated, reset by leaving the call, and cleared when the tab that ran the call goes, though another tab takes the call over', async () => {
    const { person, room } = await personIn('held-peers-room');
    const other = await personIn('held-peers-room');
    const alice = other.room.selfAddress;
    const held = () => person.session.store.state.calls[room.address]?.heldPeers.map((kept) => `${kept.displayName} ${kept.address} ${kept.joinedCall ? 'in the call' : 'out'}`);
    await person.jingle.claimCall(person.tabId, room.address);
    await other.person.rooms.joinCall(other.room.address);
    const aliceThen = await seen(person, alice, 'Alice in the call', (seenAlice) => seenAlice.joinedCall);
    const aliceKept = [`${aliceThen.displayName} ${alice} in the call`];
    await other.person.rooms.leaveRoom(other.room.id);
    await waitFor(person, 'Alice gone from the room', (state) => !(alice in state.peers));
    await person.calls.setHeldPeers(room.address, [alice, alice]);
    expect(held()).toEqual(aliceKept);
    // Nobody the session has no record of is kept: there is no one to list.
    await person.calls.setHeldPeers(room.address, [`${room.address}/nobody`]);
    expect(held()).toEqual([]);
    await person.calls.setHeldPeers(room.address, [alice]);

    await expect(person.calls.setHeldPeers(room.address, alice as never)).rejects.toThrow('held peers must be a list of addresses');
    await expect(person.calls.setHeldPeers(room.address, ['elsewhere@rooms.example/alice'])).rejects.toThrow(`elsewhere@rooms.example/alice is no occupant of ${room.address}`);
    await expect(person.calls.setHeldPeers(room.address, [room.address])).rejects.toThrow('is no occupant');
    await expect(person.calls.setHeldPeers(room.address, Array.from({ length: LIMITS.heldPeersPerCall + 1 }, (_, index) => `${room.address}/p${index}`))).rejects.toThrow(`at most ${LIMITS.heldPeersPerCall}`);
    await expect(person.calls.setHeldPeers(room.address, [42 as never])).rejects.toThrow();
    expect(held()).toEqual(aliceKept);

    await person.rooms.leaveCall(room.address);
    expect(held()).toEqual([]);
    // Out of the call nobody is kept.
    await person.calls.setHeldPeers(room.address, [alice]);
    expect(held()).toEqual([]);

    await person.rooms.joinCall(room.address);
    await person.calls.setHeldPeers(room.address, [alice]);
    expect(held()).toEqual(aliceKept);
    // Its tab goes (closed, or killed) and another of the room's tabs takes the call over: whom the
    // gone tab's call kept, nobody keeps now, until the new one reports its own.
    person.tabs.attach('held-peers-other-tab', { state: () => {}, event: () => {}, jingle: () => {} });
    person.tabGoes(person.tabId);
    await waitFor(person, 'nobody kept once the call’s tab went', (state) => state.calls[room.address]?.heldPeers.length === 0);
    await person.jingle.claimCall('held-peers-other-tab', room.address);
    expect(person.session.store.state.calls[room.address]?.joined).toBe(true);
  });
});

interface CallTab<C extends Clock> {
  person: TestSession<C>;
  room: JoinedRoom;
  /** The Jingle requests the session routed to its one tab. */
  routed: JingleIq[];
  /** What the server sent the session, as XML. */
  received: string[];
}

/** A person whose one tab records the Jingle requests routed to it, in the room; in its call unless told otherwise. */
async function tabIn<C extends Clock>(person: TestSession<C>, roomName: string, autoJoinCall = true): Promise<CallTab<C>> {
  const routed: JingleIq[] = [];
  const received = receivedBy(person);
  person.tabs.attach(person.tabId, { state: () => {}, event: () => {}, jingle: (_room, iq) => routed.push(iq) });
  const room = await joinedBy(person, roomName, { autoJoinCall });
  if (autoJoinCall) await waitFor(person, 'in the call', (state) => state.calls[room.address]?.joined);
  return { person, room, routed, received };
}

describe('Jingle routing: a request for a call this session is in waits for the tab that runs it; out of the call it is declined (PROTOCOL.md: a responder in the call accepts, one not in the call terminates)', () => {
  /** A fake clock whose liveness check waits longer than any advance here (fake time jumps past the server's answers). */
  const onManualClock = () => ({ clock: new ManualClock(), liveness: { ...LIVENESS, quietMs: 10 * UNCLAIMED_CALL_HOLD.timeoutMs } });

  function offer(from: CallTab<Clock>, to: CallTab<Clock>, sid: string): Promise<Stanzas.IQ | undefined> {
    return from.person.jingle.send({ to: to.room.selfAddress, type: 'set', jingle: { action: 'session-initiate', sid, initiator: from.room.selfAddress, contents: [] } });
  }

  const declinesSent = (who: CallTab<Clock>) => who.person.sent.filter((xml) => xml.includes('action="session-terminate"') && xml.includes('<decline'));
  // Servers quote attributes either way.
  const arrived = (who: CallTab<Clock>, sid: string) => until(() => who.received.some((xml) => new RegExp(`sid=["']${sid}["']`).test(xml)), `the offer ${sid} at the responder`);

  /** Alice in the room's call, running it in her tab. */
  async function aliceRunningThe(roomName: string): Promise<CallTab<Clock>> {
    const alice = await tabIn(openSession({ server: server() }), roomName);
    await alice.person.jingle.claimCall(alice.person.tabId, alice.room.address);
    return alice;
  }

  /** Alice and Bob each running the room's call in their tab, Alice seeing Bob there. */
  async function aliceAndBobRunningThe(roomName: string): Promise<{ alice: CallTab<Clock>; bob: CallTab<Clock> }> {
    const alice = await aliceRunningThe(roomName);
    const bob = await tabIn(openSession({ server: server() }), roomName);
    await bob.person.jingle.claimCall(bob.person.tabId, bob.room.address);
    await seen(alice.person, bob.room.selfAddress, 'Alice sees Bob in the call', (p) => p.joinedCall);
    return { alice, bob };
  }

  /** The responder's tab acknowledges the request of `action` for `sid` once the session has routed it there. */
  async function answerAt(who: CallTab<Clock>, sid: string, action = 'session-initiate'): Promise<void> {
    const request = () => who.routed.find((iq) => iq.jingle.sid === sid && iq.jingle.action === action);
    await until(() => request() !== undefined, `${action} ${sid} at its responder`);
    await who.person.jingle.send({ type: 'result', id: request()!.id, to: request()!.from });
  }

  it('an offer that comes after the room has you in the call but before your tab claims it reaches that tab once it does; nothing declines it', async () => {
    const alice = await aliceRunningThe('jingle-unclaimed');
    const bob = await tabIn(openSession({ server: server() }), 'jingle-unclaimed');
    await seen(alice.person, bob.room.selfAddress, 'Alice sees Bob in the call', (p) => p.joinedCall);

    const answer = offer(alice, bob, 'held-offer');
    await arrived(bob, 'held-offer');
    await flushed(bob.person);
    expect(bob.routed).toEqual([]);
    expect(declinesSent(bob)).toEqual([]);

    await bob.person.jingle.claimCall(bob.person.tabId, bob.room.address);
    expect(bob.routed.map((iq) => [iq.jingle.action, iq.jingle.sid])).toEqual([['session-initiate', 'held-offer']]);
    const [held] = bob.routed;
    await bob.person.jingle.send({ type: 'result', id: held!.id, to: held!.from });
    expect((await withTimeout(answer, WAIT_MS, 'the answer'))?.type).toBe('result');
    await flushed(bob.person);
    expect(declinesSent(bob)).toEqual([]);
  });

  it('an offer no tab claims within the hold is declined then, as by a session not in the call', async () => {
    const alice = await aliceRunningThe('jingle-never-claimed');
    const bob = await tabIn(openSession({ server: server(), ...onManualClock() }), 'jingle-never-claimed');
    await seen(alice.person, bob.room.selfAddress, 'Alice sees Bob in the call', (p) => p.joinedCall);

    const answer = offer(alice, bob, 'unclaimed-offer');
    await arrived(bob, 'unclaimed-offer');
    await flushed(bob.person);
    expect(declinesSent(bob)).toEqual([]);

    await bob.person.clock.advance(UNCLAIMED_CALL_HOLD.timeoutMs - 1);
    await flushed(bob.person);
    expect(declinesSent(bob)).toEqual([]);
    await bob.person.clock.advance(1);
    expect((await withTimeout(answer, WAIT_MS, 'the answer'))?.type).toBe('result');
    await until(() => alice.routed.some((iq) => iq.jingle.action === 'session-terminate' && iq.jingle.sid === 'unclaimed-offer'), 'the decline at Alice');
    expect(alice.routed.find((iq) => iq.jingle.action === 'session-terminate')?.jingle.reason?.condition).toBe('decline');
    expect(bob.routed).toEqual([]);
  });

  it('a call tab that goes without ending its sessions (reloaded, crashed): the session ends each with its peer, so the peer offers anew at once rather than after 5 s of silent ICE; ended ones are not ended again', async () => {
    const { alice, bob } = await aliceAndBobRunningThe('jingle-tab-gone');
    await seen(bob.person, alice.room.selfAddress, 'Bob sees Alice in the call', (p) => p.joinedCall);
    // Alice's tab offers to Bob and Bob's to Alice (one-way sessions each); a third one Alice's tab ends itself.
    const sent = offer(alice, bob, 'alice-to-bob');
    await answerAt(bob, 'alice-to-bob');
    await sent;
    const received = offer(bob, alice, 'bob-to-alice');
    await answerAt(alice, 'bob-to-alice');
    await received;
    const ended = offer(alice, bob, 'ended-by-alice');
    await answerAt(bob, 'ended-by-alice');
    await ended;
    const terminate = alice.person.jingle.send({ to: bob.room.selfAddress, type: 'set', jingle: { action: 'session-terminate', sid: 'ended-by-alice', reason: { condition: 'success' } } });
    await answerAt(bob, 'ended-by-alice', 'session-terminate');
    await terminate;
    const terminatesAtBob = () => bob.routed.filter((iq) => iq.jingle.action === 'session-terminate').map((iq) => iq.jingle.sid);

    alice.person.tabGoes(alice.person.tabId);
    await until(() => terminatesAtBob().length === 3, 'the sessions Alice’s tab left, ended at Bob');
    await flushed(bob.person);
    expect(terminatesAtBob().sort()).toEqual(['alice-to-bob', 'bob-to-alice', 'ended-by-alice']);
    for (const iq of bob.routed.filter((request) => request.jingle.action === 'session-terminate')) {
      expect(iq.from).toBe(alice.room.selfAddress);
      expect(iq.jingle.reason?.condition).toBe('success');
    }
  });

  /** Alice, on fake time, runs the room's call in her tab; Bob, in the room and its call, sees her there. */
  async function aliceOnFakeTimeRunningThe(roomName: string): Promise<{ alice: CallTab<ManualClock>; bob: CallTab<Clock> }> {
    const alice = await tabIn(openSession({ server: server(), ...onManualClock() }), roomName);
    await alice.person.jingle.claimCall(alice.person.tabId, alice.room.address);
    const bob = await tabIn(openSession({ server: server() }), roomName);
    await seen(bob.person, alice.room.selfAddress, 'Bob sees Alice in the call', (p) => p.joinedCall);
    return { alice, bob };
  }

  const inCall = (who: CallTab<Clock>) => who.person.session.store.state.calls[who.room.address]?.joined;

  it('a call tab that goes while another tab keeps the room (a pop-out chat) and no tab takes the call over within the hold: the call is left, and the room hears it', async () => {
    const { alice, bob } = await aliceOnFakeTimeRunningThe('jingle-call-tab-gone');

    alice.person.tabGoes(alice.person.tabId);
    await flushed(alice.person);
    await alice.person.clock.advance(UNCLAIMED_CALL_HOLD.timeoutMs - 1);
    await flushed(alice.person);
    expect(inCall(alice)).toBe(true);
    await alice.person.clock.advance(1);
    await seen(bob.person, alice.room.selfAddress, 'Bob sees Alice leave the call', (p) => !p.joinedCall);
    expect(inCall(alice)).toBe(false);
    // Only the call is left: the room stays joined for the tab that keeps it.
    expect(alice.person.session.store.state.rooms[alice.room.id]?.joined).toBe(true);
  });

  /** Alice, on fake time, has the room in a pop-out chat and joined its call from her room tab, which has not claimed it; Bob sees her in the call. */
  async function aliceJoinedFromARoomTabBesideAPopout(roomName: string) {
    const alice = openSession({ server: server(), ...onManualClock() });
    await connected(alice);
    const popout = `${alice.tabId}-popout`;
    alice.tabs.attach(popout, { state: () => {}, event: () => {}, jingle: () => {} });
    await alice.tabs.openRoom(popout, roomName);
    const roomId = await alice.tabs.openRoom(alice.tabId, roomName, { autoJoinCall: true });
    const room = await joinedRoom(alice, roomId);
    await waitFor(alice, 'in the call', (state) => state.calls[room.address]?.joined);
    const bob = await tabIn(openSession({ server: server() }), roomName);
    await seen(bob.person, room.selfAddress, 'Bob sees Alice in the call', (p) => p.joinedCall);
    /** Nobody claims the call for the whole hold: only then is it left, and the room stays joined for the pop-out. */
    const leftOnceTheHoldIsOver = async () => {
      await flushed(alice);
      await alice.clock.advance(UNCLAIMED_CALL_HOLD.timeoutMs - 1);
      await flushed(alice);
      expect(alice.session.store.state.calls[room.address]?.joined).toBe(true);
      await alice.clock.advance(1);
      await seen(bob.person, room.selfAddress, 'Bob sees Alice leave the call', (p) => !p.joinedCall);
      expect(alice.session.store.state.rooms[roomId]?.joined).toBe(true);
    };
    return { alice, roomId, room, leftOnceTheHoldIsOver };
  }

  it('a tab that joined the call and went before claiming it, while another tab keeps the room (a pop-out chat): the call is left once nobody took it within the hold', async () => {
    const { alice, leftOnceTheHoldIsOver } = await aliceJoinedFromARoomTabBesideAPopout('jingle-joined-unclaimed');
    alice.tabGoes(alice.tabId);
    await leftOnceTheHoldIsOver();
  });

  it('a tab that joined the call and closed the room before claiming it (its view went home while the call’s code loaded), still open, while a pop-out keeps the room: the call is left once nobody took it within the hold', async () => {
    const { alice, roomId, leftOnceTheHoldIsOver } = await aliceJoinedFromARoomTabBesideAPopout('jingle-joined-closed-unclaimed');
    await alice.tabs.closeRoom(alice.tabId, roomId);
    await leftOnceTheHoldIsOver();
  });

  it('a tab that lets the call go without leaving it (its view went with the call claimed ahead), still open, while a pop-out keeps the room: the call is left once nobody claimed it within the hold', async () => {
    const { alice, room, leftOnceTheHoldIsOver } = await aliceJoinedFromARoomTabBesideAPopout('jingle-joined-released');
    await alice.jingle.claimCall(alice.tabId, room.address);
    await alice.jingle.releaseCall(alice.tabId, room.address);
    await leftOnceTheHoldIsOver();
  });

  it('a tab that lets the call go without leaving it and another tab claims it within the hold (a handover): the call stays', async () => {
    const { alice, room } = await aliceJoinedFromARoomTabBesideAPopout('jingle-released-handed-over');
    const otherTab = `${alice.tabId}-other`;
    alice.tabs.attach(otherTab, { state: () => {}, event: () => {}, jingle: () => {} });
    await alice.jingle.claimCall(alice.tabId, room.address);
    await alice.jingle.releaseCall(alice.tabId, room.address);
    await alice.jingle.claimCall(otherTab, room.address);
    await alice.clock.advance(UNCLAIMED_CALL_HOLD.timeoutMs);
    await flushed(alice);
    expect(alice.session.store.state.calls[room.address]?.joined).toBe(true);
  });

  it('a call tab that goes and another tab of the room takes the call over within the hold (a handover): the call stays', async () => {
    const { alice, bob } = await aliceOnFakeTimeRunningThe('jingle-call-handed-over');
    const otherTab = `${alice.person.tabId}-other`;
    alice.person.tabs.attach(otherTab, { state: () => {}, event: () => {}, jingle: () => {} });

    alice.person.tabGoes(alice.person.tabId);
    await flushed(alice.person);
    await alice.person.jingle.claimCall(otherTab, alice.room.address);
    await alice.person.clock.advance(UNCLAIMED_CALL_HOLD.timeoutMs);
    await flushed(alice.person);
    expect(inCall(alice)).toBe(true);
    await flushed(bob.person);
    expect(peer(bob.person, alice.room.selfAddress)?.joinedCall).toBe(true);
  });

  it('a call tab that goes after the other person left the room: nothing is sent for their session', async () => {
    const { alice, bob } = await aliceAndBobRunningThe('jingle-tab-gone-left');
    const answer = offer(alice, bob, 'to-bob-who-leaves');
    await answerAt(bob, 'to-bob-who-leaves');
    await answer;

    await bob.person.rooms.leaveRoom(bob.room.id);
    await until(() => alice.person.session.store.get('peers', bob.room.selfAddress) === undefined, 'Bob gone from Alice’s room');
    const sentBefore = alice.person.sent.length;
    alice.person.tabGoes(alice.person.tabId);
    await flushed(alice.person);
    expect(alice.person.sent.slice(sentBefore).filter((xml) => xml.includes('session-terminate'))).toEqual([]);
  });

  it('hanging up: a request that reaches the call’s tab after it let the call go (its release still on the way) comes back to the session, which answers it as one no tab runs; nothing is left unanswered', async () => {
    const { alice, bob } = await aliceAndBobRunningThe('jingle-returned-after-hang-up');
    const sent = offer(alice, bob, 'alice-to-bob-before-hang-up');
    await answerAt(bob, 'alice-to-bob-before-hang-up');
    await sent;

    // Bob hangs up: the room hears it before his tab's release reaches the session.
    await bob.person.rooms.leaveCall(bob.room.address);
    await seen(alice.person, bob.room.selfAddress, 'Alice sees Bob leave the call', (p) => !p.joinedCall);
    const terminate = alice.person.jingle.send({ to: bob.room.selfAddress, type: 'set', jingle: { action: 'session-terminate', sid: 'alice-to-bob-before-hang-up', reason: { condition: 'success' } } });
    await until(() => bob.routed.some((iq) => iq.jingle.action === 'session-terminate'), 'the terminate at Bob’s tab');
    const crossed = bob.routed.find((iq) => iq.jingle.action === 'session-terminate')!;
    await bob.person.jingle.returnRequest(bob.person.tabId, bob.room.address, crossed);
    expect((await withTimeout(terminate, WAIT_MS, 'the answer'))?.type).toBe('result');

    // The tab no longer runs the call: what comes next is answered by the session without it.
    const routedBefore = bob.routed.length;
    expect((await withTimeout(offer(alice, bob, 'after-hang-up'), WAIT_MS, 'the answer'))?.type).toBe('result');
    await until(() => declinesSent(bob).some((xml) => xml.includes('after-hang-up')), 'the decline');
    expect(bob.routed.length).toBe(routedBefore);
  });

  it('handing the call over: an offer that reaches the tab letting the call go comes back and waits for the tab that claims the call next', async () => {
    const { alice, bob } = await aliceAndBobRunningThe('jingle-returned-in-handover');
    const nextTab: JingleIq[] = [];
    bob.person.tabs.attach(`${bob.person.tabId}-next`, { state: () => {}, event: () => {}, jingle: (_room, iq) => nextTab.push(iq) });

    const answer = offer(alice, bob, 'offer-in-handover');
    await until(() => bob.routed.some((iq) => iq.jingle.sid === 'offer-in-handover'), 'the offer at the tab letting go');
    await bob.person.jingle.returnRequest(bob.person.tabId, bob.room.address, bob.routed.find((iq) => iq.jingle.sid === 'offer-in-handover')!);
    await flushed(bob.person);
    expect(declinesSent(bob)).toEqual([]);
    expect(nextTab).toEqual([]);

    await bob.person.jingle.claimCall(`${bob.person.tabId}-next`, bob.room.address);
    expect(nextTab.map((iq) => [iq.jingle.action, iq.jingle.sid])).toEqual([['session-initiate', 'offer-in-handover']]);
    await bob.person.jingle.send({ type: 'result', id: nextTab[0]!.id, to: nextTab[0]!.from });
    expect((await withTimeout(answer, WAIT_MS, 'the answer'))?.type).toBe('result');
  });

  it('an offer to a session that is in the room but not in its call is declined at once', async () => {
    const alice = await aliceRunningThe('jingle-not-in-call');
    const bob = await tabIn(openSession({ server: server() }), 'jingle-not-in-call', false);
    await seen(alice.person, bob.room.selfAddress, 'Alice sees Bob', () => true);

    const answer = offer(alice, bob, 'refused-offer');
    expect((await withTimeout(answer, WAIT_MS, 'the answer'))?.type).toBe('result');
    await until(() => declinesSent(bob).length === 1, 'the decline');
    expect(bob.routed).toEqual([]);
  });
});

describe(`Incoming Jingle sessions per sender: at most LIMITS.jingleSessionsPerSender (${LIMITS.jingleSessionsPerSender}) at once reach the call’s tab; the next session-initiate is refused with resource-constraint, and a session ended makes room for its replacement`, () => {
  /** Answers, as the call's tab does, each request routed to it that it has not answered yet. */
  async function answerRouted(tab: CallTab<Clock>, answered: Set<JingleIq>): Promise<void> {
    const unanswered = tab.routed.filter((iq) => !answered.has(iq));
    for (const iq of unanswered) answered.add(iq);
    await Promise.all(unanswered.map((iq) => tab.person.jingle.send({ type: 'result', id: iq.id, to: iq.from })));
  }

  it('a plain XMPP client in the room flooding Bob with session-initiates: the first ones reach his tab, the next is answered wait / resource-constraint; after it ends one, its next is delivered', async () => {
    const limit = LIMITS.jingleSessionsPerSender;
    const bob = await tabIn(openSession({ server: server() }), 'jingle-flood');
    await bob.person.jingle.claimCall(bob.person.tabId, bob.room.address);
    const config = await providerConfig(server());
    const mallory = plainClient(clientFor(config));
    await login(mallory);
    await withTimeout(mallory.joinRoom(bob.room.address, config.id), WAIT_MS, 'Mallory joining');
    const malloryAddress = `${bob.room.address}/${config.id}`;
    const request = (action: Stanzas.Jingle['action'], sid: string) =>
      mallory.sendIQ({ to: bob.room.selfAddress, type: 'set', jingle: { action, sid, initiator: malloryAddress, contents: [] } });
    const answered = new Set<JingleIq>();

    const flood = Array.from({ length: limit + 1 }, (_, index) => request('session-initiate', `flood-${index + 1}`));
    await until(() => bob.routed.length >= limit, `${limit} session-initiates at Bob’s tab`);
    await answerRouted(bob, answered);
    const outcomes = await withTimeout(Promise.allSettled(flood), WAIT_MS, 'the answers to the flood');
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(limit);
    expect(outcomes.at(-1)).toMatchObject({ status: 'rejected', reason: { type: 'error', error: { type: 'wait', condition: 'resource-constraint' } } });
    expect(bob.routed.map((iq) => iq.jingle.sid)).toEqual(Array.from({ length: limit }, (_, index) => `flood-${index + 1}`));

    const ending = request('session-terminate', 'flood-1');
    await until(() => bob.routed.length === limit + 1, 'the session-terminate at Bob’s tab');
    await answerRouted(bob, answered);
    await withTimeout(ending, WAIT_MS, 'the answer to the session-terminate');
    const replacing = request('session-initiate', 'replacement');
    await until(() => bob.routed.length === limit + 2, 'the replacement at Bob’s tab');
    await answerRouted(bob, answered);
    expect((await withTimeout(replacing, WAIT_MS, 'the answer to the replacement')).type).toBe('result');
    expect(bob.routed.slice(limit).map((iq) => [iq.jingle.action, iq.jingle.sid, iq.from])).toEqual([
      ['session-terminate', 'flood-1', malloryAddress],
      ['session-initiate', 'replacement', malloryAddress],
    ]);
  });
});
