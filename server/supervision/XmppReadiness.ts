import type { Clock } from '../../src/common/clock';

export interface XmppReadinessSettings {
  /** Waiting clients told per second that the XMPP server is back (a restart is not met by everyone at one instant). */
  releasesPerSecond: number;
  /** The longest a question is held: then it is answered "still down", and the client asks again. */
  maxWaitMs: number;
  /** Questions held at once; one more is answered "still down" at once. */
  maxWaiters: number;
}

/** The gateway's defaults; `releasesPerSecond` is PARLEY_XMPP_RECONNECTS_PER_SECOND (server/settings.ts). */
export const XMPP_READINESS_DEFAULTS: XmppReadinessSettings = { releasesPerSecond: 200, maxWaitMs: 20_000, maxWaiters: 20_000 };

/** Releases go out in batches this often (releasesPerSecond spread over the second). */
const RELEASE_TICK_MS = 100;

interface Waiter {
  answer: (up: boolean) => void;
  timer: unknown;
}

/**
 * Whether the XMPP server is up, as its supervisor knows it, for clients waiting to reconnect
 * (issue 13): a tab's session asks the gateway instead of guessing with timers, and is answered as
 * soon as the server accepts connections again. Those waiting when it comes back are released at
 * `releasesPerSecond`, oldest first, so a crowd's logins are spread by the one part that knows how
 * big the crowd is.
 */
export class XmppReadiness {
  private isUp: boolean;
  private since: number | undefined;
  private readonly waiters: Waiter[] = [];
  private releasing: unknown;

  constructor(
    private readonly clock: Clock,
    private readonly settings: XmppReadinessSettings,
    up = true,
  ) {
    this.isUp = up;
    this.since = up ? clock.now() : undefined;
  }

  get up(): boolean {
    return this.isUp;
  }

  /** When the server now running began accepting connections; undefined while it is down. */
  get upSince(): number | undefined {
    return this.since;
  }

  /** Waiting now (for tests and health). */
  get waiting(): number {
    return this.waiters.length;
  }

  markDown(): void {
    this.isUp = false;
    this.since = undefined;
    this.stopReleasing();
  }

  /** The server accepts connections again: those waiting are released, a batch per tick. */
  markUp(): void {
    if (this.isUp) return;
    this.isUp = true;
    this.since = this.clock.now();
    this.releaseBatch();
  }

  /**
   * Resolves true once the server is up and it is this question's turn (at once when it is up and
   * nobody waits before it), false after `maxWaitMs`, at once when too many wait, or when `gone`
   * fires (the client went away).
   */
  whenUp(gone?: (stop: () => void) => void): Promise<boolean> {
    if (this.isUp && this.waiters.length === 0) return Promise.resolve(true);
    if (this.waiters.length >= this.settings.maxWaiters) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        answer: (up) => {
          this.clock.clearTimeout(waiter.timer);
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve(up);
        },
        timer: this.clock.setTimeout(() => waiter.answer(false), this.settings.maxWaitMs),
      };
      this.waiters.push(waiter);
      gone?.(() => waiter.answer(false));
    });
  }

  /** Shutdown: every question is answered "down". */
  close(): void {
    this.stopReleasing();
    for (const waiter of [...this.waiters]) waiter.answer(false);
  }

  private releaseBatch(): void {
    this.releasing = undefined;
    if (!this.isUp) return;
    const batch = Math.max(1, Math.round((this.settings.releasesPerSecond * RELEASE_TICK_MS) / 1000));
    for (const waiter of this.waiters.slice(0, batch)) waiter.answer(true);
    if (this.waiters.length > 0) this.releasing = this.clock.setTimeout(() => this.releaseBatch(), RELEASE_TICK_MS);
  }

  private stopReleasing(): void {
    if (this.releasing !== undefined) this.clock.clearTimeout(this.releasing);
    this.releasing = undefined;
  }
}
