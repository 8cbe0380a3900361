import { describe, expect, it } from 'vitest';
import { BUSY_RECOMPUTE_AFTER_MS } from '../../src/protocol/clientDefaults';
import { SESSION_TERMINATION } from '../../src/protocol/constants';
import { SessionTimers } from '../../src/main-thread/call/SessionTimers';
import { endsAtOnce, isInterrupted, terminationOutcome } from '../../src/main-thread/call/termination';
import { ManualClock } from '../support/ManualClock';

describe('session termination (SPEC §4)', () => {
  it('success and gone are normal ends', () => {
    expect(terminationOutcome({ condition: 'success' })).toEqual({ failed: false, recomputeAfterMs: undefined });
    expect(terminationOutcome({ condition: 'gone' })).toEqual({ failed: false, recomputeAfterMs: undefined });
    expect(terminationOutcome(undefined)).toEqual({ failed: false, recomputeAfterMs: undefined });
  });

  it('a session we initiated that ends gone before its answer (the peer answered a request with unknown-session) waits 2 s like the refusal it stands for (issue 13)', () => {
    expect(terminationOutcome({ condition: 'gone' }, true)).toEqual({ failed: true, recomputeAfterMs: SESSION_TERMINATION.recomputeAfterOtherErrorMs });
  });

  it('failed-transport flags the peer and recomputes after 500 ms', () => {
    expect(terminationOutcome({ condition: 'failed-transport' })).toEqual({ failed: true, recomputeAfterMs: 500 });
    expect(SESSION_TERMINATION.recomputeAfterFailedTransportMs).toBe(500);
  });

  it('any other error condition flags the peer and recomputes after 2 s', () => {
    for (const condition of ['decline', 'general-error', 'failed-application', 'connectivity-error', 'timeout'] as const) {
      expect(terminationOutcome({ condition })).toEqual({ failed: true, recomputeAfterMs: 2_000 });
    }
  });

  it('a responder whose ICE failed ends at once; an initiator restarts ICE instead', () => {
    expect(endsAtOnce('failed', false)).toBe(true);
    expect(endsAtOnce('failed', true)).toBe(false);
    expect(endsAtOnce('interrupted', false)).toBe(false);
  });

  it('disconnected, interrupted and failed are the states that time out, and checking an ICE restart the receiver has not answered', () => {
    const states = ['disconnected', 'interrupted', 'failed', 'connected', 'connecting'];
    expect(states.map((connectionState) => isInterrupted({ connectionState, restartingIce: false }))).toEqual([true, true, true, false, false]);
    expect(states.map((connectionState) => isInterrupted({ connectionState, restartingIce: true }))).toEqual([true, true, true, false, true]);
  });

  it('an offer refused to wait (busy) is made again after BUSY_RECOMPUTE_AFTER_MS, not 2 s', () => {
    expect(terminationOutcome({ condition: 'busy' })).toEqual({ failed: true, recomputeAfterMs: BUSY_RECOMPUTE_AFTER_MS });
    expect(BUSY_RECOMPUTE_AFTER_MS).toBeGreaterThan(SESSION_TERMINATION.recomputeAfterOtherErrorMs);
  });
});

describe('SPEC §4 session termination timers: a session still disconnected or interrupted after 5 s is ended; a failed peer waits 500 ms or 2 s for the recompute (SessionTimers)', () => {
  it('ends a session still interrupted after 5 s, not before', async () => {
    const clock = new ManualClock();
    const timers = new SessionTimers(clock);
    let expired = 0;
    timers.watchInterrupted('sid', () => (expired += 1));
    await clock.advance(4_999);
    expect(expired).toBe(0);
    // A second report of the same state keeps the first deadline.
    timers.watchInterrupted('sid', () => (expired += 10));
    await clock.advance(1);
    expect(expired).toBe(1);
  });

  it('a session that recovers is not ended', async () => {
    const clock = new ManualClock();
    const timers = new SessionTimers(clock);
    let expired = false;
    timers.watchInterrupted('sid', () => (expired = true));
    await clock.advance(3_000);
    timers.stopWatching('sid');
    await clock.advance(10_000);
    expect(expired).toBe(false);
  });

  it('holds a failed peer for the recompute delay, and a new failure restarts it', async () => {
    const clock = new ManualClock();
    const timers = new SessionTimers(clock);
    const released: string[] = [];
    timers.hold('r/b', 500, () => released.push('r/b'));
    timers.hold('r/c', 2_000, () => released.push('r/c'));
    expect([...timers.held]).toEqual(['r/b', 'r/c']);
    await clock.advance(499);
    expect(released).toEqual([]);
    await clock.advance(1);
    expect(released).toEqual(['r/b']);
    expect([...timers.held]).toEqual(['r/c']);
    timers.hold('r/c', 2_000, () => released.push('r/c again'));
    await clock.advance(1_999);
    expect(released).toEqual(['r/b']);
    await clock.advance(1);
    expect(released).toEqual(['r/b', 'r/c again']);
  });

  it('clear cancels everything', async () => {
    const clock = new ManualClock();
    const timers = new SessionTimers(clock);
    let fired = false;
    timers.watchInterrupted('sid', () => (fired = true));
    timers.hold('r/b', 500, () => (fired = true));
    timers.clear();
    await clock.advance(10_000);
    expect(fired).toBe(false);
    expect(clock.pendingDelays()).toEqual([]);
  });
});
