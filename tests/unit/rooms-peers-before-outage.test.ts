// Issue 13: a muted person of the call is never shown live after the chat server comes back, and the
// tiles keep their order. SPEC §4 clears every peer on a lost connection; the record made from their
// presence after the rejoin takes back when they arrived and last spoke and, while they are still in the
// call, what it showed of their media — if they are back within the rejoin grace.
import { describe, expect, it } from 'vitest';
import type { Peer } from '../../src/protocol/entities';
import { DEPARTURE_HOLD, REJOIN_GRACE_MS } from '../../src/protocol/clientDefaults';
import { CallsDomain } from '../../src/shared-worker/calls/CallsDomain';
import { StateStore } from '../../src/shared-worker/StateStore';
import { PeersBeforeOutage } from '../../src/shared-worker/rooms/PeersBeforeOutage';
import { ManualClock } from '../support/ManualClock';
import { PEER_DEFAULTS } from '../support/peers';
import { testSessionContext } from '../support/testSessionContext';

const ROOM = 'room@rooms.example';

function peer(nick: string, change: Partial<Peer> = {}): Peer {
  return { ...PEER_DEFAULTS, address: `${ROOM}/${nick}`, roomAddress: ROOM, id: nick, displayName: nick, isSelf: false, joinedCall: true, requestingMedia: 'video', ...change } as Peer;
}

/** Bob, muted with his camera on, as his record stood when the connection was lost. */
const BOB_BEFORE = peer('bob', { muted: true, hasActiveCamera: true, hasActiveMicrophone: true, joinedRoomAt: 100, joinedCallAt: 150, lastSpokeAt: 400 });
/** Bob's record fresh from his presence after the rejoin: the presence says nothing of his media, and he seems just arrived. */
const BOB_FROM_PRESENCE = peer('bob', { joinedRoomAt: 2_000, joinedCallAt: 2_000 });
/** What we knew of Bob's standing: when he arrived, joined the call and last spoke. */
const BOB_STANDING = { joinedRoomAt: 100, joinedCallAt: 150, lastSpokeAt: 400 };

describe('A person back after a lost connection keeps their arrival, last speech and, in the call, media facts (issue 13)', () => {
  it('back and still in the call: when he arrived, joined the call and last spoke, muted and the active media come back on the new record, once', () => {
    const kept = new PeersBeforeOutage(new ManualClock());
    kept.keep([BOB_BEFORE, peer('me', { isSelf: true, muted: true })]);
    kept.rejoined(ROOM, 1_000);
    expect(kept.restore(BOB_FROM_PRESENCE, 1_000 + REJOIN_GRACE_MS)).toEqual({ ...BOB_FROM_PRESENCE, ...BOB_STANDING, muted: true, hasActiveCamera: true, hasActiveMicrophone: true });
    // Later records of Bob come from his own presences and the call tab, not from before the loss.
    expect(kept.restore(BOB_FROM_PRESENCE, 2_000)).toEqual(BOB_FROM_PRESENCE);
    expect(kept.restore(peer('me', { isSelf: true }), 2_000).muted).toBe(false);
  });

  it('back after the grace, under another <user sid>, or after the room was left: the presence alone; back out of the call: no media facts', () => {
    const late = new PeersBeforeOutage(new ManualClock());
    late.keep([BOB_BEFORE]);
    late.rejoined(ROOM, 1_000);
    expect(late.restore(BOB_FROM_PRESENCE, 1_001 + REJOIN_GRACE_MS)).toEqual(BOB_FROM_PRESENCE);

    const outOfCall = new PeersBeforeOutage(new ManualClock());
    outOfCall.keep([BOB_BEFORE]);
    const bobOutOfCall = peer('bob', { joinedCall: false, requestingMedia: 'none', joinedCallAt: undefined });
    // Out of the call now: when he arrived and last spoke still hold, his media facts do not.
    expect(outOfCall.restore(bobOutOfCall, 0)).toEqual({ ...bobOutOfCall, joinedRoomAt: 100, lastSpokeAt: 400 });

    const someoneElse = new PeersBeforeOutage(new ManualClock());
    someoneElse.keep([BOB_BEFORE]);
    // Another person under Bob's nick (another <user sid>) is not Bob.
    const newcomer = peer('bob', { id: 'another-sid', joinedRoomAt: 2_000 });
    expect(someoneElse.restore(newcomer, 0)).toEqual(newcomer);

    const left = new PeersBeforeOutage(new ManualClock());
    left.keep([BOB_BEFORE]);
    left.forgetRoom(ROOM);
    expect(left.restore(BOB_FROM_PRESENCE, 0)).toEqual(BOB_FROM_PRESENCE);
  });

  it('someone of the room not in the call: their arrival and last speech come back, so the lists keep their order', () => {
    const kept = new PeersBeforeOutage(new ManualClock());
    const carol = peer('carol', { joinedCall: false, requestingMedia: 'none', joinedCallAt: undefined, joinedRoomAt: 50, lastSpokeAt: 300 });
    kept.keep([carol]);
    const back = peer('carol', { joinedCall: false, requestingMedia: 'none', joinedCallAt: undefined, joinedRoomAt: 2_000 });
    expect(kept.restore(back, 2_000)).toEqual({ ...back, joinedRoomAt: 50, lastSpokeAt: 300 });
  });
});

describe('Someone of the call back at the same address soon after their room said they left keeps the same (issue 13: their connection replaced, DepartureHold)', () => {
  it('back within DEPARTURE_HOLD.graceMs of the leave: muted, the active media and the standing come back; after it, the presence alone', () => {
    const kept = new PeersBeforeOutage(new ManualClock());
    kept.departed(BOB_BEFORE, 1_000);
    expect(kept.restore(BOB_FROM_PRESENCE, 1_000 + DEPARTURE_HOLD.graceMs)).toEqual({ ...BOB_FROM_PRESENCE, ...BOB_STANDING, muted: true, hasActiveCamera: true, hasActiveMicrophone: true });

    const late = new PeersBeforeOutage(new ManualClock());
    late.departed(BOB_BEFORE, 1_000);
    expect(late.restore(BOB_FROM_PRESENCE, 1_001 + DEPARTURE_HOLD.graceMs)).toEqual(BOB_FROM_PRESENCE);
  });
});

describe('Someone remembered who is not back when their grace runs out is let go then, not kept until our next reconnect', () => {
  it('someone of the call who left plainly: remembered for DEPARTURE_HOLD.graceMs after the leave, then gone', async () => {
    const clock = new ManualClock();
    const kept = new PeersBeforeOutage(clock);
    kept.departed(BOB_BEFORE, clock.now());
    await clock.advance(DEPARTURE_HOLD.graceMs - 1);
    expect(kept.lastRecordOf(BOB_BEFORE.address)).toEqual(BOB_BEFORE);
    await clock.advance(1);
    expect(kept.lastRecordOf(BOB_BEFORE.address)).toBeUndefined();
  });

  it('someone of a room we lost: remembered however long the outage, then for REJOIN_GRACE_MS after our rejoin, then gone', async () => {
    const clock = new ManualClock();
    const kept = new PeersBeforeOutage(clock);
    kept.keep([BOB_BEFORE]);
    // The room awaits its rejoin (its host away, say) for ten minutes: Bob's call goes on meanwhile.
    await clock.advance(600_000);
    expect(kept.lastRecordOf(BOB_BEFORE.address)).toEqual(BOB_BEFORE);
    kept.rejoined(ROOM, clock.now());
    await clock.advance(REJOIN_GRACE_MS - 1);
    expect(kept.lastRecordOf(BOB_BEFORE.address)).toEqual(BOB_BEFORE);
    await clock.advance(1);
    expect(kept.lastRecordOf(BOB_BEFORE.address)).toBeUndefined();
  });

  it('back and gone again: the new leave has a whole grace of its own, which the first one’s end does not cut short', async () => {
    const clock = new ManualClock();
    const kept = new PeersBeforeOutage(clock);
    kept.departed(BOB_BEFORE, clock.now());
    await clock.advance(DEPARTURE_HOLD.graceMs / 2);
    kept.restore(BOB_FROM_PRESENCE, clock.now());
    kept.departed(BOB_BEFORE, clock.now());
    await clock.advance(DEPARTURE_HOLD.graceMs - 1);
    expect(kept.lastRecordOf(BOB_BEFORE.address)).toEqual(BOB_BEFORE);
    await clock.advance(1);
    expect(kept.lastRecordOf(BOB_BEFORE.address)).toBeUndefined();
  });
});

describe('A person back after a lost connection is heard at the volume you set for them (SPEC §3 Peer volumeLimit, issue 13)', () => {
  it('Bob turned down to 0.3 before the loss is at 0.3 on the record his presence makes after the rejoin, in the call or not', () => {
    const kept = new PeersBeforeOutage(new ManualClock());
    const carol = peer('carol', { joinedCall: false, requestingMedia: 'none', joinedCallAt: undefined, volumeLimit: 0.5 });
    kept.keep([{ ...BOB_BEFORE, volumeLimit: 0.3 }, carol]);
    kept.rejoined(ROOM, 1_000);
    expect(BOB_FROM_PRESENCE.volumeLimit).toBe(0.8);
    expect(kept.restore(BOB_FROM_PRESENCE, 1_000).volumeLimit).toBe(0.3);
    expect(kept.restore(peer('carol', { joinedCall: false, requestingMedia: 'none', joinedCallAt: undefined }), 1_000).volumeLimit).toBe(0.5);
  });

  it('Bob turned down to 0.3 while the room did not list him (his tile kept by the call) is at 0.3 on the record he comes back with', async () => {
    const store = new StateStore();
    const context = testSessionContext({ store, clock: new ManualClock() });
    const kept = new PeersBeforeOutage(context.clock);
    // Wired as createSession wires it: RoomsDomain hands CallsDomain what it remembers.
    const calls = new CallsDomain(
      context,
      (address) => kept.lastRecordOf(address),
      () => false,
      (address, volumeLimit) => kept.setVolumeLimit(address, volumeLimit),
    );
    // The connection is lost: SPEC §4 clears the peers, the session remembers Bob.
    kept.keep([BOB_BEFORE]);
    await calls.setPeerVolumeLimit(BOB_BEFORE.address, 0.3);
    expect(store.state.peers[BOB_BEFORE.address]).toBeUndefined();
    kept.rejoined(ROOM, 1_000);
    expect(kept.restore(BOB_FROM_PRESENCE, 1_000).volumeLimit).toBe(0.3);

    // Someone who left plainly while in the call (DepartureHold) likewise.
    const carolBefore = peer('carol', { volumeLimit: 0.5 });
    kept.departed(carolBefore, 2_000);
    await calls.setPeerVolumeLimit(carolBefore.address, 0.1);
    expect(kept.restore(peer('carol'), 2_000).volumeLimit).toBe(0.1);
  });
});
