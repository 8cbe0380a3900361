import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

const TOKEN_SECRET_FILE = 'token-secret';
/** 32 random bytes, base64url: anything much shorter in the file is not one we made, nor a secret to sign with. */
export const MIN_SECRET_LENGTH = 32;

/** `$XDG_DATA_HOME/parley`, else `~/.local/share/parley`: where a user's programs keep their data. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'parley');
}

/**
 * The token secret kept in the data folder, made on first use (mode 0600), so that credentials stay
 * valid when `npm start` runs again with the same folder. Two servers starting at once agree: the
 * file appears whole or not at all (written aside, then linked into place).
 */
export async function storedTokenSecret(dataDir: string): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, TOKEN_SECRET_FILE);
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(draft, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    await link(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
  const secret = (await readFile(path, 'utf8')).trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`${path} holds no usable token secret (fewer than ${MIN_SECRET_LENGTH} characters): remove it to make a new one`);
  }
  return secret;
}
