// The reference client (bench/reference: SimpleWebRTC 1.30.3, for the bench and the interop tests):
// installed with `npm ci` inside its own package when missing, and built by the repository's Vite
// when its sources are newer than the build. Plain Node: scripts/bench.mjs and scripts/test.mjs run
// it in their set-up.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './setup.mjs';

export const REFERENCE_DIR = join(ROOT, 'bench', 'reference');
/** The built page; the bench and the interop tests serve it as /reference/ from Parley's gateway (tests/support/referenceSite.ts). */
export const REFERENCE_DIST = join(REFERENCE_DIR, 'dist');

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

/** `npm ci` in the reference package when its node_modules is missing or older than its lock; no install scripts run. */
export function ensureReferenceInstalled(log) {
  if (mtime(join(REFERENCE_DIR, 'node_modules', '.package-lock.json')) >= mtime(join(REFERENCE_DIR, 'package-lock.json'))) return;
  log('installing the SimpleWebRTC 1.30.3 reference (npm ci in bench/reference)');
  run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: REFERENCE_DIR });
}

/** Builds the reference page when any of its sources is newer than the last build. */
export function ensureReferenceBuilt(log) {
  const sources = ['index.html', 'src/main.tsx', 'vite.config.ts', 'package-lock.json'].map((file) => mtime(join(REFERENCE_DIR, file)));
  if (mtime(join(REFERENCE_DIST, 'index.html')) >= Math.max(...sources)) return;
  log('building the SimpleWebRTC 1.30.3 reference page (vite build)');
  run(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--config', join(REFERENCE_DIR, 'vite.config.ts'), '--logLevel', 'warn']);
}
