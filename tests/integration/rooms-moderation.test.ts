// Moderation through the rooms domain as the SharedWorker drives it (SPEC §6: a kick bans; only an
// owner may see and lift bans, the room refuses anyone else; SPEC §4 removal and destroyed room), and
// a plain XMPP client asking the same of the room, against a real Prosody behind the real gateway.
import { randomUUID } from 'node:crypto';
import { JID } from 'stanza';
import { describe, expect, it } from 'vitest';
import { ModerationRefusedError, RoomNotJoinedError, ValidationError } from '../../src/protocol/errors';
import { providerConfig, useParley } from '../support/parley';
import { flushed, joinedBy, joinedRoom, peerNamed, roomInState, useSessions, waitFor, type TestSession } from '../support/sessions';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

const parley = useParley();
const openSession = useSessions();
const plainClient = usePlainClients();

function person(displayName: string): TestSession {
  return openSession({ server: parley(), displayName });
}

function newRoomName(): string {
  return `Bans ${randomUUID().slice(0, 8)}`;
}

/** Leaves the room and asks for it again, as a person going home and coming back does. */
async function comeBack(who: TestSession, roomId: string, name: string): Promise<string> {
  await who.rooms.leaveRoom(roomId);
  return who.rooms.joinRoom(name);
}

/** Alice owns a new room and Bob is in it: both rooms, and Bob as Alice sees him. */
async function aliceWithBob() {
  const alice = person('Alice');
  const bob = person('Bob');
  const name = newRoomName();
  const room = await joinedBy(alice, name);
  const bobRoom = await joinedBy(bob, name);
  const bobPeer = await peerNamed(alice, room.address, 'Bob');
  return { alice, bob, name, room, bobRoom, bobPeer };
}

/** Alice owns a room Bob is in; she kicks him. Resolves with both rooms and Bob's bare real address. */
async function aliceKicksBob() {
  const { alice, bob, name, room, bobRoom, bobPeer } = await aliceWithBob();
  const bobAddress = JID.toBare(bobPeer.userAddress ?? '');
  await alice.rooms.kickPeer(bobPeer.address);
  await roomInState(bob, bobRoom.id, 'banned');
  return { alice, bob, name, room, bobRoom, bobAddress };
}

describe('SPEC §6 ban list: the owner sees whom a kick banned, by the name they had, and the list is in the state', () => {
  it('rereads the list after a kick into Room.bans; listBans answers the same', async () => {
    const { alice, room, bobAddress } = await aliceKicksBob();
    const expected = [{ userAddress: bobAddress, displayName: 'Bob', reason: undefined }];
    expect(await waitFor(alice, 'Bob in the ban list', (state) => (state.rooms[room.id]?.bans?.length ? state.rooms[room.id]?.bans : undefined))).toEqual(expected);
    expect(await alice.rooms.listBans(room.address)).toEqual(expected);
  });
});

describe('SPEC §6 lifting a ban: affiliation none; the person may come back', () => {
  it('keeps Bob out while banned, and lets him back in once Alice lifts the ban', async () => {
    const { alice, bob, name, room, bobRoom, bobAddress } = await aliceKicksBob();
    const refused = await comeBack(bob, bobRoom.id, name);
    expect(await roomInState(bob, refused, 'banned')).toMatchObject({ banned: true, joined: false });

    expect(await alice.rooms.liftBan(room.address, bobAddress)).toEqual([]);
    expect(alice.session.store.state.rooms[room.id]?.bans).toEqual([]);
    const back = await comeBack(bob, refused, name);
    expect(await roomInState(bob, back, 'joined')).toMatchObject({ joined: true, banned: false });
    await peerNamed(alice, room.address, 'Bob');
  });
});

describe('SPEC §6 lifting a ban reaches every tab: a room another tab still holds as banned is asked again when the person joins it', () => {
  it('lets Bob back in without leaving first (his pop-out still held the room), and keeps him out while the ban holds', async () => {
    const { alice, bob, name, room, bobRoom, bobAddress } = await aliceKicksBob();
    // Still banned: asked again, refused again.
    expect(await bob.rooms.joinRoom(name)).toBe(bobRoom.id);
    await flushed(bob);
    expect(await roomInState(bob, bobRoom.id, 'banned')).toMatchObject({ banned: true, joined: false });

    await alice.rooms.liftBan(room.address, bobAddress);
    expect(await bob.rooms.joinRoom(name)).toBe(bobRoom.id);
    expect(await roomInState(bob, bobRoom.id, 'joined')).toMatchObject({ joined: true, banned: false, removal: undefined });
    await peerNamed(alice, room.address, 'Bob');
  });
});

describe('SPEC §8 join failures: only the answer to the join presence fails a join', () => {
  it('does not take the refusal of a presence that crossed the kick for the answer to the next join', async () => {
    const { alice, bob, room, bobRoom, bobAddress } = await aliceKicksBob();
    await alice.rooms.liftBan(room.address, bobAddress);
    // A presence update that reaches the room after the kick (a call change crossing it), then at
    // once a join (the room's address is known, so it goes out with no wait): the room refuses the
    // update (item-not-found) while the join waits for its answer.
    bob.session.client?.sendPresence({ to: bobRoom.selfAddress });
    await bob.rooms.submitRoomPassword(bobRoom.id, 'unused: the room is open');
    expect(await roomInState(bob, bobRoom.id, 'joined')).toMatchObject({ joined: true, banned: false });
    expect(bob.logs.some((line) => line.includes('refused a presence: item-not-found'))).toBe(true);
  });
});

describe('SPEC §6 only an owner: the room refuses the ban list to anyone else', () => {
  it("refuses a non-owner's listBans and liftBan (ModerationRefusedError, forbidden); the ban holds", async () => {
    const { alice, room, bobAddress } = await aliceKicksBob();
    const carol = person('Carol');
    const carolRoom = await joinedBy(carol, room.providedName);
    expect(carolRoom.selfAffiliation).not.toBe('owner');

    // Prosody's conditions: forbidden for the list, not-allowed for the change.
    await expect(carol.rooms.listBans(room.address)).rejects.toMatchObject({ name: 'ModerationRefusedError', condition: 'forbidden' });
    await expect(carol.rooms.liftBan(room.address, bobAddress)).rejects.toThrow(ModerationRefusedError);
    await expect(carol.rooms.liftBan(room.address, bobAddress)).rejects.toMatchObject({ condition: 'not-allowed' });
    expect(carol.session.store.state.rooms[carolRoom.id]?.bans).toBeUndefined();
    expect(await alice.rooms.listBans(room.address)).toEqual([{ userAddress: bobAddress, displayName: 'Bob', reason: undefined }]);
  });

  it('refuses a plain XMPP client in the room that asks for the outcast list or to lift a ban', async () => {
    const { alice, room, bobAddress } = await aliceKicksBob();
    const config = await providerConfig(parley());
    const plain = plainClient(clientFor(config));
    await login(plain);
    await withTimeout(plain.joinRoom(room.address, config.id), 10_000, 'plain join');

    await expect(plain.getRoomMembers(room.address, { affiliation: 'outcast' })).rejects.toMatchObject({ error: { condition: 'forbidden' } });
    await expect(plain.setRoomAffiliation(room.address, bobAddress, 'none')).rejects.toMatchObject({ error: { condition: 'not-allowed' } });
    expect(await alice.rooms.listBans(room.address)).toHaveLength(1);
  });

  it("answers 'Room not joined' for a room the session is not in, and refuses an address that is no person's", async () => {
    const { alice, bob, room } = await aliceKicksBob();
    await expect(bob.rooms.listBans(room.address)).rejects.toThrow(RoomNotJoinedError);
    await expect(alice.rooms.liftBan(room.address, 'not an address')).rejects.toThrow('userAddress must be');
  });
});

describe('SPEC §4 removal: the Room says why we are out, so every tab can show one screen for it', () => {
  it('records a kick as banned, and a destroy without another room as destroyed with its reason', async () => {
    const { bob, bobRoom, alice, room } = await aliceKicksBob();
    expect(bob.session.store.state.rooms[bobRoom.id]).toMatchObject({ roomState: 'banned', removal: { kind: 'banned' }, bans: undefined });

    await alice.rooms.destroyRoom(room.address, { reason: 'Meeting over' });
    const closed = await roomInState(alice, room.id, 'failed');
    expect(closed).toMatchObject({ joined: false, removal: { kind: 'destroyed', reason: 'Meeting over', byYou: true }, bans: undefined });
  });

  it('keeps a moderator’s kick reason, as a plain XMPP app’s kick (role none, status 307) gives it', async () => {
    const { alice, bob, room, bobRoom, bobPeer } = await aliceWithBob();
    await withTimeout(alice.session.client!.kick(room.address, JID.getResource(bobPeer.address)!, 'spamming links'), 10_000, 'the kick');
    const kicked = await roomInState(bob, bobRoom.id, 'failed');
    expect(kicked).toMatchObject({ joined: false, removal: { kind: 'kicked', reason: 'spamming links' }, error: 'Kicked from the room: spamming links' });
    // The others' event line says why, too.
    const line = await waitFor(alice, 'the kick’s event line', (state) => Object.values(state.roomEvents).find((event) => event.kind === 'kicked'));
    expect(line).toMatchObject({ displayName: 'Bob', reason: 'spamming links' });
  });

  it('says the destroy was yours only in the session that destroyed the room, not after a destroy the room refused', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    // Bob is no owner: the room refuses his destroy, and he stays.
    await expect(bob.rooms.destroyRoom(bobRoom.address, { reason: 'Not mine to close' })).rejects.toThrow(ModerationRefusedError);
    expect(bob.session.store.state.rooms[bobRoom.id]).toMatchObject({ roomState: 'joined' });

    await alice.rooms.destroyRoom(room.address, { reason: 'Meeting over' });
    const [alicesEnd, bobsEnd] = await Promise.all([roomInState(alice, room.id, 'failed'), roomInState(bob, bobRoom.id, 'failed')]);
    expect(alicesEnd.removal).toEqual({ kind: 'destroyed', reason: 'Meeting over', byYou: true });
    expect(bobsEnd.removal).toEqual({ kind: 'destroyed', reason: 'Meeting over', byYou: false });
  });

  it('follows a destroy to its alternate room and says where it came from; the next join clears the removal', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    const alternate = `${newRoomName().toLowerCase().replace(' ', '-')}@${parley().settings.mucDomain}`;

    await alice.rooms.destroyRoom(room.address, { roomAddress: alternate, reason: 'Moving' });
    const moved = await waitFor(bob, 'Bob in the alternate room', (state) => {
      const current = state.rooms[bobRoom.id];
      return current?.address === alternate && current.roomState === 'joined' ? current : undefined;
    });
    expect(moved).toMatchObject({ movedFrom: { fromAddress: room.address, fromName: name, reason: 'Moving', byYou: false }, removal: undefined });
    const alicesMove = await waitFor(alice, 'Alice in the alternate room', (state) => {
      const current = state.rooms[room.id];
      return current?.address === alternate && current.roomState === 'joined' ? current : undefined;
    });
    expect(alicesMove.movedFrom).toEqual({ fromAddress: room.address, fromName: name, reason: 'Moving', byYou: true });
  });

  it('refuses to name the room itself as where to go; a destroy that does (as a plain XMPP app may send) ends the room for the others, who do not join it again', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    await expect(alice.rooms.destroyRoom(room.address, { roomAddress: room.address, reason: 'Again' })).rejects.toThrow(ValidationError);
    expect(alice.session.store.state.rooms[room.id]).toMatchObject({ roomState: 'joined' });

    await withTimeout(alice.session.client!.destroyRoom(room.address, { jid: room.address, reason: 'Again' }), 10_000, 'the destroy');
    const closed = await roomInState(bob, bobRoom.id, 'failed');
    expect(closed).toMatchObject({ address: room.address, joined: false, removal: { kind: 'destroyed', reason: 'Again' } });
    expect(closed.movedFrom).toBeUndefined();
    await flushed(bob);
    expect(bob.session.store.state.rooms[bobRoom.id]).toMatchObject({ roomState: 'failed', joined: false });
  });

  it('ends the destroyed room as destroyed for someone already in the alternate room, and keeps them there (a room gone from the state reads as left)', async () => {
    const alice = person('Alice');
    const bob = person('Bob');
    const name = newRoomName();
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    const bobsOther = await joinedBy(bob, newRoomName());

    await alice.rooms.destroyRoom(room.address, { roomAddress: bobsOther.address, reason: 'Moving' });
    const closed = await roomInState(bob, bobRoom.id, 'failed');
    expect(closed).toMatchObject({ joined: false, removal: { kind: 'destroyed', reason: 'Moving' } });
    expect(bob.session.store.state.rooms[bobsOther.id]).toMatchObject({ address: bobsOther.address, roomState: 'joined' });
  });
});

describe('SPEC §4 connection lost: a room that ended for us (banned, kicked, destroyed) keeps its end and is not rejoined', () => {
  it('keeps a ban and a destroy through a reconnect and sends those rooms no join, while the room Bob is still in is interrupted and rejoined', async () => {
    const { alice, bob, bobRoom } = await aliceKicksBob();
    const closingName = newRoomName();
    const closing = await joinedBy(alice, closingName);
    const bobClosing = await joinedBy(bob, closingName);
    const stillIn = await joinedBy(bob, newRoomName());
    await alice.rooms.destroyRoom(closing.address, { reason: 'Meeting over' });
    await roomInState(bob, bobClosing.id, 'failed');
    const rooms = () => bob.session.store.state.rooms;
    const ended = { banned: rooms()[bobRoom.id], destroyed: rooms()[bobClosing.id] };
    expect(ended).toMatchObject({ banned: { removal: { kind: 'banned' } }, destroyed: { removal: { kind: 'destroyed' } } });

    bob.session.disconnect();
    // The end screens stay through the outage: nothing about those rooms changed.
    expect({ banned: rooms()[bobRoom.id], destroyed: rooms()[bobClosing.id] }).toEqual(ended);
    expect(rooms()[stillIn.id]).toMatchObject({ roomState: 'interrupted' });

    const sentBefore = bob.sent.length;
    await bob.session.connect();
    await joinedRoom(bob, stillIn.id);
    await flushed(bob);
    expect({ banned: rooms()[bobRoom.id], destroyed: rooms()[bobClosing.id] }).toEqual(ended);
    // No join went to either: Bob neither comes back where he was banned nor makes the destroyed room anew.
    const toEndedRooms = bob.sent.slice(sentBefore).filter((xml) => xml.startsWith('<presence') && [bobRoom.address, closing.address].some((address) => xml.includes(`to="${address}/`)));
    expect(toEndedRooms).toEqual([]);
  });
});
