// The idle-room sweep (mod_muc_parley_room_persistence.lua) does a bounded amount of work per tick:
// stored rooms not in memory are looked up a slice per sweep, so that many stored rooms do not stall
// Prosody (100,000 of them took 7.5 s a sweep, and the health probe said the XMPP server was down),
// and every room still expires, over several sweeps. The rooms are written into Prosody's SQLite
// store as it keeps them (a few thousand: making them through joins would take minutes).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRestartedParley } from '../support/parley';

/** Runs SQL (given on its standard input: the rows are many) with the sqlite3 shell; resolves with what it printed. */
function sqlite(database: string, sql: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const shell = spawn('sqlite3', [database], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    shell.once('error', reject);
    shell.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`sqlite3 exited with ${code}: ${errors}`))));
    shell.stdin.end(sql);
  });
}

/** The module's slice (`parley_room_sweep_slice`'s default): stored rooms looked at per sweep, at most. */
const SWEEP_SLICE = 1000;
const STORED_ROOMS = 3 * SWEEP_SLICE;
const EXPIRED_ROOMS = 5;

const parley = useRestartedParley();

/** Rows of Prosody's SQL storage for a stored room, as mod_muc keeps it: in its list of stored rooms, and its config by node. */
function storedRoomRows(host: string, node: string, emptySince: number): string {
  const jid = `${node}@${host}`;
  const data = JSON.stringify({ persistent: true, parley_empty_since: emptySince });
  return [
    `('${host}','','persistent','${jid}','boolean','true')`,
    `('${host}','${node}','config','_jid','string','${jid}')`,
    `('${host}','${node}','config','_data','json','${data}')`,
  ].join(',');
}

describe('The idle-room sweep looks at a bounded slice of the stored rooms per tick, and still expires every one', () => {
  it(`looks at no more than ${SWEEP_SLICE} stored rooms a sweep among ${STORED_ROOMS}, and destroys each expired one within a few sweeps`, async () => {
    // Run once until a sweep has read the store, which Prosody creates then; the rooms are written while it is stopped.
    const first = await parley.start({ roomIdleExpirySeconds: 1 });
    const host = first.settings.mucDomain;
    await expect.poll(async () => (await first.xmpp.stats()).roomSweeps?.sweeps ?? 0, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    await parley.stop();

    const database = join(parley.dataDir(), 'rooms.sqlite');
    const now = Math.floor(Date.now() / 1000);
    const expired = Array.from({ length: EXPIRED_ROOMS }, () => `expired-${randomUUID().slice(0, 8)}`);
    // The others emptied "a day from now": not due while the test runs, whatever its pace.
    const waiting = Array.from({ length: STORED_ROOMS - EXPIRED_ROOMS }, (_, index) => `waiting-${index}`);
    const rows = [...expired.map((node) => storedRoomRows(host, node, 0)), ...waiting.map((node) => storedRoomRows(host, node, now + 86_400))];
    await sqlite(database, `BEGIN; INSERT INTO prosody (host,user,store,key,type,value) VALUES ${rows.join(',')}; COMMIT;`);
    const storedExpired = async (): Promise<number> =>
      Number(await sqlite(database, `SELECT COUNT(*) FROM prosody WHERE store='persistent' AND key IN (${expired.map((node) => `'${node}@${host}'`).join(',')});`));
    expect(await storedExpired()).toBe(EXPIRED_ROOMS);

    const running = await parley.start({ roomIdleExpirySeconds: 1 });
    // A full pass over the stored rooms takes STORED_ROOMS / SWEEP_SLICE sweeps (one a second here).
    await expect.poll(storedExpired, { timeout: 30_000, interval: 250 }).toBe(0);
    // However the pass happened to order them (the expired may all fall in its first slice), a whole
    // pass took several sweeps, none of which looked at more than a slice.
    await expect.poll(async () => (await running.xmpp.stats()).roomSweeps?.sweeps ?? 0, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(STORED_ROOMS / SWEEP_SLICE);
    expect((await running.xmpp.stats()).roomSweeps?.mostStoredRoomsPerSweep).toBe(SWEEP_SLICE);
    // The rooms not due are still stored.
    expect(Number(await sqlite(database, `SELECT COUNT(*) FROM prosody WHERE store='persistent' AND key LIKE 'waiting-%';`))).toBe(waiting.length);
  }, 60_000);
});
