import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eCounts, flakyCases, withFailedRun } from '../../scripts/lib/suiteReport.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const PROJECT = join(ROOT, 'tests', 'support', 'retried-cases');

describe('npm test: an end-to-end case that fails runs once more; one that passes only then counts as passed and is named, one that fails again counts as failed (run contract)', () => {
  let reports: string;
  let report: JSONReport;
  let exitStatus: number | null;

  beforeAll(() => {
    reports = mkdtempSync(join(tmpdir(), 'parley-e2e-report-'));
    const output = join(reports, 'report.json');
    // Real Playwright, as npm test runs it (--retries, the JSON reporter), on cases that need no browser.
    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'playwright'), ['test', '-c', join(PROJECT, 'playwright.config.mjs'), '--retries=1', '--reporter=json'], {
      cwd: ROOT,
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: output },
      encoding: 'utf8',
    });
    exitStatus = run.status;
    report = JSON.parse(readFileSync(output, 'utf8')) as JSONReport;
  }, 60_000);

  afterAll(() => rmSync(reports, { recursive: true, force: true }));

  it('counts the case that passed on its retry as passed and the one that failed twice as failed', () => {
    expect(exitStatus).toBe(1);
    expect(withFailedRun(e2eCounts(report), false)).toEqual({ passed: 2, failed: 1, skipped: 0 });
  });

  it('names only the case that passed on its retry, by file, line and title', () => {
    expect(flakyCases(report)).toEqual(['retried-cases.spec.mjs:7 › fails on its first run, passes on its retry']);
  });

  it('a run that failed before it could report counts one failure', () => {
    expect(withFailedRun(e2eCounts(undefined), false)).toEqual({ passed: 0, failed: 1, skipped: 0 });
  });
});
