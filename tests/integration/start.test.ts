import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_VERSION } from '../../src/protocol/constants';
import { temporaryDataDir } from '../support/testParley';

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
