import type { JSONReport } from '@playwright/test/reporter';

export interface E2eCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export function e2eCounts(report: JSONReport | undefined, ok: boolean): E2eCounts;
export function flakyCases(report: JSONReport | undefined): string[];
