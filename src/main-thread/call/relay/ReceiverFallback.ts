import type { Clock } from '../../../common/clock';
import { RELAY_RECEIVER_FALLBACK } from '../../../protocol/clientDefaults';
import { relayRetryDelayMs } from './backoff';

/** One delivery's failures on the relay: in a row, and how often the mesh was given it since its consumer last connected. */
interface Failing {
  failures: number;
  fallbacks: number;
  /** Set while the mesh carries the delivery: when it fires the relay is tried again. */
  retryTimer: unknown;
}

/**
 * The deliveries whose receiver the relay failed (RELAY_RECEIVER_FALLBACK): their consumer refused
 * for one of the relay's bounds, or failing so many times in a row. Such a delivery is the mesh's
 * (pathPlan's `relayFailed`) until the relay is tried for it again, after RELAY_RECONNECT's backoff;
 * a consumer of it that connects ends the count. Without this a refused receiver got nothing from
 * us, its consumer asked for every 2 s for the rest of the call.
 */
export class ReceiverFallback {
  private readonly failing = new Map<string, Failing>();

  constructor(
    private readonly clock: Clock,
    /** The relay may be tried again for a delivery: recompute. */
    private readonly retry: () => void,
  ) {}

  /** The mesh carries this delivery now. */
  has(key: string): boolean {
    return this.failing.get(key)?.retryTimer !== undefined;
  }

  /**
   * A consumer of the delivery failed; `refused` when the relay will not make it at all. Returns
   * whether the mesh carries the delivery from now on.
   */
  failed(key: string, refused: boolean): boolean {
    const entry = this.failing.get(key) ?? { failures: 0, fallbacks: 0, retryTimer: undefined };
    this.failing.set(key, entry);
    entry.failures += 1;
    if (!refused && entry.failures < RELAY_RECEIVER_FALLBACK.failures) return false;
    if (entry.retryTimer === undefined) {
      entry.retryTimer = this.clock.setTimeout(() => {
        entry.retryTimer = undefined;
        this.retry();
      }, relayRetryDelayMs(entry.fallbacks, this.clock));
      entry.fallbacks += 1;
    }
    return true;
  }

  /** A consumer of the delivery connected: the relay serves its receiver. */
  connected(key: string): void {
    const entry = this.failing.get(key);
    if (!entry) return;
    this.clock.clearTimeout(entry.retryTimer);
    this.failing.delete(key);
  }

  clear(): void {
    for (const entry of this.failing.values()) this.clock.clearTimeout(entry.retryTimer);
    this.failing.clear();
  }
}
