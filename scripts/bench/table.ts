import type { BuildsRow } from './builds';

/** How many times each timed benchmark runs; the table shows the median. BENCH_QUICK=1 runs each once. */
export const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK ? 1 : 10));

/** One line of the table: what was measured, its value on this machine, and DESIGN.md's target. */
export interface Row {
  metric: string;
  measured: string;
  target: string;
}

/** One line of the side-by-side table: Parley, the SimpleWebRTC 1.30.3 reference in the same run, Parley/reference, and the target. */
export interface ComparedRow {
  metric: string;
  parley: string;
  reference: string;
  ratio: string;
  target: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A markdown table with padded columns. */
function printMarkdown(header: readonly string[], lines: readonly (readonly string[])[]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const cells of lines) console.log(line(cells));
}

export function printTable(rows: readonly Row[], heading = `Median of ${RUNS} runs on ${process.env.HOSTNAME ?? 'this machine'}, loopback, headless Chromium with the fake camera.`): void {
  console.log(`\n${heading}\n`);
  printMarkdown(
    ['metric', 'measured', 'target'],
    rows.map((row) => [row.metric, row.measured, row.target]),
  );
}

export function printComparison(rows: readonly ComparedRow[]): void {
  console.log('\nParley beside SimpleWebRTC 1.30.3 on the same servers, alternating runs, a fresh browser per run: median (min–max).\n');
  printMarkdown(
    ['metric', 'Parley', 'SimpleWebRTC 1.30.3, same run', 'ratio', 'target'],
    rows.map((row) => [row.metric, row.parley, row.reference, row.ratio, row.target]),
  );
}

/** Two builds of the app side by side (scripts/bench/builds.ts): median (min–max) of each, and B over A. */
export function printBuilds(rows: readonly BuildsRow[], a: string, b: string): void {
  console.log(`\nTwo builds on the same join, alternating runs, a fresh browser per run: median (min–max).\nA: ${a}\nB: ${b}\n`);
  printMarkdown(
    ['metric', 'A', 'B', 'B / A'],
    rows.map((row) => [row.metric, row.a, row.b, row.ratio]),
  );
}

/** The join timeline (scripts/bench/timeline.ts): each step, when it came, and what it is. */
export function printTimeline(rows: readonly Row[], runs: number, people = 2): void {
  const join = people === 2 ? 'The two-person mesh join' : `The ${people === 3 ? 'three' : 'four'}-person relay join`;
  console.log(`\n${join}, step by step: ms after navigation, median of ${runs} runs (Parley's newcomer).\n`);
  printMarkdown(
    ['step', 'after navigation', 'what it is'],
    rows.map((row) => [row.metric, row.measured, row.target]),
  );
}
