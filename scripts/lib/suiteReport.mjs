// What `npm test` reads from a suite's report: the counts for its totals, and the end-to-end cases
// that passed only on a retry, which it names.

/** A run that failed with no failed case in its counts (it failed before reporting, or a suite did not load) still counts one failure. */
export function withFailedRun(counts, ok) {
  return !ok && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

/** Passed (a case that passed on a retry included), failed and skipped cases of a Playwright JSON report. */
export function e2eCounts(report) {
  const stats = report?.stats;
  return stats ? { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped } : { passed: 0, failed: 0, skipped: 0 };
}

/** `file:line › title` of each case that failed, then passed on a retry. */
export function flakyCases(report) {
  const found = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      if (spec.tests.some((run) => run.status === 'flaky')) found.push(`${spec.file}:${spec.line} › ${spec.title}`);
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report?.suites ?? []) visit(suite);
  return found;
}
