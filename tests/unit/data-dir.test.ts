import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDataDir, storedTokenSecret } from '../../server/dataDir';
import { readSettings, resolveSettings } from '../../server/settings';
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
    expect(readSettings({ XDG_DATA_HOME: '/srv/data' }).dataDir).toBe('/srv/data/parley');
    expect(readSettings({ PARLEY_DATA_DIR: '/var/lib/parley' }).dataDir).toBe('/var/lib/parley');
  });
});

describe('PARLEY_ROOM_IDLE_EXPIRY_SECONDS and PARLEY_IDENTITY_TTL_SECONDS: positive whole seconds', () => {
  it('defaults to 30 days for rooms and 90 days for identities', () => {
    expect(readSettings({})).toMatchObject({ roomIdleExpirySeconds: 30 * 86_400, identityTtlSeconds: 90 * 86_400 });
    expect(readSettings({ PARLEY_ROOM_IDLE_EXPIRY_SECONDS: '60', PARLEY_IDENTITY_TTL_SECONDS: '3600' })).toMatchObject({
      roomIdleExpirySeconds: 60,
      identityTtlSeconds: 3600,
    });
  });

  it.each([
    ['PARLEY_ROOM_IDLE_EXPIRY_SECONDS', '0', /PARLEY_ROOM_IDLE_EXPIRY_SECONDS must be a positive integer, got "0"/],
    ['PARLEY_ROOM_IDLE_EXPIRY_SECONDS', 'soon', /PARLEY_ROOM_IDLE_EXPIRY_SECONDS must be a non-negative integer, got "soon"/],
    ['PARLEY_IDENTITY_TTL_SECONDS', '0', /PARLEY_IDENTITY_TTL_SECONDS must be a positive integer, got "0"/],
  ])('refuses %s=%s with a clear error', (name, value, message) => {
    expect(() => readSettings({ [name]: value })).toThrow(message);
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

/** A secret as long as the shortest PARLEY_TOKEN_SECRET taken (settings.test.ts). */
const GIVEN_SECRET = 'given'.padEnd(32, '-');

describe('PARLEY_TOKEN_SECRET: given, it is the secret; unset, the data folder keeps one', () => {
  it('uses the given secret and writes nothing, and otherwise the stored one', async () => {
    const dir = await freshDataDir();
    expect((await resolveSettings(readSettings({ PARLEY_TOKEN_SECRET: GIVEN_SECRET, PARLEY_DATA_DIR: dir }))).tokenSecret).toBe(GIVEN_SECRET);
    await expect(stat(join(dir, 'token-secret'))).rejects.toThrow(/ENOENT/);
    const stored = (await resolveSettings(readSettings({ PARLEY_DATA_DIR: dir }))).tokenSecret;
    expect(stored).toBe(await storedTokenSecret(dir));
  });
});
