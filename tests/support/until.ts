import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** Bounds the wait in real time: what a local server does takes milliseconds, also under load. */
const GIVE_UP_AFTER_MS = 10_000;

/** Real elapsed time, which fake timers (vi.useFakeTimers, Date and performance included) leave alone. */
function realMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/**
 * Yields to the event loop until `condition` holds. Used with fake time: real I/O (a local server)
 * completes between yields; no wall-clock sleep decides the outcome, and a loaded machine only
 * makes the wait longer.
 */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = realMs() + GIVE_UP_AFTER_MS;
  while (!condition()) {
    if (realMs() > deadline) throw new Error(`gave up waiting for ${what}`);
    await yieldToEventLoop();
  }
}
