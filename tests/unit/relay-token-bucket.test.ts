import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenBucket } from '../../server/relay/TokenBucket';

afterEach(() => vi.useRealTimers());

describe('A relay connection’s request bucket is not emptied by a clock stepped back', () => {
  it('an injected clock stepped back 60 s and then on 1 s: the bucket has refilled the second’s tokens, not lost 60 s of them', () => {
    let now = 1_000_000;
    const bucket = new TokenBucket(60, 20, () => now);
    for (let taken = 0; taken < 60; taken++) bucket.take();

    now -= 60_000;
    expect(bucket.take()).toBe(false);
    now += 1_000;
    expect(bucket.take()).toBe(true);
  });

  it('by default it follows a monotonic clock: the wall clock set back 60 s takes no token away', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const bucket = new TokenBucket(2, 1);
    expect(bucket.take()).toBe(true);

    vi.setSystemTime(Date.now() - 60_000);
    expect(bucket.take()).toBe(true);
  });
});
