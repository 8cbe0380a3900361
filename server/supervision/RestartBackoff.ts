/** Bounds on how fast a crashed part is restarted. */
export interface RestartBackoffSettings {
  /** The wait before the first restart. */
  firstDelayMs: number;
  /** The longest wait: each restart in a row doubles the wait up to this. */
  maxDelayMs: number;
  /** A part that stayed up this long since its last restart starts again from the first delay. */
  stableAfterMs: number;
}

export const RESTART_BACKOFF: RestartBackoffSettings = { firstDelayMs: 250, maxDelayMs: 30_000, stableAfterMs: 60_000 };

/**
 * Exponential, bounded restart delays for a supervised part (Prosody, a relay worker): a part that
 * crashes once comes back at once; one that keeps crashing is not restarted in a tight loop.
 */
export class RestartBackoff {
  private restartsInARow = 0;
  private lastRestartAt: number | undefined;

  constructor(
    private readonly settings: RestartBackoffSettings = RESTART_BACKOFF,
    private readonly now: () => number = Date.now,
  ) {}

  /** The wait before restarting something that just died (counts as a restart). */
  nextDelayMs(): number {
    const now = this.now();
    if (this.lastRestartAt !== undefined && now - this.lastRestartAt >= this.settings.stableAfterMs) this.restartsInARow = 0;
    const delay = Math.min(this.settings.firstDelayMs * 2 ** this.restartsInARow, this.settings.maxDelayMs);
    this.restartsInARow += 1;
    this.lastRestartAt = now;
    return delay;
  }

  /** Restarts in a row so far (1 for the first). */
  get count(): number {
    return this.restartsInARow;
  }
}
