import { describe, expect, it } from 'vitest';
import { RECONNECT_POLICY } from '../../src/protocol/clientDefaults';
import { RECONNECT } from '../../src/protocol/constants';
import { RECONNECT_DEFAULTS, ServerAwareReconnectPolicy } from '../../src/shared-worker/ReconnectPolicy';

const policy = new ServerAwareReconnectPolicy();

/** The target: back within this long of the server being reachable again. */
const BACK_TARGET_MS = 5_000;

describe('Reconnect policy: the spec’s (attempts+1) s plus up to 2 s random for its first attempts, then waiting for the server to be back, whatever the outage’s length (SPEC §7, issue 13)', () => {
  it('keeps the spec’s schedule for the spec’s attempts: (attempts + 1) steps plus the jitter the clock’s random number gives', () => {
    expect(policy.next({ attemptsSoFar: 0, loginsRefusedInARow: 0, random: 0 })).toEqual({ delayMs: RECONNECT.stepMs, waitForServer: false });
    expect(policy.next({ attemptsSoFar: 0, loginsRefusedInARow: 0, random: 0.5 })).toEqual({ delayMs: RECONNECT.stepMs + 0.5 * RECONNECT.maxJitterMs, waitForServer: false });
    expect(policy.next({ attemptsSoFar: 1, loginsRefusedInARow: 0, random: 0.25 })).toEqual({ delayMs: 2 * RECONNECT.stepMs + 0.25 * RECONNECT.maxJitterMs, waitForServer: false });
  });

  it('the spec’s attempts end while their wait is still within the target', () => {
    const longestSpecWait = policy.next({ attemptsSoFar: RECONNECT_POLICY.specAttempts - 1, loginsRefusedInARow: 0, random: 0.999 }).delayMs;
    expect(longestSpecWait).toBeLessThan(BACK_TARGET_MS);
  });

  it('after them, waits for the gateway to say the server is up, then tries within the spread', () => {
    for (const attemptsSoFar of [RECONNECT_POLICY.specAttempts, 10, 10_000]) expect(policy.next({ attemptsSoFar, loginsRefusedInARow: 0, random: 0.5 }).waitForServer).toBe(true);
    expect(policy.afterServerUpMs(0)).toBe(0);
    expect(policy.afterServerUpMs(0.999)).toBeLessThan(RECONNECT_POLICY.spreadAfterUpMs);
    expect(RECONNECT_POLICY.spreadAfterUpMs).toBeLessThan(BACK_TARGET_MS);
  });

  it('when the gateway cannot say, never waits longer than the cap, jitter included, however many attempts failed', () => {
    for (const attemptsSoFar of [RECONNECT_POLICY.specAttempts, 27, 100, 10_000]) {
      for (const random of [0, 0.5, 0.999]) {
        const { delayMs } = policy.next({ attemptsSoFar, loginsRefusedInARow: 0, random });
        expect(delayMs).toBeLessThan(RECONNECT_POLICY.maxDelayMs);
        expect(delayMs).toBeLessThan(BACK_TARGET_MS);
      }
    }
  });

  it('keeps jitter at the cap, so the tabs of many people do not all come back at the same instant', () => {
    const low = policy.next({ attemptsSoFar: 500, loginsRefusedInARow: 0, random: 0 }).delayMs;
    const high = policy.next({ attemptsSoFar: 500, loginsRefusedInARow: 0, random: 0.99 }).delayMs;
    expect(high - low).toBeGreaterThan(0.9 * (RECONNECT_POLICY.maxDelayMs / 2));
  });

  it('takes other settings (a swappable policy with its defaults in one place)', () => {
    const quick = new ServerAwareReconnectPolicy({ ...RECONNECT_DEFAULTS, stepMs: 100, maxJitterMs: 0, maxDelayMs: 250, specAttempts: 1, spreadAfterUpMs: 10 });
    expect([0, 1, 2, 3].map((attemptsSoFar) => quick.next({ attemptsSoFar, loginsRefusedInARow: 0, random: 0.7 }))).toEqual([
      { delayMs: 100, waitForServer: false },
      { delayMs: 200, waitForServer: true },
      { delayMs: 250, waitForServer: true },
      { delayMs: 250, waitForServer: true },
    ]);
    expect(quick.afterServerUpMs(0.5)).toBe(5);
  });
});

describe('Reconnect policy: a chat server that keeps refusing the sign-in is tried again only after a long wait, not every few seconds (issue 13: a refused login is no outage)', () => {
  const { refusedLoginsBeforeBackoff, afterRefusedLoginsMs, refusedLoginsJitterMs } = RECONNECT_POLICY;

  it('keeps the usual schedule until the refusals make a run', () => {
    expect(policy.next({ attemptsSoFar: 0, loginsRefusedInARow: 1, random: 0 })).toEqual({ delayMs: RECONNECT.stepMs, waitForServer: false });
    expect(policy.next({ attemptsSoFar: 5, loginsRefusedInARow: refusedLoginsBeforeBackoff - 1, random: 0 }).waitForServer).toBe(true);
  });

  it(`after ${refusedLoginsBeforeBackoff} refusals in a row, waits ${afterRefusedLoginsMs / 1000} s plus up to ${refusedLoginsJitterMs / 1000} s, without asking the gateway (the server is up)`, () => {
    for (const loginsRefusedInARow of [refusedLoginsBeforeBackoff, 50]) {
      expect(policy.next({ attemptsSoFar: loginsRefusedInARow, loginsRefusedInARow, random: 0 })).toEqual({ delayMs: afterRefusedLoginsMs, waitForServer: false });
      expect(policy.next({ attemptsSoFar: loginsRefusedInARow, loginsRefusedInARow, random: 0.5 })).toEqual({ delayMs: afterRefusedLoginsMs + 0.5 * refusedLoginsJitterMs, waitForServer: false });
    }
  });
});
