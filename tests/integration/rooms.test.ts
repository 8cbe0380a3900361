// The rooms domain (SPEC §3 Room / Peer / Call record, §4 room, lock and call state, destroyed room,
// §5, §6, §8; PROTOCOL.md "Rooms") driven the way the SharedWorker drives it: sessions made by
// createSession, against a real Prosody behind the real gateway.
import { randomUUID } from 'node:crypto';
import { JXT, type Agent, type AgentConfig } from 'stanza';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import type { ChatMessage, Peer, Room } from '../../src/protocol/entities';
import { RoomNameMissingError, RoomNotJoinedError } from '../../src/protocol/errors';
import type { SessionState } from '../../src/protocol/session-state';
import { NS_TALKY_CORE } from '../../src/protocol/stanzas/namespaces';
import type { Clock } from '../../src/common/clock';
import type { Fetch } from '../../src/shared-worker/ConfigClient';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { fetchThrough, useHeldWebsockets } from '../support/heldWebsocket';
import { ManualClock } from '../support/ManualClock';
import { useParley } from '../support/parley';
import { connected, flushed, joinedBy, joinedRoom, peerNamed, receivedBy, roomInState, setDisplayName, useSessions, WAIT_MS, waitFor, type TestSession } from '../support/sessions';
import { until } from '../support/until';
import { PEER_DEFAULTS } from '../support/peers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const parley = useParley();
/** A second server whose rooms hold at most two occupants. */
const smallRooms = useParley({ maxOccupants: 2 });
const openSession = useSessions();
const holdWebsocket = useHeldWebsockets(parley);

interface PersonOptions {
  server?: typeof parley;
  clock?: Clock;
  fetch?: Fetch;
}

/** A session built as the SharedWorker builds it, with the display name preference set. */
function person(displayName: string, options: PersonOptions = {}): TestSession {
  return openSession({ server: (options.server ?? parley)(), displayName, clock: options.clock, fetch: options.fetch });
}

function roomIn(state: SessionState, roomId: string): Room | undefined {
  return state.rooms[roomId];
}


function peersIn(who: TestSession, roomAddress: string): Peer[] {
  return Object.values(who.session.store.state.peers).filter((peer) => peer.roomAddress === roomAddress);
}

function newRoomName(): string {
  return `Room ${randomUUID().slice(0, 8)}`;
}

/** The distinct `<user rid>`s on the wire in presences from this occupant. */
function ridsSentFor(received: readonly string[], occupant: string): Set<string> {
  const rids = new Set<string>();
  for (const xml of received) {
    const stanza = JXT.parse(xml);
    const rid = stanza.name === 'presence' && stanza.getAttribute('from') === occupant ? stanza.getChild('user', NS_TALKY_CORE)?.getAttribute('rid') : undefined;
    if (rid !== undefined) rids.add(rid);
  }
  return rids;
}

describe('SPEC §4 room state: joining on request, joined on the self-presence (PROTOCOL.md "Rooms")', () => {
  it('keeps a room requested while offline in joining, then joins it once connected', async () => {
    const alice = person('Alice');
    const name = newRoomName();
    const id = await alice.rooms.joinRoom(name);
    expect(id).toMatch(UUID);
    expect(roomIn(alice.session.store.state, id)).toMatchObject({ roomState: 'joining', joined: false, address: undefined, providedName: name });
    await connected(alice);
    const room = await joinedRoom(alice, id);
    const config = alice.session.config!;
    const localpart = name.toLowerCase().replace(' ', '-');
    expect(room).toEqual({
      id,
      address: `${localpart}@${parley().settings.mucDomain}`,
      providedName: name,
      providedPassword: undefined,
      password: undefined,
      passwordRequired: false,
      banned: false,
      roomFull: false,
      roomNotStarted: false,
      roomState: 'joined',
      joined: true,
      joinedAt: expect.any(Number),
      selfAddress: `${localpart}@${parley().settings.mucDomain}/${config.id}`,
      selfAffiliation: 'owner',
      selfRole: 'moderator',
      // mod_muc_parley_user's rid: a UUID per room.
      rid: expect.stringMatching(UUID),
      autoJoinCall: true,
      unreadCount: 0,
      error: undefined,
    });
    // The join presence: MUC <x> without a history request, and the <nick>.
    const join = alice.sent.find((xml) => xml.startsWith('<presence') && xml.includes(`to="${room.selfAddress}"`) && xml.includes('http://jabber.org/protocol/muc"'));
    expect(join).toContain('<nick xmlns="http://jabber.org/protocol/nick">Alice</nick>');
    expect(join).not.toContain('<history');
  });

  it('returns the same room for a name that normalises alike, and joins its call when now asked to', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name, { autoJoinCall: false });
    await joinedBy(bob, name);
    expect(alice.session.store.state.calls[room.address]?.joined ?? false).toBe(false);
    await peerNamed(bob, room.address, 'Alice', (peer) => !peer.joinedCall);

    expect(await alice.rooms.joinRoom(`  ${name.toUpperCase()} `, { autoJoinCall: true })).toBe(room.id);
    expect(Object.keys(alice.session.store.state.rooms)).toEqual([room.id]);
    expect(alice.session.store.state.calls[room.address]).toMatchObject({ joined: true, requestingMedia: 'video' });
    await peerNamed(bob, room.address, 'Alice', (peer) => peer.joinedCall && peer.requestingMedia === 'video');
  });
});

describe('PROTOCOL.md <user rid>: the Room keeps the stable id of the room from its self-presence', () => {
  it('holds what the server sent, the same for two people in the room and another for another room', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const aliceReceived = receivedBy(alice);
    const bobReceived = receivedBy(bob);
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    const otherRoom = await joinedBy(alice, newRoomName());

    expect(room.rid).toMatch(UUID);
    expect(ridsSentFor(aliceReceived, room.selfAddress)).toEqual(new Set([room.rid]));
    expect(ridsSentFor(bobReceived, bobRoom.selfAddress)).toEqual(new Set([room.rid]));
    expect(bobRoom.rid).toBe(room.rid);
    expect(otherRoom.rid).toMatch(UUID);
    expect(ridsSentFor(aliceReceived, otherRoom.selfAddress)).toEqual(new Set([otherRoom.rid]));
    expect(otherRoom.rid).not.toBe(room.rid);
  });
});

describe('SPEC §3 Peer: every occupant presence makes a peer; both sides see each other after the call auto-join', () => {
  it('gives each side the other with display name from <nick>, role, affiliation and call state', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await joinedBy(bob, name);
    const aliceConfig = alice.session.config!;
    const bobConfig = bob.session.config!;

    const bobSeenByAlice = await peerNamed(alice, room.address, 'Bob', (peer) => peer.joinedCall);
    expect(bobSeenByAlice).toEqual({
      address: `${room.address}/${bobConfig.id}`,
      // Alice is a moderator: whois=moderators shows her Bob's real address.
      userAddress: `${bobConfig.userId}/${bobConfig.id}`,
      id: bobConfig.id,
      displayName: 'Bob',
      customerData: {},
      role: 'participant',
      affiliation: 'none',
      roomAddress: room.address,
      joinedCall: true,
      joinedCallAt: expect.any(Number),
      joinedRoomAt: expect.any(Number),
      requestingMedia: 'video',
      ...PEER_DEFAULTS,
      isSelf: false,
      // Parley's presence says what its app can do (XEP-0115).
      readsPrivateMessages: true,
    });
    const aliceSeenByBob = await peerNamed(bob, room.address, 'Alice', (peer) => peer.joinedCall);
    expect(aliceSeenByBob).toMatchObject({ id: aliceConfig.id, role: 'moderator', affiliation: 'owner', userAddress: undefined, requestingMedia: 'video', isSelf: false });
    expect(peersIn(bob, room.address).find((peer) => peer.isSelf)).toMatchObject({ displayName: 'Bob', address: `${room.address}/${bobConfig.id}` });

    expect(bob.session.store.state.calls[room.address]).toEqual({
      roomAddress: room.address,
      joined: true,
      joinedAt: expect.any(Number),
      requestingMedia: 'video',
      allowedMedia: 'video',
      allowedAudioRoles: ['moderator', 'participant'],
      allowedVideoRoles: ['moderator', 'participant'],
      recordable: false,
      recordingState: 'offline',
      state: 'active',
      ownMedia: { microphoneMuted: false, cameraOff: false, sharingScreen: false, cameraStopped: false, microphoneStopped: false, cameraTrouble: '', microphoneTrouble: '' },
      heldPeers: [],
    });
  });

  it('removes a peer on its unavailable presence', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    await peerNamed(alice, room.address, 'Bob');
    await bob.rooms.leaveRoom(bobRoom.id);
    await waitFor(alice, 'Bob gone', (state) => !Object.values(state.peers).some((peer) => peer.displayName === 'Bob'));
  });
});

describe('SPEC §4 call: join, leave and desired media show in the room presence', () => {
  it('tells the other side about leaving the call, rejoining with audio and changing media', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await joinedBy(bob, name);
    await peerNamed(bob, room.address, 'Alice', (peer) => peer.joinedCall);

    await alice.rooms.leaveCall(room.address);
    expect(alice.session.store.state.calls[room.address]).toMatchObject({ joined: false, joinedAt: undefined, requestingMedia: 'none' });
    await peerNamed(bob, room.address, 'Alice', (peer) => !peer.joinedCall && peer.requestingMedia === 'none' && peer.joinedCallAt === undefined);

    await alice.rooms.joinCall(room.address, 'audio');
    expect(alice.session.store.state.calls[room.address]).toMatchObject({ joined: true, joinedAt: expect.any(Number), requestingMedia: 'audio' });
    await peerNamed(bob, room.address, 'Alice', (peer) => peer.joinedCall && peer.requestingMedia === 'audio');

    await alice.rooms.setRequestingMedia(room.address, 'none');
    await peerNamed(bob, room.address, 'Alice', (peer) => peer.joinedCall && peer.requestingMedia === 'none');
  });

  it('follows the display name preference with a new <nick>', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await joinedBy(bob, name);
    await peerNamed(bob, room.address, 'Alice');
    await setDisplayName(alice, 'Alice Liddell');
    await peerNamed(bob, room.address, 'Alice Liddell', (peer) => peer.joinedCall);
  });
});

describe('SPEC §4 room state: password-required on not-authorized, then the right password joins', () => {
  it('asks a newcomer of a locked room for the password, refuses a wrong one and joins with the right one', async () => {
    const alice = person('Alice');
    const carol = person('Carol');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await alice.rooms.lockRoom(room.address, 'open sesame');
    expect(roomIn(alice.session.store.state, room.id)).toMatchObject({ providedPassword: 'open sesame', password: 'open sesame', passwordRequired: true });

    await connected(carol);
    const carolRoomId = await carol.rooms.joinRoom(name);
    expect(await roomInState(carol, carolRoomId, 'password-required')).toMatchObject({ passwordRequired: true, joined: false });

    await carol.rooms.submitRoomPassword(carolRoomId, 'wrong');
    await roomInState(carol, carolRoomId, 'joining');
    await roomInState(carol, carolRoomId, 'password-required');

    await carol.rooms.submitRoomPassword(carolRoomId, 'open sesame');
    const joined = await joinedRoom(carol, carolRoomId);
    expect(joined.providedPassword).toBe('open sesame');
    // The lock check after joining: a non-owner learns from disco#info that the room is locked.
    await waitFor(carol, 'passwordRequired from disco#info', (state) => roomIn(state, carolRoomId)?.passwordRequired);
    await peerNamed(alice, room.address, 'Carol');
  });
});

describe('SPEC §4 lock state: only an owner who has joined may lock; others are silently ignored', () => {
  it('sends nothing for a non-owner lock, and the room stays open to a newcomer', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const carol = person('Carol');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    expect(bobRoom.selfAffiliation).toBe('none');

    const sentBefore = bob.sent.length;
    await bob.rooms.lockRoom(bobRoom.address, 'secret');
    await bob.rooms.unlockRoom(bobRoom.address);
    expect(bob.sent.slice(sentBefore).filter((xml) => xml.includes('muc#owner'))).toEqual([]);
    expect(roomIn(bob.session.store.state, bobRoom.id)).toEqual(bobRoom);

    const carolRoom = await joinedBy(carol, name);
    expect(carolRoom.passwordRequired).toBe(false);
    await peerNamed(alice, room.address, 'Carol');
  });

  it('has the owner lock (a newcomer then gets password-required) and unlock (the newcomer then joins)', async () => {
    const alice = person('Alice');
    const dave = person('Dave');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await alice.rooms.lockRoom(room.address, 'p4ss');
    expect(await alice.rooms.getRoomPassword(room.address)).toBe('p4ss');
    await connected(dave);
    const daveRoomId = await dave.rooms.joinRoom(name);
    await roomInState(dave, daveRoomId, 'password-required');

    await alice.rooms.unlockRoom(room.address);
    expect(roomIn(alice.session.store.state, room.id)).toMatchObject({ password: undefined, passwordRequired: false });
    expect(await alice.rooms.getRoomPassword(room.address)).toBeUndefined();
    // Dave asks again: the unlocked room lets him in without a password.
    await dave.rooms.leaveRoom(daveRoomId);
    await joinedRoom(dave, await dave.rooms.joinRoom(name));
  });

  it('rechecks on status 104: a non-owner sees passwordRequired follow the owner lock and unlock', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    expect(bobRoom.passwordRequired).toBe(false);

    await alice.rooms.lockRoom(room.address, 'hush');
    await waitFor(bob, 'passwordRequired after 104', (state) => roomIn(state, bobRoom.id)?.passwordRequired);
    expect(roomIn(bob.session.store.state, bobRoom.id)?.password).toBeUndefined();
    await alice.rooms.unlockRoom(room.address);
    await waitFor(bob, 'passwordRequired cleared after 104', (state) => roomIn(state, bobRoom.id)?.passwordRequired === false);
  });
});

describe('SPEC §6 kick: the peer\'s real address becomes outcast; SPEC §4 banned', () => {
  it('bans the kicked person: their room is banned with its peers cleared, and the others no longer see them', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    const bobPeer = await peerNamed(alice, room.address, 'Bob');
    expect(peersIn(bob, room.address).length).toBe(2);

    await alice.rooms.kickPeer(bobPeer.address);
    const banned = await roomInState(bob, bobRoom.id, 'banned');
    expect(banned).toMatchObject({ banned: true, joined: false, address: room.address });
    expect(peersIn(bob, room.address)).toEqual([]);
    expect(bob.session.store.state.calls[room.address]).toMatchObject({ joined: false });
    await waitFor(alice, 'Bob removed', (state) => !state.peers[bobPeer.address]);
  });
});

describe('SPEC §8 join failures: service-unavailable means room full', () => {
  it('fails the third joiner of a two-person room with roomFull', async () => {
    const [alice, bob, carol] = ['Alice', 'Bob', 'Carol'].map((displayName) => person(displayName, { server: smallRooms }));
    const name = newRoomName();
    await joinedBy(alice!, name);
    await joinedBy(bob!, name);
    await connected(carol!);
    const carolRoomId = await carol!.rooms.joinRoom(name);
    expect(await roomInState(carol!, carolRoomId, 'failed')).toMatchObject({ roomFull: true, joined: false, banned: false, passwordRequired: false });
  });
});

describe('A rejoin refused as full (someone took the seat while we were away) leaves the call, and is asked again by itself until there is room (SPEC §4 failed; issue 13: it comes back by itself)', () => {
  it('Bob’s call record is left when his rejoin is refused as full, and he is back in the room once Carol leaves, with nothing asked of him', async () => {
    const [alice, bob, carol] = ['Alice', 'Bob', 'Carol'].map((displayName) => person(displayName, { server: smallRooms }));
    const name = newRoomName();
    await joinedBy(alice!, name);
    const bobRoom = await joinedBy(bob!, name);
    await waitFor(bob!, 'Bob in the call', (state) => state.calls[bobRoom.address]?.joined);

    bob!.session.disconnect();
    const carolRoom = await joinedBy(carol!, name);
    await bob!.session.connect();
    expect(await roomInState(bob!, bobRoom.id, 'failed')).toMatchObject({ roomFull: true, joined: false });
    expect(bob!.session.store.state.calls[bobRoom.address]).toMatchObject({ joined: false });

    await carol!.rooms.leaveRoom(carolRoom.id);
    expect(await joinedRoom(bob!, bobRoom.id)).toMatchObject({ roomState: 'joined', roomFull: false });
  });
});

describe('SPEC §4 destroyed room: the alternate venue is joined with its password', () => {
  it('moves the other occupant (and the owner) into the alternate room, which the password then guards, and into its call as they were', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const carol = person('Carol');
    const name = newRoomName();
    const alternateName = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    await peerNamed(bob, room.address, 'Alice');
    await waitFor(bob, 'Bob in the call', (state) => state.calls[bobRoom.address]?.joined);
    await bob.calls.setOwnMedia(room.address, { microphoneMuted: true, cameraOff: true });
    const alternate = `${alternateName.toLowerCase().replace(' ', '-')}@${parley().settings.mucDomain}`;

    await alice.rooms.destroyRoom(room.address, { roomAddress: alternate, password: 'moved', reason: 'moving' });
    const moved = await waitFor(bob, 'Bob in the alternate room', (state) => {
      const current = roomIn(state, bobRoom.id);
      return current?.address === alternate && current.roomState === 'joined' ? current : undefined;
    });
    expect(moved).toMatchObject({ providedPassword: 'moved', autoJoinCall: true, joined: true });
    expect(peersIn(bob, room.address)).toEqual([]);
    expect(bob.session.store.state.calls[room.address]).toBeUndefined();
    expect(bob.session.store.state.calls[alternate]).toMatchObject({ joined: true, ownMedia: { microphoneMuted: true, cameraOff: true } });
    await waitFor(alice, 'Alice in the alternate room', (state) => roomIn(state, room.id)?.address === alternate && roomIn(state, room.id)?.roomState === 'joined');
    await peerNamed(bob, alternate, 'Alice', (peer) => peer.joinedCall);
    expect((await parley().xmpp.stats()).rooms[room.address]).toBeUndefined();

    // The destroy's password came along: the alternate room was made with it.
    await connected(carol);
    const carolRoomId = await carol.rooms.joinRoom(alternateName);
    await roomInState(carol, carolRoomId, 'password-required');
  });
});

describe('SPEC §4 leaving removes the room, its peers and its call record', () => {
  it('sends unavailable and removes the records, keeping chat messages', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    await peerNamed(bob, room.address, 'Alice');
    const message: ChatMessage = {
      id: 'm1', stanzaId: 'm1', body: 'hello', direction: 'incoming', displayName: 'Alice', senderAddress: `${room.address}/x`,
      roomAddress: room.address, time: 1, editedTime: undefined, replace: undefined, acked: true, customerData: undefined,
    };
    bob.session.store.upsert('messages', message.id, message);

    await bob.rooms.leaveRoom(bobRoom.id);
    expect(bob.session.store.state.rooms).toEqual({});
    expect(peersIn(bob, room.address)).toEqual([]);
    expect(bob.session.store.state.calls).toEqual({});
    expect(bob.session.store.state.messages).toEqual({ m1: message });
    await waitFor(alice, 'Bob gone', (state) => !Object.values(state.peers).some((peer) => peer.displayName === 'Bob'));
  });

  it('held by several tabs: closed in one, the room stays for the others; left in one ("Leave"), it goes for all of them', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await connected(bob);
    const popout = `${bob.tabId}-popout`;
    bob.tabs.attach(popout, { state: () => {}, event: () => {}, jingle: () => {} });
    const roomId = await bob.tabs.openRoom(bob.tabId, name);
    expect(await bob.tabs.openRoom(popout, name)).toBe(roomId);
    await joinedRoom(bob, roomId);
    await peerNamed(alice, room.address, 'Bob');

    await bob.tabs.closeRoom(popout, roomId);
    // Anything the close sent has reached Alice once both have heard the server answer a ping after it.
    await flushed(bob);
    await flushed(alice);
    expect(bob.session.store.state.rooms[roomId]?.roomState).toBe('joined');
    expect(peersIn(alice, room.address).map((peer) => peer.displayName)).toContain('Bob');

    await bob.tabs.openRoom(popout, name);
    await bob.tabs.leaveRoom(bob.tabId, roomId);
    expect(bob.session.store.state.rooms).toEqual({});
    await waitFor(alice, 'Bob gone', (state) => !Object.values(state.peers).some((peer) => peer.displayName === 'Bob'));
  });

  it('joined again at once (Leave, then Back), the room’s answer to the leave coming after the new join presence does not end the new join', async () => {
    const held = await holdWebsocket();
    held.release();
    const bob = openSession({ server: parley(), displayName: 'Bob', fetch: fetchThrough(held) });
    const name = newRoomName();
    const first = await joinedBy(bob, name);
    // The room's answers wait, as on a slow network: the new join goes out before the leave's echo arrives.
    held.holdIncoming();
    const from = bob.sent.length;
    await bob.rooms.leaveRoom(first.id);
    const againId = await bob.rooms.joinRoom(name);
    const joinPresenceSent = () => bob.sent.slice(from).some((xml) => xml.startsWith('<presence') && xml.includes('http://jabber.org/protocol/muc"'));
    await vi.waitFor(() => expect(joinPresenceSent()).toBe(true), { timeout: WAIT_MS });
    // The leave's answer (our unavailable self-presence) is among what waits.
    await vi.waitFor(() => expect(held.heldText()).toMatch(/type=["']unavailable["']/), { timeout: WAIT_MS });
    const states: string[] = [];
    bob.session.store.subscribe(() => states.push(String(bob.session.store.state.rooms[againId]?.roomState)));
    held.releaseIncoming();

    const again = await joinedRoom(bob, againId);
    // Bob's own presence with his call, sent before he left, is the first of what waited: not the new join's answer.
    await bob.session.client?.ping();
    expect(states.filter((state, at) => state !== states[at - 1])).toEqual(['joining', 'joined']);
    expect(again.address).toBe(first.address);
    expect(bob.session.store.state.rooms[againId]?.roomState).toBe('joined');
  });
});

describe('SPEC §5 validation: room name required; room config reads need a joined room', () => {
  it("rejects an empty name with 'Room name not provided.' (ESWRTC_004, logged)", async () => {
    const alice = person('Alice');
    for (const name of ['', '   ']) {
      const attempt = alice.rooms.joinRoom(name);
      await expect(attempt).rejects.toThrow(RoomNameMissingError);
      await expect(attempt).rejects.toMatchObject({ message: 'Room name not provided.', code: 'ESWRTC_004' });
    }
    expect(alice.logs.filter((line) => line === 'ESWRTC_004: Room name not provided.')).toHaveLength(2);
    expect(alice.session.store.state.rooms).toEqual({});
  });

  it("answers getRoomPassword with 'Room not joined' unless joined, and undefined for a non-owner", async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    await connected(alice);
    const nowhere = `nowhere@${parley().settings.mucDomain}`;
    await expect(alice.rooms.getRoomPassword(nowhere)).rejects.toThrow(RoomNotJoinedError);
    await expect(alice.rooms.getRoomPassword(nowhere)).rejects.toThrow('Room not joined');

    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await alice.rooms.lockRoom(room.address, 'x');
    const bobRoom = await joinedBy(bob, name, { password: 'x' });
    expect(await bob.rooms.getRoomPassword(bobRoom.address)).toBeUndefined();
    expect(await alice.rooms.getRoomPassword(room.address)).toBe('x');
  });
});

describe('SPEC §4 connection lost: peers cleared, rooms interrupted, then rejoined after the reconnect', () => {
  it('interrupts on disconnect and rejoins (with the call) on connect; the people back keep when they arrived', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    const firstBobPeer = await peerNamed(alice, room.address, 'Bob', (peer) => peer.joinedCall);
    const aliceBefore = await peerNamed(bob, room.address, 'Alice', (peer) => peer.joinedCall);

    const bobSawBefore = Object.values(bob.session.store.state.peers).map((peer) => peer.address).sort();
    bob.session.disconnect();
    expect(bob.session.store.state.peers).toEqual({});
    const interrupted = roomIn(bob.session.store.state, bobRoom.id);
    expect(interrupted).toMatchObject({ roomState: 'interrupted', joined: false, selfAddress: undefined, rid: undefined });
    // Who was there, Bob included, for his People list until the rejoin.
    expect(interrupted?.peopleBeforeOutage?.map((peer) => peer.address).sort()).toEqual(bobSawBefore);
    expect(bobSawBefore).toEqual([aliceBefore.address, firstBobPeer.address].sort());
    await waitFor(alice, 'Bob gone after the drop', (state) => !state.peers[firstBobPeer.address]);

    await bob.session.connect();
    const rejoined = await joinedRoom(bob, bobRoom.id);
    expect(rejoined.address).toBe(room.address);
    expect(rejoined.peopleBeforeOutage).toBeUndefined();
    // Read again from the new self-presence: Alice kept the room, so it is the same room.
    expect(rejoined.rid).toBe(room.rid);
    // Alice never left: she keeps when she arrived (the order of the lists and tiles) and her last speech.
    const aliceAfter = await peerNamed(bob, room.address, 'Alice', (peer) => peer.joinedCall);
    expect(aliceAfter).toMatchObject({ joinedRoomAt: aliceBefore.joinedRoomAt, joinedCallAt: aliceBefore.joinedCallAt, lastSpokeAt: aliceBefore.lastSpokeAt });
    // The session asks for its config id back (issue 13): the same occupant, and the call comes back with it.
    await peerNamed(alice, room.address, 'Bob', (peer) => peer.joinedCall && peer.address === firstBobPeer.address);
  });

  it('someone of the call whose connection drops is a plain leave to the others, and back at the same address within DEPARTURE_HOLD.graceMs has what their call knew of him: still muted (issue 13, DepartureHold)', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    await joinedBy(bob, name);
    const bobPeer = await peerNamed(alice, room.address, 'Bob', (peer) => peer.joinedCall);
    await alice.calls.reportPeerMedia(bobPeer.address, { muted: true, hasActiveCamera: true });
    await waitFor(alice, 'Bob shown muted', (state) => state.peers[bobPeer.address]?.muted === true);

    bob.session.disconnect();
    await waitFor(alice, 'Bob gone after the drop', (state) => !state.peers[bobPeer.address]);
    // The event line says whose leave it was, and that it was a plain one: the call keeps him meanwhile.
    expect(Object.values(alice.session.store.state.roomEvents).at(-1)).toMatchObject({ kind: 'left', peerAddress: bobPeer.address });

    await bob.session.connect();
    const back = await peerNamed(alice, room.address, 'Bob', (peer) => peer.joinedCall && peer.address === bobPeer.address);
    expect(back).toMatchObject({ muted: true, hasActiveCamera: true, joinedRoomAt: bobPeer.joinedRoomAt });
  });
});

describe('SPEC §8 room config failure: an error state with no room address (ESWRTC_002)', () => {
  it('fails the room after 5 refused room config requests', async () => {
    const clock = new ManualClock();
    // The real gateway refuses a forged credential with 401.
    const forging: Fetch = (input, init) =>
      fetch(input, input.endsWith('/api/room-config') ? { ...init, headers: { authorization: 'Bearer forged.credential.here' } } : init);
    const alice = person('Alice', { clock, fetch: forging });
    const connecting = alice.session.connect();
    await until(() => alice.session.connection.state === 'connected', 'the session to start');
    await connecting;
    const id = await alice.rooms.joinRoom(newRoomName());
    for (let retry = 1; retry < 5; retry += 1) {
      await until(() => clock.pendingDelays().includes(1_000), `room config retry ${retry}`);
      expect(roomIn(alice.session.store.state, id)?.roomState).toBe('joining');
      await clock.advance(1_000);
    }
    await until(() => roomIn(alice.session.store.state, id)?.roomState === 'failed', 'the room to fail');
    expect(roomIn(alice.session.store.state, id)).toMatchObject({ error: 'Could not fetch room config', address: undefined, joined: false });
    expect(alice.logs).toContain('ESWRTC_002: SimpleWebRTC room configuration request failed: 401');
  });
});

describe('Join timeout (DESIGN.md: StanzaJS joinRoom has no timeout): a join the room never answers fails', () => {
  it('fails the room when the join timer runs out', async () => {
    const clock = new ManualClock();
    // The room config points at an address on the users' host where no one answers presence.
    const silent: Fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!input.endsWith('/api/room-config')) return response;
      const { roomAddress } = (await response.json()) as { roomAddress: string };
      return Response.json({ roomAddress: roomAddress.replace(`@${parley().settings.mucDomain}`, `@${parley().settings.xmppDomain}`) });
    };
    const alice = person('Alice', { clock, fetch: silent });
    const connecting = alice.session.connect();
    await until(() => alice.session.connection.state === 'connected', 'the session to start');
    await connecting;
    const id = await alice.rooms.joinRoom(newRoomName());
    await until(() => clock.pendingDelays().includes(LIMITS.roomJoinTimeoutMs), 'the join presence to go out');
    // A round trip to the server: had it answered the join, the answer would be here by now.
    await alice.session.client!.ping();
    expect(roomIn(alice.session.store.state, id)?.roomState).toBe('joining');
    await clock.advance(LIMITS.roomJoinTimeoutMs);
    expect(roomIn(alice.session.store.state, id)).toMatchObject({ roomState: 'failed', joined: false, error: expect.stringMatching(/did not answer the join/) });
  });

  it('a join retried at once after one the room never had is joined: the room’s answer to it is not taken for the abandoned stay’s', async () => {
    const name = newRoomName();
    // Bob is in the room, so it runs: a leave from someone it does not have goes unanswered (a room that does not run refuses it).
    await joinedBy(person('Bob'), name);
    const clock = new ManualClock();
    // Alice's first join presence is lost on its way, so the room never has her: it says nothing to the leave that abandons that join.
    let joinsLost = 0;
    const losingTheFirstJoin = (config: AgentConfig): Agent => {
      const client = createParleyXmppClient(config);
      const send = client.sendPresence.bind(client);
      client.sendPresence = (presence) => {
        if (presence?.muc?.type === 'join' && joinsLost === 0) {
          joinsLost += 1;
          return presence.id ?? '';
        }
        return send(presence);
      };
      return client;
    };
    const alice = openSession({ server: parley(), displayName: 'Alice', clock, createXmppClient: losingTheFirstJoin });
    const connecting = alice.session.connect();
    await until(() => alice.session.connection.state === 'connected', 'the session to start');
    await connecting;
    const id = await alice.rooms.joinRoom(name);
    await until(() => joinsLost === 1, 'the first join presence to be lost');
    await clock.advance(LIMITS.roomJoinTimeoutMs);
    expect(roomIn(alice.session.store.state, id)?.roomState).toBe('failed');

    // Asked again at once (the page's Retry), well within the join timeout of the abandoned join.
    expect(await alice.rooms.joinRoom(name)).toBe(id);
    await joinedRoom(alice, id);
  });
});
