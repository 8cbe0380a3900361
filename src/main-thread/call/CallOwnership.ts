/** The part of Web Locks the call needs (navigator.locks in a tab). */
export interface CallLocks {
  request(name: string, options: { signal?: AbortSignal }, granted: () => Promise<void>): Promise<unknown>;
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

  /** Resolves true once the lock is held, false when released before it was granted. */
  acquire(): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.locks
        .request(callLockName(this.roomAddress), { signal: this.cancelled.signal }, () => {
          resolve(true);
          return new Promise<void>((unlock) => (this.unlock = unlock));
        })
        .catch((error: unknown) => (this.cancelled.signal.aborted ? resolve(false) : reject(error)));
    });
  }

  release(): void {
    this.cancelled.abort();
    this.unlock?.();
    this.unlock = undefined;
  }
}
