// What `npm test` reads from a Playwright JSON report: the counts for its totals, and the cases
// that passed only on a retry, which it names.

/** Passed (a case that passed on a retry included), failed and skipped cases; a run that failed before reporting counts one failure. */
export function e2eCounts(report, ok) {
  const stats = report?.stats;
  const counts = stats
    ? { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped }
    : { passed: 0, failed: 0, skipped: 0 };
  if (!ok && counts.failed === 0) counts.failed = 1;
  return counts;
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
