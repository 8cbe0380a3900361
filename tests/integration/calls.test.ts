import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startParley, type RunningParley } from '../../server/Parley';
import type { Peer, Room } from '../../src/protocol/entities';
import { systemClock } from '../../src/shared-worker/clock';
import { createSession } from '../../src/shared-worker/createSession';
import { MemoryPreferencesStorage } from '../../src/shared-worker/preferences/PreferencesStorage';
import { clientFor, login, withTimeout } from '../support/xmppClient';
import { until } from '../support/until';

let parley: RunningParley;
const sessions: Array<ReturnType<typeof createSession>> = [];

beforeAll(async () => {
  parley = await startParley({ port: 0 });
});
afterAll(async () => {
  for (const { session } of sessions) session.disconnect();
  await parley?.stop();
});

type Person = ReturnType<typeof createSession>;

async function personIn(roomName: string): Promise<{ person: Person; room: () => Room }> {
  const person = createSession({
    clock: systemClock,
    fetch,
    log: { info: () => {}, error: () => {} },
    configUrl: new URL('/api/config', parley.url).href,
    preferencesStorage: new MemoryPreferencesStorage(),
    tabGone: () => new Promise(() => {}),
  });
  sessions.push(person);
  void person.session.connect();
  const id = await person.rooms.joinRoom(roomName);
  const room = (): Room => person.session.store.state.rooms[id]!;
  await until(() => room()?.roomState === 'joined', `${roomName} joined`);
  return { person, room };
}

const peer = (person: Person, address: string): Peer | undefined => person.session.store.state.peers[address];

describe('Speaking state: a bodiless groupchat <state speaking="1|0"/> marks the speaker on every side (PROTOCOL.md, SPEC §3 Peer speaking)', () => {
  it('local speaking reaches the other person and marks our own Peer, with lastSpokeAt', async () => {
    const alice = await personIn('speaking-room');
    const bob = await personIn('speaking-room');
    const aliceAddress = alice.room().selfAddress!;
    await until(() => peer(bob.person, aliceAddress) !== undefined, 'Bob sees Alice');

    await alice.person.calls.setSpeaking(alice.room().address!, true);
    expect(peer(alice.person, aliceAddress)?.speaking).toBe(true);
    await until(() => peer(bob.person, aliceAddress)?.speaking === true, 'Bob sees Alice speaking');
    expect(peer(bob.person, aliceAddress)?.lastSpokeAt).toBeGreaterThan(0);

    await alice.person.calls.setSpeaking(alice.room().address!, false);
    await until(() => peer(bob.person, aliceAddress)?.speaking === false, 'Bob sees Alice stop');
  });

  it('a plain XMPP client reads it as a standard bodiless groupchat message with the mmuc element', async () => {
    const alice = await personIn('speaking-interop');
    const configResponse = await fetch(new URL('/api/config', parley.url), { method: 'POST', body: '{"clientVersion":"x"}' });
    const config = await configResponse.json();
    const plain = clientFor(config);
    await login(plain);
    const heard = new Promise<string | undefined>((resolve) => plain.on('message', (message) => message.mmucState && resolve(message.mmucState.speaking)));
    await withTimeout(plain.joinRoom(alice.room().address!, config.id), 10_000, 'plain join');
    await alice.person.calls.setSpeaking(alice.room().address!, true);
    expect(await withTimeout(heard, 10_000, 'speaking message')).toBe('1');
    plain.disconnect();
  });
});

describe('Peer media reports: the call tab\'s facts about a peer reach every tab, validated (SPEC §3 Peer)', () => {
  it('merges muted / hasActiveCamera into the Peer and refuses anything else', async () => {
    const alice = await personIn('media-report-room');
    const bob = await personIn('media-report-room');
    const bobAddress = bob.room().selfAddress!;
    await until(() => peer(alice.person, bobAddress) !== undefined, 'Alice sees Bob');
    await alice.person.calls.reportPeerMedia(bobAddress, { muted: true, hasActiveCamera: true });
    expect(peer(alice.person, bobAddress)).toMatchObject({ muted: true, hasActiveCamera: true });
    await expect(alice.person.calls.reportPeerMedia(bobAddress, { muted: 'yes' as never })).rejects.toThrow('muted must be true or false');
    await expect(alice.person.calls.reportPeerMedia(bobAddress, { role: 'moderator' } as never)).rejects.toThrow('unknown peer media field role');
    expect(peer(alice.person, bobAddress)?.role).not.toBe('visitor');
  });

  it('keeps a per-peer volume limit (default 0.8) between 0 and 1', async () => {
    const alice = await personIn('volume-room');
    const bob = await personIn('volume-room');
    const bobAddress = bob.room().selfAddress!;
    await until(() => peer(alice.person, bobAddress) !== undefined, 'Alice sees Bob');
    expect(peer(alice.person, bobAddress)?.volumeLimit).toBe(0.8);
    await alice.person.calls.setPeerVolumeLimit(bobAddress, 0.25);
    expect(peer(alice.person, bobAddress)?.volumeLimit).toBe(0.25);
    await expect(alice.person.calls.setPeerVolumeLimit(bobAddress, 1.5)).rejects.toThrow('volumeLimit must be a number from 0 to 1');
  });
});
