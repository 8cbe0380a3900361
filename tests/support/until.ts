import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * Yields to the event loop until `condition` holds. Used with fake time: real I/O (a local server)
 * completes between yields; no wall-clock sleep decides the outcome.
 */
export async function until(condition: () => boolean, what = 'condition', maxYields = 200_000): Promise<void> {
  for (let i = 0; i < maxYields; i += 1) {
    if (condition()) return;
    await yieldToEventLoop();
  }
  throw new Error(`gave up waiting for ${what}`);
}
