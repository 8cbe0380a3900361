import { describe, expect, it } from 'vitest';
import { RejoinHold } from '../../src/main-thread/call/RejoinHold';
import { ManualClock } from '../support/ManualClock';
import { peer, room, ROOM } from './callTab-fakes';

const BOB = `${ROOM}/bob`;

describe('A room refused as not started after we were in it (SPEC §4 waiting) awaits its rejoin, as an interrupted one does: the call keeps its people (issue 13)', () => {
  it('keeps following the people it had while the room waits for its start', () => {
    const hold = new RejoinHold(new ManualClock(), () => {});
    const bob = peer(BOB);
    const inTouch = () => true;
    expect(hold.follow(room({ roomState: 'joined', joined: true, joinedAt: 1 }), [bob], true, inTouch)).toMatchObject({ peers: [bob], inRoom: true });

    // The server lost its rooms: interrupted, then refused until the host is back.
    expect(hold.follow(room({ roomState: 'interrupted', joined: false, joinedAt: 1 }), [], true, inTouch)).toMatchObject({ peers: [bob], inRoom: true });
    expect(hold.follow(room({ roomState: 'waiting', joined: false, joinedAt: 1, roomNotStarted: true }), [], true, inTouch)).toMatchObject({ peers: [bob], inRoom: true });
    expect(hold.heldPeers()).toEqual([bob]);
  });

  it('a room never joined that waits for its start has nobody to hold', () => {
    const hold = new RejoinHold(new ManualClock(), () => {});
    expect(hold.follow(room({ roomState: 'waiting', joined: false, joinedAt: undefined, roomNotStarted: true }), [], true, () => true)).toMatchObject({ peers: [], inRoom: false });
  });
});
