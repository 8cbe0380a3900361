// What each side of a side-by-side measurement gave, run by run, and the order the sides take turns
// in: the bench's comparisons (Parley beside the reference, one build beside another) share them.
import { median } from './table';

/** What one side gave for one measurement: the values, and why the runs that gave none failed. */
export class Samples<T> {
  readonly values: T[] = [];
  readonly failures: string[] = [];

  async take(what: string, measure: () => Promise<T>): Promise<void> {
    try {
      this.values.push(await measure());
    } catch (error) {
      const reason = `${what}: ${(error as Error).message.split('\n')[0]}`;
      this.failures.push(reason);
      console.error(`[bench] run failed — ${reason}`);
    }
  }

  /**
   * `median unit (min–max)`, with the failed runs counted; `scale` turns a value into the unit. With
   * `failedAsSlowest` (a time: lower is better) a failed run counts in the median as slower than any
   * that finished, so a client whose runs fail cannot look faster for it.
   */
  summary(pick: (value: T) => number, unit: string, digits: number, scale = 1, failedAsSlowest = false): string {
    const numbers = this.values.map((value) => pick(value) * scale);
    const failed = this.failures.length ? `, ${this.failures.length} of ${this.failures.length + numbers.length} runs failed` : '';
    if (numbers.length === 0) return `no run finished${failed}`;
    const spread = numbers.length > 1 ? ` (${Math.min(...numbers).toFixed(digits)}–${Math.max(...numbers).toFixed(digits)})` : '';
    const middle = this.median(numbers, failedAsSlowest);
    if (middle === Infinity) return `most runs failed${failed}`;
    return `${middle.toFixed(digits)} ${unit}${spread}${failed}`;
  }

  /** The median of `numbers`, and of this side's failed runs as +∞ when `failedAsSlowest`. */
  median(numbers: readonly number[], failedAsSlowest: boolean): number {
    return median(failedAsSlowest ? [...numbers, ...this.failures.map(() => Infinity)] : numbers);
  }
}

/**
 * The median of `side` over the median of `base`, or — when either has no value (or, with
 * `failedAsSlowest`, when most of either's runs failed).
 */
export function ratio<T>(side: Samples<T>, base: Samples<T>, pick: (value: T) => number, failedAsSlowest = false): string {
  if (side.values.length === 0 || base.values.length === 0) return '—';
  const sideMedian = side.median(side.values.map(pick), failedAsSlowest);
  const baseMedian = base.median(base.values.map(pick), failedAsSlowest);
  if (!Number.isFinite(sideMedian) || !Number.isFinite(baseMedian)) return '—';
  return (sideMedian / baseMedian).toFixed(2);
}

/** Runs both sides' measurements, the first side first on even runs and the second first on odd ones, so the machine's drift touches both alike. */
export async function alternately(run: number, first: () => Promise<void>, second: () => Promise<void>): Promise<void> {
  for (const measure of run % 2 === 0 ? [first, second] : [second, first]) await measure();
}
