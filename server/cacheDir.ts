import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * `PARLEY_CACHE_DIR`, else `$XDG_CACHE_HOME/parley`, else `~/.cache/parley`: what Parley builds on
 * this machine and keeps between runs, in a folder of the user's own (never a shared /tmp path
 * another local user could have made first). The relay worker's build (worker-build/build.mjs, which
 * runs before npm packages exist and whose own text keys its cache) reads the same variables.
 */
export function parleyCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PARLEY_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'parley');
}
