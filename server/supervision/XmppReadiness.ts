import type { Clock } from '../../src/common/clock';

export interface XmppReadinessSettings {
  /** Waiting clients told per second that the XMPP server is back (a restart is not met by everyone at one instant). */
  releasesPerSecond: number;
  /** The longest a question is held: then it is answered "still down", and the client asks again. */
  maxWaitMs: number;
  /** Questions held at once; one more is answered "still down" at once. */
  maxWaiters: number;
  /**
   * Questions held at once from one client address, answered beyond it as beyond `maxWaiters`: the
   * route needs no login, and one address must not take every place and leave everyone else "down".
   */
  maxWaitersPerAddress: number;
}

/**
 * The gateway's defaults; `releasesPerSecond` is PARLEY_XMPP_RECONNECTS_PER_SECOND and
 * `maxWaitersPerAddress` PARLEY_XMPP_READY_WAITERS_PER_ADDRESS (server/settings.ts): behind a load
 * balancer or proxy of your own every client shares its address, so raise it there.
 * `maxWaitersPerAddress`: a browser asks once (one session per origin, in its shared worker), so 32
 * covers a household or an office of browsers behind one NAT with margin; a larger crowd behind one
 * address is not cut off, its extra browsers ask again after their client's interval instead of being
 * held, while one address alone holds at most 32 of the 20,000 places.
 */
export const XMPP_READINESS_DEFAULTS: XmppReadinessSettings = { releasesPerSecond: 200, maxWaitMs: 20_000, maxWaiters: 20_000, maxWaitersPerAddress: 32 };

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
  /** Oldest first (a Set keeps insertion order), and a waiter that leaves is removed in O(1). */
  private readonly waiters = new Set<Waiter>();
  private readonly waitingByAddress = new Map<string, number>();
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
    return this.waiters.size;
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
   * nobody waits before it), false after `maxWaitMs`, at once when too many wait (from everywhere,
   * or from `clientAddress`, the asking connection's peer), or when `gone` fires (the client went away).
   */
  whenUp(clientAddress: string, gone?: (stop: () => void) => void): Promise<boolean> {
    if (this.isUp && this.waiters.size === 0) return Promise.resolve(true);
    const waitingFromAddress = this.waitingByAddress.get(clientAddress) ?? 0;
    if (this.waiters.size >= this.settings.maxWaiters || waitingFromAddress >= this.settings.maxWaitersPerAddress) return Promise.resolve(false);
    this.waitingByAddress.set(clientAddress, waitingFromAddress + 1);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        answer: (up) => {
          // Answered once: a timeout, a release and a departure may all come for the same waiter.
          if (!this.waiters.delete(waiter)) return;
          this.clock.clearTimeout(waiter.timer);
          this.forgetOneFrom(clientAddress);
          resolve(up);
        },
        timer: this.clock.setTimeout(() => waiter.answer(false), this.settings.maxWaitMs),
      };
      this.waiters.add(waiter);
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
    let released = 0;
    // Each answer deletes the waiter being visited, which a Set's iteration allows.
    for (const waiter of this.waiters) {
      if (released === batch) break;
      waiter.answer(true);
      released += 1;
    }
    if (this.waiters.size > 0) this.releasing = this.clock.setTimeout(() => this.releaseBatch(), RELEASE_TICK_MS);
  }

  private forgetOneFrom(clientAddress: string): void {
    const left = (this.waitingByAddress.get(clientAddress) ?? 1) - 1;
    if (left > 0) this.waitingByAddress.set(clientAddress, left);
    else this.waitingByAddress.delete(clientAddress);
  }

  private stopReleasing(): void {
    if (this.releasing !== undefined) this.clock.clearTimeout(this.releasing);
    this.releasing = undefined;
  }
}
