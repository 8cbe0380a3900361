// `npm test`: the whole suite on a fresh clone — typecheck, lint, unit + integration (vitest, real
// Prosody and relay), end-to-end (Playwright + Debian's Chromium in a loopback-only network
// namespace) — ending with one line of totals over every suite.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { e2eCounts, flakyCases, withFailedRun } from './lib/suiteReport.mjs';
import { ensureReferenceBuilt, ensureReferenceInstalled } from './lib/referenceSetup.mjs';
import { ensureAppBuilt, ensureDebianPackages, ensureNpmPackages, ensureRelayWorkerBuilt, inLoopbackNamespace, ROOT, SERVER_PACKAGES, TEST_PACKAGES } from './lib/setup.mjs';

const log = (line) => console.error(`[setup] ${line}`);
ensureDebianPackages([...SERVER_PACKAGES, ...TEST_PACKAGES], log);
await ensureRelayWorkerBuilt(log);
ensureNpmPackages(log);
ensureAppBuilt(log);
// The interop tests put SimpleWebRTC 1.30.3 (bench/reference) in a call with Parley.
ensureReferenceInstalled(log);
ensureReferenceBuilt(log);

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const reports = mkdtempSync(join(tmpdir(), 'parley-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function step(name, command, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  return { ok: result.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function record(name, counts, seconds) {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  lines.push(`${name.padEnd(24)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds} s)`);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** How many times `npm test` runs an end-to-end case again after a failure. */
const E2E_RETRIES = 1;

// Whole-program checks count as one test each.
for (const [name, command, args] of [
  ['typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
  ['lint', bin('eslint'), ['--max-warnings=0', '.']],
]) {
  const { ok, seconds } = step(name, command, args);
  record(name, { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 }, seconds);
}

{
  const output = join(reports, 'vitest.json');
  // Some integration tests drive Chromium against the relay: they too stay on loopback.
  const { command, args } = inLoopbackNamespace([bin('vitest'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${output}`]);
  const { ok, seconds } = step('unit + integration', command, args);
  const report = readJson(output);
  const counts = report
    ? { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests }
    : { passed: 0, failed: 0, skipped: 0 };
  record('vitest', withFailedRun(counts, ok), seconds);
}

// The fault cases of two people first (mostly waiting out their outages), then the rest.
// The mesh calls of three or more people and the relay calls run after the others, each alone:
// such a call already fills two cores, and beside another test's call its pages take seconds to
// answer and the relay's encoders drop the layers those tests check.
// A case that fails is run once more (`E2E_RETRIES`): real browsers on two shared cores now and then
// miss a step's time limit for want of a core. A case that passed only on its second run is named
// before the totals, with its first run's error above it in the list reporter's output, never hidden.
for (const project of ['faults', 'app', 'crowded calls', 'relay calls']) {
  const output = join(reports, `playwright-${project.replace(/\W/g, '-')}.json`);
  const { isolated, command, args } = inLoopbackNamespace([bin('playwright'), 'test', '--project', project, `--retries=${E2E_RETRIES}`, '--reporter=list,json']);
  if (!isolated) console.warn('not root: browser tests run without a loopback-only network namespace');
  const { ok, seconds } = step(`end-to-end: ${project}`, command, args, { PLAYWRIGHT_JSON_OUTPUT_NAME: output });
  const report = readJson(output);
  record(`playwright ${project}`, withFailedRun(e2eCounts(report), ok), seconds);
  for (const title of flakyCases(report)) lines.push(`  passed on its retry: ${title}`);
}

rmSync(reports, { recursive: true, force: true });
console.log(`\n${lines.join('\n')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed === 0 ? 0 : 1);
