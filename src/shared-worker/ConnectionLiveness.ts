import type { Agent } from 'stanza';
import type { Clock } from '../common/clock';

export interface LivenessSettings {
  quietMs: number;
  answerWithinMs: number;
  startWithinMs: number;
}

/**
 * Issue 13: notices a connection that went dead without closing (a broken Wi-Fi: no offline event,
 * no close; the socket only stops carrying anything). After `quietMs` without a byte from the
 * server it pings the server (XEP-0199); a byte of any kind within `answerWithinMs` keeps it alive,
 * none and `dead` is called, once. Runs on the session's clock.
 */
export class ConnectionLiveness {
  private lastHeardAt: number;
  private timer: unknown;
  /** When the ping went out, while its answer is awaited. */
  private askedAt: number | undefined;
  private stopped = false;
  private readonly heard = (): void => {
    this.lastHeardAt = this.clock.now();
  };

  constructor(
    private readonly client: Agent,
    private readonly clock: Clock,
    private readonly settings: LivenessSettings,
    private readonly dead: () => void,
  ) {
    this.lastHeardAt = clock.now();
    client.on('raw:incoming', this.heard);
    this.arm(settings.quietMs);
  }

  /**
   * Asks now rather than after the quiet time: the network path may have changed under the
   * connection (an `online` event), leaving its socket dead. A ping already out is awaited as it is.
   */
  checkNow(): void {
    if (this.stopped || this.askedAt !== undefined) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.ask();
  }

  stop(): void {
    this.stopped = true;
    this.client.off('raw:incoming', this.heard);
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    this.timer = this.clock.setTimeout(() => this.check(), delayMs);
  }

  private check(): void {
    this.timer = undefined;
    if (this.stopped) return;
    if (this.askedAt !== undefined) {
      const answered = this.lastHeardAt >= this.askedAt;
      this.askedAt = undefined;
      if (!answered) {
        this.stop();
        this.dead();
        return;
      }
    }
    const quietFor = this.clock.now() - this.lastHeardAt;
    if (quietFor < this.settings.quietMs) {
      this.arm(this.settings.quietMs - quietFor);
      return;
    }
    this.ask();
  }

  private ask(): void {
    // Any byte from the server answers: the ping's own promise may settle much later (its own timeout).
    this.askedAt = this.clock.now();
    this.client.ping().catch(() => undefined);
    this.arm(this.settings.answerWithinMs);
  }
}
