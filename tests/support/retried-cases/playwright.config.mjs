// The Playwright project tests/integration/e2e-report.test.ts runs: no browser, three cases whose
// outcome depends only on which run of theirs it is.
import { defineConfig } from '@playwright/test';

export default defineConfig({ testDir: '.', testMatch: 'retried-cases.spec.mjs', workers: 1 });
