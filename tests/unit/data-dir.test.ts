import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDataDir, storedTokenSecret } from '../../server/dataDir';
import { temporaryDataDir } from '../support/testParley';

const made: string[] = [];
async function freshDataDir(): Promise<string> {
  const dir = await temporaryDataDir();
  made.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('PARLEY_DATA_DIR: where the servers keep what outlives them', () => {
  it("defaults to the user's data folder", () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/srv/data' })).toBe('/srv/data/parley');
    expect(defaultDataDir({})).toMatch(/\/\.local\/share\/parley$/);
  });
});

describe('the token secret kept in the data folder when PARLEY_TOKEN_SECRET is unset', () => {
  it('is made once, readable by its owner only, and the same on every later start', async () => {
    const dir = join(await freshDataDir(), 'not-yet-there');
    const secret = await storedTokenSecret(dir);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(join(dir, 'token-secret'))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await storedTokenSecret(dir)).toBe(secret);
  });

  it('is one secret for servers starting at the same time', async () => {
    const dir = await freshDataDir();
    const secrets = await Promise.all(Array.from({ length: 8 }, () => storedTokenSecret(dir)));
    expect(new Set(secrets).size).toBe(1);
  });

  it('refuses a file that holds no usable secret, saying what to do', async () => {
    const dir = await freshDataDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'token-secret'), 'short\n', { mode: 0o600 });
    await expect(storedTokenSecret(dir)).rejects.toThrow(/holds no usable token secret .*remove it to make a new one/);
  });
});
