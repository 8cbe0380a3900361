/** How many times each timed benchmark runs; the table shows the median. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 10);

/** One line of the table: what was measured, its value on this machine, and DESIGN.md's target. */
export interface Row {
  metric: string;
  measured: string;
  target: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function printTable(rows: readonly Row[]): void {
  const width = (key: keyof Row) => Math.max(key.length, ...rows.map((row) => row[key].length));
  const line = (row: Row) => `| ${row.metric.padEnd(width('metric'))} | ${row.measured.padEnd(width('measured'))} | ${row.target.padEnd(width('target'))} |`;
  console.log(`\nMedian of ${RUNS} runs on ${process.env.HOSTNAME ?? 'this machine'}, loopback, headless Chromium with the fake camera.\n`);
  console.log(line({ metric: 'metric', measured: 'measured', target: 'target' }));
  console.log(`|${'-'.repeat(width('metric') + 2)}|${'-'.repeat(width('measured') + 2)}|${'-'.repeat(width('target') + 2)}|`);
  for (const row of rows) console.log(line(row));
}
