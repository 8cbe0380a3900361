import type { Clock } from '../../src/common/clock';

interface Timer {
  id: number;
  due: number;
  callback: () => void;
  interval: number | undefined;
}

/** Fake time for the injected Clock: timers run only when the test advances the clock. */
export class ManualClock implements Clock {
  private time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();
  /** What `random()` returns; tests set it to pin jitter. */
  randomValue = 0.5;

  now(): number {
    return this.time;
  }

  random(): number {
    return this.randomValue;
  }

  setTimeout(callback: () => void, delayMs: number): number {
    return this.add(callback, delayMs, undefined);
  }

  setInterval(callback: () => void, intervalMs: number): number {
    return this.add(callback, intervalMs, intervalMs);
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  clearInterval(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Delays of the timers now pending, soonest first, relative to now. */
  pendingDelays(): number[] {
    return [...this.timers.values()].map((timer) => timer.due - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward, running every timer that falls due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.timers.values()].filter((timer) => timer.due <= end).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.time = next.due;
      if (next.interval === undefined) this.timers.delete(next.id);
      else next.due += next.interval;
      next.callback();
      // Let promise chains started by the callback reach their next timer.
      await flushMicrotasks();
    }
    this.time = end;
    await flushMicrotasks();
  }

  private add(callback: () => void, delayMs: number, interval: number | undefined): number {
    const id = this.nextId++;
    this.timers.set(id, { id, due: this.time + Math.max(0, delayMs), callback, interval });
    return id;
  }
}

export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}
