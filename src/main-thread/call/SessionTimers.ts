import { SESSION_CONNECT_LIMIT_MS } from '../../protocol/clientDefaults';
import { SESSION_TERMINATION } from '../../protocol/constants';
import type { Clock } from '../../common/clock';

/**
 * The call's SPEC §4 timers on the injected clock: a session disconnected or interrupted for 5 s
 * (or ours whose ICE failed and whose restart has not brought it back: termination.isInterrupted)
 * is ended, and a peer whose session failed is held back from new sessions until its recompute
 * delay has passed. Beyond the spec, a session that has not connected SESSION_CONNECT_LIMIT_MS after
 * it was made is ended too.
 */
export class SessionTimers {
  private readonly interrupted = new Map<string, unknown>();
  private readonly connecting = new Map<string, unknown>();
  private readonly holds = new Map<string, unknown>();

  constructor(private readonly clock: Clock) {}

  /** Peers held after a failure. */
  get held(): ReadonlySet<string> {
    return new Set(this.holds.keys());
  }

  /** Starts the 5 s limit for a session (kept if already running). */
  watchInterrupted(sid: string, expired: () => void): void {
    if (!this.interrupted.has(sid)) this.arm(this.interrupted, sid, SESSION_TERMINATION.interruptedTimeoutMs, expired);
  }

  stopWatching(sid: string): void {
    this.disarm(this.interrupted, sid);
  }

  /** Starts the limit for a new session to connect (SESSION_CONNECT_LIMIT_MS). */
  watchConnecting(sid: string, expired: () => void): void {
    this.arm(this.connecting, sid, SESSION_CONNECT_LIMIT_MS, expired);
  }

  /** The session connected, or ended. */
  stopConnecting(sid: string): void {
    this.disarm(this.connecting, sid);
  }

  /** Holds a peer for `delayMs`, then calls `released` (a later failure restarts the delay). */
  hold(peerAddress: string, delayMs: number, released: () => void): void {
    this.arm(this.holds, peerAddress, delayMs, released);
  }

  /** One timer per key of `timers`: started anew (any running one cleared), forgotten as it fires. */
  private arm(timers: Map<string, unknown>, key: string, delayMs: number, expired: () => void): void {
    this.disarm(timers, key);
    timers.set(
      key,
      this.clock.setTimeout(() => {
        timers.delete(key);
        expired();
      }, delayMs),
    );
  }

  private disarm(timers: Map<string, unknown>, key: string): void {
    this.clock.clearTimeout(timers.get(key));
    timers.delete(key);
  }

  clear(): void {
    for (const handle of [...this.interrupted.values(), ...this.connecting.values(), ...this.holds.values()]) this.clock.clearTimeout(handle);
    this.interrupted.clear();
    this.connecting.clear();
    this.holds.clear();
  }
}
