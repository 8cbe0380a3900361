import { performance } from 'node:perf_hooks';

/**
 * A token bucket: `capacity` requests at once, refilled at `perSecond`. Its clock is monotonic by
 * default: a wall clock stepped back would otherwise take tokens away and lock its user out.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = capacity;
    this.refilledAt = now();
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    const now = this.now();
    // A clock that went back refills nothing (an injected one may not be monotonic).
    const elapsedMs = Math.max(0, now - this.refilledAt);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsedMs / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
