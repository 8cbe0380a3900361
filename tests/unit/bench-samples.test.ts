import { describe, expect, it } from 'vitest';
import { ratio, Samples } from '../../scripts/bench/samples';

/** A side of the bench's comparison with these join times (ms) and this many failed runs. */
async function side(times: readonly number[], failed: number): Promise<Samples<number>> {
  const samples = new Samples<number>();
  for (const time of times) await samples.take('a run', () => Promise.resolve(time));
  for (let run = 0; run < failed; run += 1) {
    await samples.take('a run', () => Promise.reject(new Error('timed out')));
  }
  return samples;
}

describe('The bench’s join rows count a failed run as the slowest, so a client whose joins fail cannot look faster for it (issue 14)', () => {
  it('a failed run moves the median up, as a slow one would; the cell says how many failed', async () => {
    const parley = await side([300, 400, 500], 2);
    const reference = await side([600, 600, 600], 0);
    expect(parley.summary((ms) => ms, 's', 2, 1 / 1000, true)).toBe('0.50 s (0.30–0.50), 2 of 5 runs failed');
    expect(ratio(parley, reference, (ms) => ms, true)).toBe('0.83');
    // Left out, as the rows did before: the failed runs would have made it look faster.
    expect(ratio(parley, reference, (ms) => ms)).toBe('0.67');
  });

  it('with most runs failed, no median and no ratio are given', async () => {
    const parley = await side([300], 2);
    const reference = await side([600], 0);
    expect(parley.summary((ms) => ms, 's', 2, 1 / 1000, true)).toBe('most runs failed, 2 of 3 runs failed');
    expect(ratio(parley, reference, (ms) => ms, true)).toBe('—');
  });
});
