import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { SessionConnectionState } from '../../src/main-thread/call/Connection';
import { ConnectionRecords } from '../../src/main-thread/call/ConnectionRecords';
import { SessionFailedError } from '../../src/main-thread/call/errors';
import { SessionFailures } from '../../src/main-thread/call/SessionFailures';
import { SESSION_TERMINATION } from '../../src/protocol/constants';
import { ManualClock } from '../support/ManualClock';

const ROOM = 'room@muc.example';
const BOB = `${ROOM}/bob`;

function failuresOfACall() {
  const clock = new ManualClock();
  const store = createStore();
  const records = new ConnectionRecords(store);
  const failures = new SessionFailures({ roomAddress: ROOM, store, clock });
  /** A session with `peerAddress` (of `roomAddress`'s call), as its path writes its SPEC §3 Connection record. */
  const session = (sid: string, connectionState: SessionConnectionState, peerAddress = BOB, roomAddress = ROOM) =>
    records.set({
      id: sid,
      peerAddress,
      roomAddress,
      connectionState,
      sessionState: 'active',
      sendingAudioMediaId: 'mic',
      sendingVideoMediaId: undefined,
      receivingAudioMediaId: undefined,
      receivingVideoMediaId: undefined,
      restarting: false,
    });
  const fail = (sid: string, condition: string) => failures.failed(new SessionFailedError(sid, BOB, condition, undefined));
  return { clock, records, failures, session, fail };
}

describe('Peer.sessionFailed, whichever path: a session ended with an error flags the person through SPEC §4’s recompute delay, and the flag goes once a session with them is connected on either path', () => {
  it('a relay session to Bob fails while the mesh still serves him: flagged until the recompute 500 ms later, then no longer', async () => {
    const { clock, failures, session, fail } = failuresOfACall();
    session('mesh-to-bob', 'connected');
    fail('relay-to-bob', 'failed-transport');
    expect(failures.has(BOB)).toBe(true);
    await clock.advance(SESSION_TERMINATION.recomputeAfterFailedTransportMs - 1);
    expect(failures.has(BOB)).toBe(true);
    await clock.advance(1);
    expect(failures.has(BOB)).toBe(false);
  });

  it('nothing connected with Bob at the recompute: flagged until a session with him connects, on either path', async () => {
    const { clock, records, failures, session, fail } = failuresOfACall();
    fail('relay-to-bob', 'failed-transport');
    await clock.advance(SESSION_TERMINATION.recomputeAfterOtherErrorMs);
    expect(failures.has(BOB)).toBe(true);
    session('mesh-to-bob', 'connecting');
    session('bob-in-another-room', 'connected', BOB, 'other@muc.example');
    expect(failures.has(BOB)).toBe(true);
    session('mesh-to-bob', 'connected');
    expect(failures.has(BOB)).toBe(false);
    records.remove('mesh-to-bob');
    expect(failures.has(BOB)).toBe(false);
  });

  it('another error condition holds the flag 2 s; a failure meanwhile starts the delay again', async () => {
    const { clock, failures, session, fail } = failuresOfACall();
    session('bob-to-us', 'connected');
    fail('mesh-to-bob', 'decline');
    await clock.advance(SESSION_TERMINATION.recomputeAfterOtherErrorMs - 100);
    fail('mesh-to-bob-again', 'decline');
    await clock.advance(100);
    expect(failures.has(BOB)).toBe(true);
    await clock.advance(SESSION_TERMINATION.recomputeAfterOtherErrorMs - 100);
    expect(failures.has(BOB)).toBe(false);
  });
});
