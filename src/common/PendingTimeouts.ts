import type { Clock } from './clock';

/** One-shot timeouts on the injected clock, dropped all at once by `clear`: what still waits goes with its owner. */
export class PendingTimeouts {
  private readonly waiting = new Set<unknown>();

  constructor(private readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>) {}

  after(delayMs: number, callback: () => void): void {
    const handle = this.clock.setTimeout(() => {
      this.waiting.delete(handle);
      callback();
    }, delayMs);
    this.waiting.add(handle);
  }

  clear(): void {
    for (const handle of this.waiting) this.clock.clearTimeout(handle);
    this.waiting.clear();
  }
}
