import { describe, expect, it } from 'vitest';
import type { Connection, SessionConnectionState } from '../../src/main-thread/call/Connection';
import { connectionHint } from '../../src/main-thread/callTab/connectionHint';
import { BOB, ROOM } from './callTab-fakes';

function record(id: string, connectionState: SessionConnectionState): Connection {
  return {
    id,
    peerAddress: BOB,
    roomAddress: ROOM,
    connectionState,
    sessionState: 'active',
    sendingAudioMediaId: undefined,
    sendingVideoMediaId: undefined,
    receivingAudioMediaId: undefined,
    receivingVideoMediaId: undefined,
    restarting: false,
  };
}

describe("a person's connection hint (their tile reads the SPEC §3 Connection records)", () => {
  it('says nothing without sessions, or while any session with them is connected', () => {
    expect(connectionHint([])).toBeUndefined();
    expect(connectionHint([record('a', 'connected')])).toBeUndefined();
    // A path change: the new session connects beside the running one.
    expect(connectionHint([record('a', 'connected'), record('b', 'connecting'), record('c', 'interrupted')])).toBeUndefined();
  });

  it('says connecting while sessions are being set up', () => {
    expect(connectionHint([record('a', 'starting')])).toBe('connecting');
    expect(connectionHint([record('a', 'connecting'), record('b', 'starting')])).toBe('connecting');
  });

  it('says interrupted once a session was cut off and none is connected', () => {
    expect(connectionHint([record('a', 'interrupted'), record('b', 'connecting')])).toBe('interrupted');
    expect(connectionHint([record('a', 'disconnected')])).toBe('interrupted');
  });
});
