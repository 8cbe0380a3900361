import { PARLEY_BUILD } from '../../protocol/tabs';

/** The part of Web Locks the call needs (navigator.locks in a tab). */
export interface CallLocks {
  request(name: string, options: LockRequestOptions, granted: (lock: unknown) => Promise<void> | undefined): Promise<unknown>;
}

interface LockRequestOptions {
  signal?: AbortSignal;
  ifAvailable?: boolean;
  steal?: boolean;
}

/**
 * The Web Lock a tab holds while it runs a room's call (DESIGN: exactly one tab per room runs it).
 * Named with the build: a tab of another build has a session of its own, whose call this one's
 * lock must neither wait for nor take.
 */
export function callLockName(roomAddress: string, build: string = PARLEY_BUILD): string {
  return `parley:call:${build}:${roomAddress}`;
}

/**
 * Holds the room's call lock for as long as this tab runs the call. While another tab of the same
 * browser runs it, `acquire` waits: when that tab closes, this one takes over; `takeOver` takes it
 * at once ("Move call here"), and the tab it was taken from hears `taken`.
 */
export class CallOwnership {
  private readonly cancelled = new AbortController();
  private unlock: (() => void) | undefined;
  /** While `acquire` waits behind another tab: stops waiting and takes the lock from it. */
  private takeNow: (() => void) | undefined;

  constructor(
    private readonly roomAddress: string,
    private readonly locks: CallLocks,
    /** Another tab took the lock while this one held it: this tab no longer runs the call. */
    private readonly taken: () => void = () => undefined,
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
    const queue = new AbortController();
    let taking: Promise<boolean> | undefined;
    this.takeNow = () => {
      taking ??= this.request({ steal: true });
      queue.abort();
    };
    const granted = await this.request({ signal: AbortSignal.any([this.cancelled.signal, queue.signal]) });
    this.takeNow = undefined;
    return taking ?? granted;
  }

  /** While waiting for another tab of yours to let the call go: takes it from that tab now. */
  takeOver(): void {
    this.takeNow?.();
  }

  release(): void {
    this.cancelled.abort();
    this.unlock?.();
    this.unlock = undefined;
  }

  /**
   * One lock request: true once granted and held until `release`; false when not granted
   * (ifAvailable, its signal aborted, or released first). A held lock taken by another tab's steal
   * is told to `taken`.
   */
  private request(options: LockRequestOptions): Promise<boolean> {
    let held = false;
    return new Promise((resolve, reject) => {
      this.locks
        .request(callLockName(this.roomAddress), options, (lock) => {
          // Not granted (held elsewhere), or granted after `release`: nothing is held.
          if (lock === null || this.cancelled.signal.aborted) {
            resolve(false);
            return undefined;
          }
          held = true;
          resolve(true);
          return new Promise<void>((unlock) => (this.unlock = unlock));
        })
        .catch((error: unknown) => {
          if (held) {
            // Stolen (Web Locks rejects the holder's request with AbortError).
            this.unlock = undefined;
            if (!this.cancelled.signal.aborted) this.taken();
          } else if (this.cancelled.signal.aborted || options.signal?.aborted) resolve(false);
          else reject(error);
        });
    });
  }
}
