import { describe, expect, it } from 'vitest';
import type { Peer } from '../../src/protocol/entities';
import { providerConfig, useParley } from '../support/parley';
import { joinedBy, useSessions, waitFor, type TestSession } from '../support/sessions';
import { clientFor, login, withTimeout } from '../support/xmppClient';

const server = useParley();
const openSession = useSessions();

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
  it('kept while in the call, merged per field, validated, and reset by leaving the call', async () => {
    const { person, room } = await personIn('own-media-room');
    const own = () => person.session.store.state.calls[room.address]?.ownMedia;
    // Out of the call (joining the room joined it) there is nothing to carry.
    await person.rooms.leaveCall(room.address);
    await person.calls.setOwnMedia(room.address, { microphoneMuted: true });
    expect(own()?.microphoneMuted ?? false).toBe(false);

    await person.rooms.joinCall(room.address);
    await person.calls.setOwnMedia(room.address, { microphoneMuted: true });
    await person.calls.setOwnMedia(room.address, { cameraOff: true });
    expect(own()).toEqual({ microphoneMuted: true, cameraOff: true, sharingScreen: false });
    await expect(person.calls.setOwnMedia(room.address, { cameraOff: 'yes' as never })).rejects.toThrow('cameraOff must be true or false');
    await expect(person.calls.setOwnMedia(room.address, { joined: false } as never)).rejects.toThrow('unknown own media field joined');
    await expect(person.calls.setOwnMedia(42 as never, {})).rejects.toThrow();

    await person.rooms.leaveCall(room.address);
    expect(own()).toEqual({ microphoneMuted: false, cameraOff: false, sharingScreen: false });
  });
});
