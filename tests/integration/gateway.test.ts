import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Agent, Stanzas } from 'stanza';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, HASHED_ASSET_CACHE } from '../../server/gateway/Gateway';
import { WebsocketProxy } from '../../server/gateway/websocketProxy';
import { signToken } from '../../server/auth/jwt';
import { VIDEO_RESOLUTION_TIERS } from '../../src/protocol/constants';
import type { ProviderConfig } from '../../src/protocol/config';
import { providerConfig, useParley } from '../support/parley';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

const parley = useParley();
const track = usePlainClients();

function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(path, parley().url), { method: 'POST', ...init });
}

function getConfig(): Promise<ProviderConfig> {
  return providerConfig(parley());
}

describe('Config service (SPEC §7 config request, PROTOCOL.md HTTP)', () => {
  it('issues a config whose credential logs in to the XMPP server over signalingUrl', async () => {
    const config = await getConfig();
    expect(config.signalingUrl).toBe(`${parley().url.replace('http', 'ws')}xmpp-websocket`);
    expect(config.roomConfigUrl).toBe(`${parley().url}api/room-config`);
    expect(config.userId).toMatch(new RegExp(`^[0-9a-f-]{36}@${parley().settings.xmppDomain}$`));
    expect(config.videoResolutionTiers).toEqual(VIDEO_RESOLUTION_TIERS);
    const client = track(clientFor(config));
    await login(client);
    expect(client.jid).toBe(`${config.userId}/${config.id}`);
  });

  it('gives every request its own user id and resource', async () => {
    const [a, b] = await Promise.all([getConfig(), getConfig()]);
    expect(a.userId).not.toBe(b.userId);
    expect(a.id).not.toBe(b.id);
  });

  it('refuses a credential signed with another secret, an expired one, another user\'s, and the relay\'s token', async () => {
    const config = await getConfig();
    const local = config.userId.split('@')[0]!;
    const now = Math.floor(Date.now() / 1000);
    const wrongSecret = signToken('not-the-secret', { sub: local, exp: now + 60 });
    const expired = signToken(parley().settings.tokenSecret, { sub: local, exp: now - 10 });
    const otherUser = (await getConfig()).credential;
    // The relay's token is signed with the same secret for the same user, but is not a login.
    const relayToken = config.sfuServer?.password;
    expect(relayToken).toBeTruthy();
    for (const password of [wrongSecret, expired, otherUser, relayToken!]) {
      await expect(login(track(clientFor(config, password)))).rejects.toThrow();
    }
  });

  it('answers malformed bodies with 400 and clear JSON errors', async () => {
    const notJson = await api('/api/config', { body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: { status: 400, message: 'request body is not valid JSON' } });
    const noVersion = await api('/api/config', { body: '{}' });
    expect(noVersion.status).toBe(400);
    expect((await noVersion.json()).error.message).toBe('clientVersion must be a string');
  });

  it('answers a 1 MB body with 413', async () => {
    const response = await api('/api/config', { body: 'x'.repeat(1024 * 1024) });
    expect(response.status).toBe(413);
    expect((await response.json()).error.status).toBe(413);
  });
});

describe('Room config service (SPEC §7 room config request)', () => {
  it('requires a Bearer credential (401 without, with a forged one, or with the relay\'s token)', async () => {
    expect((await api('/api/room-config', { body: JSON.stringify({ name: 'x' }) })).status).toBe(401);
    const forged = await api('/api/room-config', { headers: { authorization: 'Bearer abc.def.ghi' }, body: JSON.stringify({ name: 'x' }) });
    expect(forged.status).toBe(401);
    const relayToken = (await getConfig()).sfuServer?.password;
    const wrongAudience = await api('/api/room-config', { headers: { authorization: `Bearer ${relayToken}` }, body: JSON.stringify({ name: 'x' }) });
    expect(wrongAudience.status).toBe(401);
    expect((await wrongAudience.json()).error.message).toBe('credential refused: token is for another audience');
  });

  it('parses JSON whatever the content type and normalises the name into a room address', async () => {
    const config = await getConfig();
    // The 1.30.3 client sends no Content-Type: fetch then labels the body text/plain.
    const response = await api('/api/room-config', { headers: { authorization: `Bearer ${config.credential}` }, body: JSON.stringify({ name: 'Team Sync' }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ roomAddress: `team-sync@${parley().settings.mucDomain}` });
  });

  it('answers a missing name with 400 and a 1 MB body with 413', async () => {
    const config = await getConfig();
    const headers = { authorization: `Bearer ${config.credential}` };
    expect((await api('/api/room-config', { headers, body: '{}' })).status).toBe(400);
    expect((await api('/api/room-config', { headers, body: 'x'.repeat(1024 * 1024) })).status).toBe(413);
  });
});

describe('Two clients meet in one room with the <user> presence element (PROTOCOL.md)', () => {
  it('each sees the other occupant carrying <user sid=nickname>', async () => {
    const [configA, configB] = await Promise.all([getConfig(), getConfig()]);
    const [a, b] = [track(clientFor(configA)), track(clientFor(configB))];
    await Promise.all([login(a), login(b)]);
    const roomFor = async (config: ProviderConfig): Promise<string> => {
      const response = await api('/api/room-config', { headers: { authorization: `Bearer ${config.credential}` }, body: JSON.stringify({ name: 'Meeting Point' }) });
      return ((await response.json()) as { roomAddress: string }).roomAddress;
    };
    const room = await roomFor(configA);
    expect(await roomFor(configB)).toBe(room);

    const seenBy = (client: Agent, nick: string) =>
      new Promise<Stanzas.ReceivedPresence>((resolve) => {
        client.on('presence', (presence) => {
          if (presence.from === `${room}/${nick}`) resolve(presence);
        });
      });
    const aSeesB = seenBy(a, configB.id);
    const bSeesA = seenBy(b, configA.id);
    await withTimeout(a.joinRoom(room, configA.id), 10_000, 'join A');
    await withTimeout(b.joinRoom(room, configB.id), 10_000, 'join B');

    const [presenceOfB, presenceOfA] = await withTimeout(Promise.all([aSeesB, bSeesA]), 10_000, 'presences');
    expect(presenceOfB.talkyUser?.sid).toBe(configB.id);
    expect(presenceOfA.talkyUser?.sid).toBe(configA.id);
    expect(presenceOfA.talkyUser?.rid).toBeTruthy();
    expect(presenceOfA.talkyUser?.rid).toBe(presenceOfB.talkyUser?.rid);
    expect((await parley().xmpp.stats()).rooms[room]?.occupants).toBe(2);
  });
});

/** A script worth compressing: it repeats itself. */
const SCRIPT = `export const lines = [${Array.from({ length: 400 }, (_, index) => `'line ${index}'`).join(', ')}];`;

/** A GET with exactly the `accept-encoding` given (fetch adds its own): the status, headers and body as sent. */
function rawGet(url: string, acceptEncoding: string | undefined): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
  });
}

describe('The gateway serves the built app: content-hashed assets are cached for good, the page itself is asked for every time', () => {
  let root: string;
  let gateway: FastifyInstance;
  let proxy: WebsocketProxy;
  let url: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'parley-static-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Parley</title>');
    writeFileSync(join(root, 'assets', 'entry-Rck0GhA3.js'), 'export {};');
    // What the build writes beside a script (scripts/vite/precompress.ts).
    writeFileSync(join(root, 'assets', 'session-Co4aATGp.js'), SCRIPT);
    writeFileSync(join(root, 'assets', 'session-Co4aATGp.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(root, 'assets', 'session-Co4aATGp.js.gz'), gzipSync(SCRIPT));
    writeFileSync(join(root, 'robots.txt'), 'User-agent: *');
    const { settings, xmpp } = parley();
    proxy = new WebsocketProxy(() => new URL(xmpp.websocketUrl), settings.gatewayBufferBytes);
    gateway = await createGateway({ settings: { ...settings, staticRoot: root }, xmppProxy: proxy });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    proxy?.close();
    await gateway?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a file under assets/ is kept a year and never revalidated; the room page and a file beside it are revalidated', async () => {
    const asset = await fetch(new URL('/assets/entry-Rck0GhA3.js', url));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe(HASHED_ASSET_CACHE);
    const page = await fetch(new URL('/some-room', url));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const beside = await fetch(new URL('/robots.txt', url));
    expect(beside.status).toBe(200);
    expect(beside.headers.get('cache-control')).not.toContain('immutable');
  });

  it('a script goes compressed as the browser accepts it, brotli before gzip, from the copies the build wrote; to a browser that accepts neither, as it is', async () => {
    const address = new URL('/assets/session-Co4aATGp.js', url).href;
    const brotli = await rawGet(address, 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(SCRIPT);
    expect(brotli.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
    expect(brotli.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    const gzipped = await rawGet(address, 'gzip, deflate');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(SCRIPT);
    const plain = await rawGet(address, undefined);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 4);
  });
});

describe('The gateway logs what it answers with a 5xx through its own log (its Fastify logs nothing)', () => {
  it('answers a failing route with a bare 500 and logs the error behind it', async () => {
    const lines: string[] = [];
    const proxy = new WebsocketProxy(() => new URL(parley().xmpp.websocketUrl), parley().settings.gatewayBufferBytes);
    // A health check that throws: nothing real on this machine fails so on cue.
    const failingHealth = (): Promise<never> => Promise.reject(new Error('health check broke'));
    const gateway = await createGateway({ settings: parley().settings, xmppProxy: proxy, log: (line) => lines.push(line), health: failingHealth });
    try {
      await gateway.listen({ host: '127.0.0.1', port: 0 });
      const response = await fetch(`http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}/api/health`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: { status: 500, message: 'internal error' } });
      expect(lines).toEqual([expect.stringMatching(/^gateway: GET \/api\/health answered 500: Error: health check broke\n/)]);
    } finally {
      proxy.close();
      await gateway.close();
    }
  });
});
