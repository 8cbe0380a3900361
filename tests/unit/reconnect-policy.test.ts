import { describe, expect, it } from 'vitest';
import { RECONNECT } from '../../src/protocol/constants';
import { CappedLinearReconnectPolicy, RECONNECT_DEFAULTS } from '../../src/shared-worker/ReconnectPolicy';

const policy = new CappedLinearReconnectPolicy();

describe('Reconnect policy: the spec’s (attempts+1) s plus up to 2 s random, capped so it never stops short of the server (SPEC §7, issue 13)', () => {
  it('waits (attempts + 1) steps plus the jitter the clock’s random number gives', () => {
    expect(policy.nextDelayMs({ attemptsSoFar: 0, random: 0 })).toBe(RECONNECT.stepMs);
    expect(policy.nextDelayMs({ attemptsSoFar: 0, random: 0.5 })).toBe(RECONNECT.stepMs + 0.5 * RECONNECT.maxJitterMs);
    expect(policy.nextDelayMs({ attemptsSoFar: 4, random: 0.25 })).toBe(5 * RECONNECT.stepMs + 0.25 * RECONNECT.maxJitterMs);
  });

  it('never waits longer than the cap, jitter included, however many attempts failed', () => {
    for (const attemptsSoFar of [27, 28, 100, 10_000]) {
      for (const random of [0, 0.5, 0.999]) {
        const delay = policy.nextDelayMs({ attemptsSoFar, random });
        expect(delay).toBeLessThan(RECONNECT_DEFAULTS.maxDelayMs);
        expect(delay).toBeGreaterThanOrEqual(RECONNECT_DEFAULTS.maxDelayMs - RECONNECT.maxJitterMs);
      }
    }
  });

  it('keeps the jitter at the cap, so tabs of many people do not all come back at the same instant', () => {
    const low = policy.nextDelayMs({ attemptsSoFar: 500, random: 0 });
    const high = policy.nextDelayMs({ attemptsSoFar: 500, random: 0.99 });
    expect(high - low).toBeCloseTo(0.99 * RECONNECT.maxJitterMs);
  });

  it('takes other settings (a swappable policy with its defaults in one place)', () => {
    const quick = new CappedLinearReconnectPolicy({ stepMs: 100, maxJitterMs: 0, maxDelayMs: 250 });
    expect([0, 1, 2, 3].map((attemptsSoFar) => quick.nextDelayMs({ attemptsSoFar, random: 0.7 }))).toEqual([100, 200, 250, 250]);
  });
});
