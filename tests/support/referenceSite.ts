import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_DIST } from '../../scripts/lib/referenceSetup.mjs';

/**
 * A static root for Parley's gateway (its `staticRoot` setting): the built app as it is, with the
 * SimpleWebRTC 1.30.3 reference page (bench/reference) under /reference/, so that both clients load
 * from one origin and use the same config API, websocket and relay. Copies; `remove` deletes them.
 * The bench and the interop tests serve it.
 */
export function siteWithReference(appDist: string): { root: string; remove(): void } {
  for (const [built, how] of [[appDist, 'npm run build'], [REFERENCE_DIST, 'npm test or npm run bench, which build it']] as const) {
    if (!existsSync(join(built, 'index.html'))) throw new Error(`${built} is not built: run ${how}`);
  }
  const root = mkdtempSync(join(tmpdir(), 'parley-site-'));
  cpSync(appDist, root, { recursive: true });
  cpSync(REFERENCE_DIST, join(root, 'reference'), { recursive: true });
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
