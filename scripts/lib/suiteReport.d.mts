import type { JSONReport } from '@playwright/test/reporter';

export interface SuiteCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export function withFailedRun(counts: SuiteCounts, ok: boolean): SuiteCounts;
export function e2eCounts(report: JSONReport | undefined): SuiteCounts;
export function flakyCases(report: JSONReport | undefined): string[];
