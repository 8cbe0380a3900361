/** The part of Web Locks the call needs (navigator.locks in a tab). */
export interface CallLocks {
  request(name: string, options: { signal?: AbortSignal; ifAvailable?: boolean }, granted: (lock: unknown) => Promise<void> | undefined): Promise<unknown>;
}

/** The Web Lock a tab holds while it runs a room's call (DESIGN: exactly one tab per room runs it). */
export function callLockName(roomAddress: string): string {
  return `parley:call:${roomAddress}`;
}

/**
 * Holds the room's call lock for as long as this tab runs the call. While another tab of the same
 * browser runs it, `acquire` waits: when that tab closes, this one takes over.
 */
export class CallOwnership {
  private readonly cancelled = new AbortController();
  private unlock: (() => void) | undefined;

  constructor(
    private readonly roomAddress: string,
    private readonly locks: CallLocks,
  ) {}

  /**
   * Resolves true once the lock is held, false when released before it was granted. The lock is
   * asked for only if it is free first, so that one request says both "free" and "ours" (issue 14:
   * the join's click is followed by one lock round trip, not a query and a request); when another
   * tab holds it, `whileHeldElsewhere` is told before this tab waits for it.
   */
  async acquire(whileHeldElsewhere: () => void = () => undefined): Promise<boolean> {
    if (await this.request({ ifAvailable: true })) return true;
    if (this.cancelled.signal.aborted) return false;
    whileHeldElsewhere();
    return this.request({ signal: this.cancelled.signal });
  }

  release(): void {
    this.cancelled.abort();
    this.unlock?.();
    this.unlock = undefined;
  }

  /** One lock request: true once granted and held until `release`; false when not granted (ifAvailable, or released first). */
  private request(options: { signal?: AbortSignal; ifAvailable?: boolean }): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.locks
        .request(callLockName(this.roomAddress), options, (lock) => {
          // Not granted (held elsewhere), or granted after `release`: nothing is held.
          if (lock === null || this.cancelled.signal.aborted) {
            resolve(false);
            return undefined;
          }
          resolve(true);
          return new Promise<void>((unlock) => (this.unlock = unlock));
        })
        .catch((error: unknown) => (this.cancelled.signal.aborted ? resolve(false) : reject(error)));
    });
  }
}
