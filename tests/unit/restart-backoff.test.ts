import { describe, expect, it } from 'vitest';
import { RestartBackoff } from '../../server/supervision/RestartBackoff';

const settings = { firstDelayMs: 250, maxDelayMs: 2_000, stableAfterMs: 60_000 };

function backoffAt(): { backoff: RestartBackoff; setNow: (time: number) => void } {
  let now = 0;
  return { backoff: new RestartBackoff(settings, () => now), setNow: (time) => (now = time) };
}

describe('Supervision: a crashed part is restarted at once, one that keeps crashing ever more slowly, up to a bound (issue 13)', () => {
  it('doubles the wait for each restart in a row, up to the maximum', () => {
    const { backoff } = backoffAt();
    expect([1, 2, 3, 4, 5, 6].map(() => backoff.nextDelayMs())).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000]);
    expect(backoff.count).toBe(6);
  });

  it('starts again from the first wait once the part stayed up long enough', () => {
    const { backoff, setNow } = backoffAt();
    backoff.nextDelayMs();
    setNow(1_000);
    expect(backoff.nextDelayMs()).toBe(500);
    setNow(1_000 + settings.stableAfterMs);
    expect(backoff.nextDelayMs()).toBe(250);
    expect(backoff.count).toBe(1);
  });
});
