import { describe, expect, it } from 'vitest';
import { connectionsAtom } from '../../src/main-thread/call/callAtoms';
import type { Connection, SessionConnectionState } from '../../src/main-thread/call/Connection';
import { SessionFailedError } from '../../src/main-thread/call/errors';
import { connectionHint } from '../../src/main-thread/callTab/connectionHint';
import { CALL_UNREACHABLE_AFTER_MS, SESSION_TERMINATION } from '../../src/protocol/constants';
import { BOB, ROOM, settle, startedHarnesses } from './callTab-fakes';

function record(id: string, connectionState: SessionConnectionState, restarting = false): Connection {
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
    restarting,
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

  it('says reconnecting once a session was cut off, or failed and restarts ICE, and none is connected', () => {
    expect(connectionHint([record('a', 'interrupted'), record('b', 'connecting')])).toBe('reconnecting');
    expect(connectionHint([record('a', 'disconnected')])).toBe('reconnecting');
    expect(connectionHint([record('a', 'failed', true)])).toBe('reconnecting');
    expect(connectionHint([record('a', 'connecting', true)])).toBe('reconnecting');
  });

  it('the sessions that bring their media speak for their tile: yours to them, connected, does not hide that theirs is still being set up or was cut off', () => {
    const yoursToThem = { ...record('mine', 'connected'), sendingVideoMediaId: 'camera' };
    const theirs = (state: SessionConnectionState) => ({ ...record('theirs', state), receivingVideoMediaId: 'their-camera' });
    expect(connectionHint([yoursToThem, theirs('connecting')])).toBe('connecting');
    expect(connectionHint([yoursToThem, theirs('interrupted')])).toBe('reconnecting');
    expect(connectionHint([yoursToThem, theirs('connected')])).toBeUndefined();
    // A path change: their media arrives on the running session while the new one connects.
    expect(connectionHint([yoursToThem, theirs('connected'), { ...theirs('connecting'), id: 'theirs-by-relay' }])).toBeUndefined();
    // They send nothing (no camera, no microphone): every session with them speaks, as before.
    expect(connectionHint([yoursToThem, record('theirs', 'connecting')])).toBeUndefined();
  });

  it('after a failure says reconnecting while sessions start anew (or none runs yet), and that it cannot connect once it has failed on, until ConnectionTroubles ends the trouble', () => {
    expect(connectionHint([], 'failing')).toBe('reconnecting');
    // Yours to them may be connected while theirs is made anew: the trouble speaks while it lasts.
    expect(connectionHint([record('a', 'connected')], 'failing')).toBe('reconnecting');
    expect(connectionHint([record('a', 'connected')], 'unreachable')).toBe('unreachable');
    expect(connectionHint([record('a', 'connecting')], 'failing')).toBe('reconnecting');
    expect(connectionHint([], 'unreachable')).toBe('unreachable');
    expect(connectionHint([record('a', 'connecting')], 'unreachable')).toBe('unreachable');
  });
});

describe('a connection that keeps failing is put into words on the person’s tile, and the words go once it connects (SPEC §4 session termination, Peer.sessionFailed)', () => {
  const open = startedHarnesses();

  async function inCall() {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    const engine = h.engines[0]!;
    const hint = () => h.store.get(h.runtime.atoms.peerConnection(BOB));
    const setRecords = (...records: Connection[]) => h.store.set(connectionsAtom, Object.fromEntries(records.map((entry) => [entry.id, entry])));
    const fail = (sid: string, bringingTheirMedia = false) => engine.sessionFailed(new SessionFailedError(sid, BOB, 'failed-transport', undefined, bringingTheirMedia));
    return { h, hint, setRecords, fail };
  }

  it('a peer that can never be reached: "Reconnecting…" from the first failure on, then after CALL_UNREACHABLE_AFTER_MS that it cannot connect, while the call keeps trying', async () => {
    const { h, hint, setRecords, fail } = await inCall();
    setRecords(record('s1', 'connecting'));
    expect(hint()).toBe('connecting');
    // The initiator's ICE failed: it restarts ICE; the responder ends its session at once.
    setRecords(record('s1', 'failed', true));
    expect(hint()).toBe('reconnecting');
    setRecords();
    fail('s1');
    expect(hint()).toBe('reconnecting');
    // SPEC §4: a new session after the recompute delay; it fails too.
    await h.clock.advance(SESSION_TERMINATION.recomputeAfterFailedTransportMs);
    setRecords(record('s2', 'connecting'));
    expect(hint()).toBe('reconnecting');
    await h.clock.advance(CALL_UNREACHABLE_AFTER_MS - SESSION_TERMINATION.recomputeAfterFailedTransportMs - 1);
    expect(hint()).toBe('reconnecting');
    setRecords();
    fail('s2');
    await h.clock.advance(1);
    expect(hint()).toBe('unreachable');
    // Still trying: the words stay while the next session is set up…
    setRecords(record('s3', 'connecting'));
    expect(hint()).toBe('unreachable');
    // …and go once it connects.
    setRecords(record('s3', 'connected'));
    expect(hint()).toBeUndefined();
  });

  it('a connection that comes back is out of trouble: a later failure starts over from "Reconnecting…"', async () => {
    const { h, hint, setRecords, fail } = await inCall();
    setRecords(record('s1', 'connected'));
    setRecords(record('s1', 'interrupted'));
    expect(hint()).toBe('reconnecting');
    await h.clock.advance(SESSION_TERMINATION.interruptedTimeoutMs);
    setRecords();
    fail('s1');
    await h.clock.advance(CALL_UNREACHABLE_AFTER_MS - 1);
    setRecords(record('s2', 'connected'));
    expect(hint()).toBeUndefined();
    await h.clock.advance(1);
    expect(hint()).toBeUndefined();
    setRecords();
    fail('s2');
    expect(hint()).toBe('reconnecting');
    await h.clock.advance(CALL_UNREACHABLE_AFTER_MS - 1);
    expect(hint()).toBe('reconnecting');
    await h.clock.advance(1);
    expect(hint()).toBe('unreachable');
  });

  it('your session to them, connected, does not keep them out of trouble while theirs, bringing their media, keeps failing: after CALL_UNREACHABLE_AFTER_MS their tile says it cannot connect', async () => {
    const { h, hint, setRecords, fail } = await inCall();
    const yoursToThem = { ...record('mine', 'connected'), sendingVideoMediaId: 'camera' };
    const theirs = { ...record('theirs', 'connecting'), receivingVideoMediaId: 'their-camera' };
    setRecords(yoursToThem, theirs);
    fail('theirs');
    setRecords(yoursToThem, theirs);
    expect(hint()).toBe('reconnecting');
    await h.clock.advance(CALL_UNREACHABLE_AFTER_MS);
    expect(hint()).toBe('unreachable');
    // Theirs connects: the words go.
    setRecords(yoursToThem, { ...theirs, connectionState: 'connected' });
    expect(hint()).toBeUndefined();
  });

  it('theirs, bringing their media, failed and is being made anew: yours to them, connected, does not end the trouble — only theirs connected again does', async () => {
    const { h, hint, setRecords, fail } = await inCall();
    const yoursToThem = { ...record('mine', 'connected'), sendingVideoMediaId: 'camera' };
    setRecords(yoursToThem, { ...record('theirs', 'connected'), receivingAudioMediaId: 'their-microphone' });
    expect(hint()).toBeUndefined();
    // Theirs ends with an error: until they start it anew, only yours to them is left.
    setRecords(yoursToThem);
    fail('theirs', true);
    expect(hint()).toBe('reconnecting');
    await h.clock.advance(CALL_UNREACHABLE_AFTER_MS);
    expect(hint()).toBe('unreachable');
    // Their new offer, not yet accepted, brings nothing yet.
    setRecords(yoursToThem, record('theirs-again', 'connecting'));
    expect(hint()).toBe('unreachable');
    setRecords(yoursToThem, { ...record('theirs-again', 'connected'), receivingAudioMediaId: 'their-microphone' });
    expect(hint()).toBeUndefined();
    // A later failure of yours to them while theirs runs: you still hear them, nothing to say (their tile of you says it).
    setRecords({ ...record('theirs-again', 'connected'), receivingAudioMediaId: 'their-microphone' });
    fail('mine');
    expect(hint()).toBeUndefined();
    await h.clock.advance(CALL_UNREACHABLE_AFTER_MS);
    expect(hint()).toBeUndefined();
  });

  it('leaving the call lets the trouble go', async () => {
    const { h, hint, fail } = await inCall();
    fail('s1');
    await h.clock.advance(CALL_UNREACHABLE_AFTER_MS);
    expect(hint()).toBe('unreachable');
    await h.runtime.hangUp();
    h.deliverCallRecord();
    await settle();
    expect(hint()).toBeUndefined();
  });
});
