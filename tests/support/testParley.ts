import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startParley, type RunningParley } from '../../server/Parley';
import type { ParleySettings } from '../../server/settings';

/** A fresh, empty data folder (PARLEY_DATA_DIR) in the system's temporary folder. */
export function temporaryDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'parley-data-'));
}

/**
 * Parley on a free port (unless `overrides.port` says otherwise) with a data folder of its own: a
 * fresh temporary one, removed on stop, unless `overrides.dataDir` names one (the caller's to remove).
 * Tests, end-to-end fixtures and benchmarks use it: none of them touches the operator's data folder.
 */
export async function startTestParley(overrides: Partial<ParleySettings> = {}, log?: (line: string) => void): Promise<RunningParley> {
  const ownDataDir = overrides.dataDir === undefined ? await temporaryDataDir() : undefined;
  try {
    const running = await startParley({ port: 0, ...(ownDataDir ? { dataDir: ownDataDir } : {}), ...overrides }, log);
    const stop = running.stop.bind(running);
    return Object.assign(running, {
      async stop() {
        await stop();
        if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
      },
    });
  } catch (error) {
    if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    throw error;
  }
}
