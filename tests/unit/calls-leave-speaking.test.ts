// Leaving the call ends your speaking in it (SPEC §3 Peer speaking, PROTOCOL.md `<state speaking='1|0'/>`):
// the session's leave, which also runs when no tab runs the call any more (TabsApi, UNCLAIMED_CALL_HOLD),
// on a real StateStore with a recording stand-in for the XMPP client. And a destroyed room's call,
// carried to its alternate venue, keeps your own media.
import type { Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { Peer } from '../../src/protocol/entities';
import { StateStore } from '../../src/shared-worker/StateStore';
import { newCallRecord, OWN_MEDIA_DEFAULTS } from '../../src/shared-worker/rooms/callRecord';
import { RoomCalls } from '../../src/shared-worker/rooms/RoomCalls';
import { RoomRecords } from '../../src/shared-worker/rooms/RoomRecords';
import { newRoomRecord } from '../../src/shared-worker/rooms/roomRecord';
import { ManualClock } from '../support/ManualClock';
import { PEER_DEFAULTS } from '../support/peers';
import { testSessionContext } from '../support/testSessionContext';

const ROOM = 'room@rooms.example';
const SELF = `${ROOM}/alice`;

function selfPeer(overrides: Partial<Peer>): Peer {
  return {
    ...PEER_DEFAULTS,
    address: SELF,
    userAddress: undefined,
    id: 'alice',
    displayName: 'Alice',
    customerData: {},
    role: 'participant',
    affiliation: 'none',
    roomAddress: ROOM,
    joinedCall: true,
    joinedCallAt: 1,
    joinedRoomAt: 1,
    requestingMedia: 'audio',
    isSelf: true,
    readsPrivateMessages: true,
    ...overrides,
  };
}

function inACall(self: Partial<Peer>) {
  const store = new StateStore();
  /** What the session sent to the room (a fake of the XMPP client's sendMessage). */
  const sent: unknown[] = [];
  const fakeClient = { sendMessage: (message: unknown) => sent.push(message) } as unknown as Agent;
  const context = testSessionContext({ store, clock: new ManualClock(), client: fakeClient });
  store.upsert('rooms', 'r', { ...newRoomRecord('r', 'Room', { address: ROOM }), roomState: 'joined', joined: true, joinedAt: 1, selfAddress: SELF });
  store.upsert('calls', ROOM, { ...newCallRecord(ROOM), joined: true, joinedAt: 1, requestingMedia: 'audio' });
  store.upsert('peers', SELF, selfPeer(self));
  const calls = new RoomCalls(context, new RoomRecords(store), () => {});
  return { store, sent, calls };
}

describe('Leaving the call ends your speaking in it (SPEC §3 Peer speaking; the call tab that said so may be gone)', () => {
  it('a record that says you speak is corrected: speaking 0 goes to the room, and your record says not speaking', () => {
    const { store, sent, calls } = inACall({ speaking: true, lastSpokeAt: 5 });
    calls.leave(ROOM);
    expect(sent).toEqual([{ to: ROOM, type: 'groupchat', mmucState: { speaking: '0' } }]);
    expect(store.state.peers[SELF]).toMatchObject({ speaking: false, lastSpokeAt: 5 });
    expect(store.state.calls[ROOM]?.joined).toBe(false);
  });

  it('says nothing when you were not speaking', () => {
    const { sent, calls } = inACall({ speaking: false });
    calls.leave(ROOM);
    expect(sent).toEqual([]);
  });
});

describe('A destroyed room’s call carries over to its alternate venue as you were in it (SPEC §4 destroyed room; issue 13)', () => {
  it('muted with your camera off and sharing your screen in the destroyed room, the alternate room’s call record says so', () => {
    const { store, calls } = inACall({});
    const ALTERNATE = 'new-home@rooms.example';
    calls.join(ROOM, undefined);
    store.upsert('calls', ROOM, { ...store.state.calls[ROOM]!, ownMedia: { ...OWN_MEDIA_DEFAULTS, microphoneMuted: true, cameraOff: true, sharingScreen: true } });
    calls.carry(store.state.calls[ROOM], ALTERNATE);
    expect(store.state.calls[ALTERNATE]).toMatchObject({ joined: true, requestingMedia: 'audio', ownMedia: { microphoneMuted: true, cameraOff: true, sharingScreen: true } });
  });
});
