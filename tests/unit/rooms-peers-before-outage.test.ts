// Issue 13: a muted person of the call is never shown live after the chat server comes back. SPEC §4
// clears every peer on a lost connection; the record made from their presence after the rejoin takes
// back what the call showed of their media, while they are back within the rejoin grace and still in the call.
import { describe, expect, it } from 'vitest';
import type { Peer } from '../../src/protocol/entities';
import { REJOIN_GRACE_MS } from '../../src/protocol/clientDefaults';
import { PeersBeforeOutage } from '../../src/shared-worker/rooms/PeersBeforeOutage';
import { PEER_DEFAULTS } from '../support/peers';

const ROOM = 'room@rooms.example';

function peer(nick: string, change: Partial<Peer> = {}): Peer {
  return { ...PEER_DEFAULTS, address: `${ROOM}/${nick}`, roomAddress: ROOM, id: nick, displayName: nick, isSelf: false, joinedCall: true, requestingMedia: 'video', ...change } as Peer;
}

/** Bob, muted with his camera on, as his record stood when the connection was lost. */
const BOB_BEFORE = peer('bob', { muted: true, hasActiveCamera: true, hasActiveMicrophone: true });
/** Bob's record fresh from his presence after the rejoin: the presence says nothing of his media. */
const BOB_FROM_PRESENCE = peer('bob');

describe('A person of the call back after a lost connection keeps their media facts (issue 13)', () => {
  it('back and still in the call: muted and the active media come back on the new record, once', () => {
    const kept = new PeersBeforeOutage();
    kept.keep([BOB_BEFORE, peer('me', { isSelf: true, muted: true })]);
    kept.rejoined(ROOM, 1_000);
    expect(kept.restore(BOB_FROM_PRESENCE, 1_000 + REJOIN_GRACE_MS)).toEqual({ ...BOB_FROM_PRESENCE, muted: true, hasActiveCamera: true, hasActiveMicrophone: true });
    // Later records of Bob come from his own presences and the call tab, not from before the loss.
    expect(kept.restore(BOB_FROM_PRESENCE, 2_000)).toEqual(BOB_FROM_PRESENCE);
    expect(kept.restore(peer('me', { isSelf: true }), 2_000).muted).toBe(false);
  });

  it('back after the grace, or back out of the call, or the room left: the presence alone', () => {
    const late = new PeersBeforeOutage();
    late.keep([BOB_BEFORE]);
    late.rejoined(ROOM, 1_000);
    expect(late.restore(BOB_FROM_PRESENCE, 1_001 + REJOIN_GRACE_MS)).toEqual(BOB_FROM_PRESENCE);

    const outOfCall = new PeersBeforeOutage();
    outOfCall.keep([BOB_BEFORE]);
    const bobOutOfCall = peer('bob', { joinedCall: false, requestingMedia: 'none' });
    expect(outOfCall.restore(bobOutOfCall, 0)).toEqual(bobOutOfCall);

    const left = new PeersBeforeOutage();
    left.keep([BOB_BEFORE]);
    left.forgetRoom(ROOM);
    expect(left.restore(BOB_FROM_PRESENCE, 0)).toEqual(BOB_FROM_PRESENCE);
  });
});
