import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, rm } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parseProviderConfig, type ProviderConfig } from '../../src/protocol/config';
import { CLIENT_VERSION } from '../../src/protocol/constants';
import { temporaryDataDir } from '../support/testParley';
import { rawXmppClientIn } from '../support/rawXmppClient';

describe('npm start: sets up, starts every server, prints the ready line, and Ctrl-C stops them all (run contract)', () => {
  it('serves the app and a working config, then stops cleanly on SIGINT', async () => {
    const dataDir = await temporaryDataDir();
    const start = spawn(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, PORT: '0', PARLEY_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    start.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const ready = new Promise<string>((resolve, reject) => {
      start.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /^Parley ready at (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      start.once('exit', (code) => reject(new Error(`npm start exited (${code}) before ready:\n${output}\n${errors.slice(-4000)}`)));
    });
    const url = await ready;

    const page = await fetch(new URL('/any-room', url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const config = await fetch(new URL('/api/config', url), { method: 'POST', body: JSON.stringify({ clientVersion: CLIENT_VERSION }) });
    expect((await config.json()).signalingUrl).toBe(`${url.replace('http', 'ws')}xmpp-websocket`);

    start.kill('SIGINT');
    const [code] = await once(start, 'exit');
    expect(code).toBe(0);
    await expect(fetch(new URL('/any-room', url))).rejects.toThrow();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);
});

describe('Ctrl-C stops npm start whatever the clients do (issue 12, item 5)', () => {
  it('exits with 0 on SIGINT while a room member has stopped reading with megabytes unsent, closing that member’s connection', async () => {
    // A bound far above the flood: the stalled reader stays connected with its backlog, as in the report.
    const env = { ...process.env, PORT: '0', PARLEY_GATEWAY_BUFFER_BYTES: String(512 * 1024 * 1024) };
    // Its own process group, so that a failed run can end the servers it started too.
    const start = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    start.stderr.resume();
    const url = await new Promise<string>((resolve, reject) => {
      start.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /^Parley ready at (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      start.once('exit', (code) => reject(new Error(`npm start exited (${code}) before ready:\n${output}`)));
    });
    const config = async (): Promise<ProviderConfig> => {
      const response = await fetch(new URL('/api/config', url), { method: 'POST', body: JSON.stringify({ clientVersion: CLIENT_VERSION }) });
      return parseProviderConfig(await response.json());
    };
    const roomAddress = `stop-${Date.now()}@rooms.parley.localhost`;
    const stalled = await rawXmppClientIn(await config(), roomAddress, 'Stalled');
    const sender = await rawXmppClientIn(await config(), roomAddress, 'Sender');
    let stalledClosed = false;
    void stalled.closed.then(() => (stalledClosed = true));
    stalled.stopReading();
    const body = 'x'.repeat(8 * 1024);
    for (let sent = 0; sent < 16 * 1024 * 1024; sent += body.length) await sender.sendGroupchat(roomAddress, body);
    const exited = once(start, 'exit');
    try {
      // The case the issue reported: the stalled reader is still connected, its backlog unsent.
      expect(stalledClosed).toBe(false);
      start.kill('SIGINT');
      // No deadline of our own: the test's timeout is the limit.
      const [code] = await exited;
      expect(code).toBe(0);
      // Its connection went with the servers. A paused socket does not read the server's close, but
      // a write to a peer that is gone is refused (a reset), which ends it; a live server would take it.
      while (!stalledClosed) {
        await stalled.sendGroupchat(roomAddress, 'still there?').catch(() => undefined);
        await yieldToEventLoop();
      }
    } finally {
      // A failed run must not leave the servers behind.
      if (start.exitCode === null) process.kill(-start.pid!, 'SIGKILL');
      stalled.close();
      sender.close();
    }
  }, 90_000);
});

/** The processes of a process group (Linux's /proc), with their command lines. */
async function processGroup(pgid: number): Promise<{ pid: string; command: string }[]> {
  const members: { pid: string; command: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its closing parenthesis.
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (group === pgid) members.push({ pid: entry, command: (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ').trim() });
    } catch {
      // Gone meanwhile.
    }
  }
  return members;
}

/** Starts `npm start`'s script in a process group of its own, as a terminal's job is, and waits for its ready line. */
async function startInGroup(env: NodeJS.ProcessEnv): Promise<{ start: ChildProcess; pgid: number }> {
  const start = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  start.stderr!.resume();
  const ready = new Promise<void>((resolve, reject) => {
    start.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/^Parley ready at /m.test(output)) resolve();
    });
    start.once('exit', (code) => reject(new Error(`npm start exited (${code}) before ready:\n${output}`)));
  });
  // Bounded below the tests' own timeouts, so that a start that hangs leaves no servers behind.
  const startTimeout = AbortSignal.timeout(45_000);
  try {
    await Promise.race([ready, new Promise((_, reject) => startTimeout.addEventListener('abort', () => reject(new Error(`npm start not ready in 45 s:\n${output}`))))]);
  } catch (error) {
    killGroup(start.pid!);
    throw error;
  }
  return { start, pgid: start.pid! };
}

/** Ends a process group that a failed run may have left. */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

describe('Closing the terminal (SIGHUP) stops npm start and every server it started', () => {
  it('leaves no process of its group behind, Prosody included, after SIGHUP to the group', async () => {
    const dataDir = await temporaryDataDir();
    // The hangup goes to the whole group, as a terminal's does.
    const { start, pgid } = await startInGroup({ ...process.env, PORT: '0', PARLEY_DATA_DIR: dataDir });
    try {
      expect((await processGroup(pgid)).filter(({ command }) => command.includes('prosody'))).toHaveLength(1);

      const exited = once(start, 'exit');
      process.kill(-pgid, 'SIGHUP');
      await exited;
      // Prosody, reloading on its own SIGHUP, stays unless stopped: nothing of the group may be left.
      await expect.poll(() => processGroup(pgid), { timeout: 15_000, interval: 100 }).toEqual([]);
    } finally {
      killGroup(pgid);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('No process npm start runs but its own holds the token secrets in its environment', () => {
  it('gives neither the relay’s mediasoup workers nor Prosody PARLEY_TOKEN_SECRET or PARLEY_USER_TOKEN_SECRET', async () => {
    const dataDir = await temporaryDataDir();
    const tokenSecret = `token-secret-${'t'.repeat(32)}`;
    const userTokenSecret = `user-token-secret-${'u'.repeat(32)}`;
    const { start, pgid } = await startInGroup({
      ...process.env,
      PORT: '0',
      PARLEY_DATA_DIR: dataDir,
      PARLEY_TOKEN_SECRET: tokenSecret,
      PARLEY_USER_TOKEN_SECRET: userTokenSecret,
    });
    try {
      const children = (await processGroup(pgid)).filter(({ command }) => command.includes('mediasoup-worker') || command.includes('prosody'));
      expect(children.filter(({ command }) => command.includes('mediasoup-worker')).length).toBeGreaterThan(0);
      expect(children.filter(({ command }) => command.includes('prosody'))).toHaveLength(1);
      for (const { pid, command } of children) {
        const environment = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
        expect(environment.filter((entry) => entry.includes(tokenSecret) || entry.includes(userTokenSecret))).toEqual([]);
        // A mediasoup worker has the rest of the server's environment (so this reads the right one); Prosody none of Parley's settings.
        if (command.includes('mediasoup-worker')) expect(environment).toContain(`PARLEY_DATA_DIR=${dataDir}`);
      }
      const exited = once(start, 'exit');
      start.kill('SIGINT');
      expect((await exited)[0]).toBe(0);
    } finally {
      killGroup(pgid);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
