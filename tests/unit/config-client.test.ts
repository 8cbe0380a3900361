import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_VERSION, CONFIG_REQUEST, ROOM_CONFIG_REQUEST } from '../../src/protocol/constants';
import { ConfigRequestError, RoomConfigRequestError } from '../../src/protocol/errors';
import { fetchConfig, fetchRoomConfig } from '../../src/shared-worker/ConfigClient';
import { ManualClock } from '../support/ManualClock';
import { until } from '../support/until';

/** A real local HTTP server whose answers each test scripts: a status, or no answer at all. */
let server: Server;
let baseUrl: string;
let script: Array<number | 'hang'> = [];
let hanging = 0;
const seen: Array<{ url: string; body: string; authorization: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', body, authorization: request.headers.authorization });
      const next = script.shift() ?? 200;
      if (next === 'hang') {
        hanging += 1;
        return;
      }
      response.writeHead(next, { 'content-type': 'application/json' });
      const ok = request.url === '/config'
        ? { credential: 'cred', id: 'id', roomConfigUrl: `${baseUrl}/room`, signalingUrl: 'ws://x', userId: 'u@x' }
        : { roomAddress: 'room@rooms.x' };
      response.end(JSON.stringify(next === 200 ? ok : { error: 'no' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function reset(next: Array<number | 'hang'>): ManualClock {
  script = next;
  seen.length = 0;
  hanging = 0;
  return new ManualClock();
}

/**
 * Drives fake time the way the client experiences it: a retry wait (1 s timer) is advanced once the
 * client starts it; an attempt the server leaves hanging is advanced to its 10 s timeout.
 */
async function drive<T>(clock: ManualClock, promise: Promise<T>, retryDelayMs = 1_000, timeoutMs = 10_000): Promise<T> {
  let settled = false;
  const result = promise.finally(() => (settled = true));
  result.catch(() => {});
  let handledHangs = 0;
  while (!settled) {
    await until(() => settled || clock.pendingDelays().includes(retryDelayMs) || hanging > handledHangs, 'the client to wait');
    if (settled) break;
    if (clock.pendingDelays().includes(retryDelayMs)) {
      await clock.advance(retryDelayMs);
    } else {
      handledHangs += 1;
      await clock.advance(timeoutMs);
    }
  }
  return result;
}

describe('Config request (SPEC §7): POST with clientVersion, 10 attempts 1 s apart, 10 s each', () => {
  it('sends clientVersion and token as JSON', async () => {
    const clock = reset([200]);
    await drive(clock, fetchConfig(fetch, clock, `${baseUrl}/config`, 'user-token'));
    expect(JSON.parse(seen[0]!.body)).toEqual({ clientVersion: CLIENT_VERSION, token: 'user-token' });
  });

  it("sends the browser's guest identity credential, with or without a token (Parley's `identity` field)", async () => {
    const clock = reset([200, 200]);
    await drive(clock, fetchConfig(fetch, clock, `${baseUrl}/config`, undefined, 'stored.identity.credential'));
    await drive(clock, fetchConfig(fetch, clock, `${baseUrl}/config`, 'user-token', 'stored.identity.credential'));
    expect(seen.map((request) => JSON.parse(request.body))).toEqual([
      { clientVersion: CLIENT_VERSION, identity: 'stored.identity.credential' },
      { clientVersion: CLIENT_VERSION, token: 'user-token', identity: 'stored.identity.credential' },
    ]);
  });

  it('retries failed statuses 1 s apart and returns the first good config', async () => {
    const clock = reset([500, 502, 503, 200]);
    const config = await drive(clock, fetchConfig(fetch, clock, `${baseUrl}/config`));
    expect(config.credential).toBe('cred');
    expect(seen).toHaveLength(4);
    expect(clock.now()).toBe(3 * CONFIG_REQUEST.retryDelayMs);
  });

  it('gives up after 10 attempts with the status in the message and ESWRTC_001', async () => {
    const clock = reset(Array(20).fill(503));
    const failure = drive(clock, fetchConfig(fetch, clock, `${baseUrl}/config`));
    await expect(failure).rejects.toThrow(ConfigRequestError);
    await expect(failure).rejects.toMatchObject({ code: 'ESWRTC_001', message: 'SimpleWebRTC configuration request failed: 503' });
    expect(seen).toHaveLength(CONFIG_REQUEST.attempts);
  });

  it('abandons an attempt that gets no answer within 10 s and tries again', async () => {
    const clock = reset(['hang', 200]);
    const config = await drive(clock, fetchConfig(fetch, clock, `${baseUrl}/config`));
    expect(config.id).toBe('id');
    expect(clock.now()).toBe(CONFIG_REQUEST.timeoutMs + CONFIG_REQUEST.retryDelayMs);
  });
});

describe('Room config request (SPEC §7): Bearer credential, body name, 5 attempts', () => {
  it('posts the name with the credential as Bearer', async () => {
    const clock = reset([200]);
    const result = await drive(clock, fetchRoomConfig(fetch, clock, { roomConfigUrl: `${baseUrl}/room`, credential: 'cred' }, 'My Room'));
    expect(result.roomAddress).toBe('room@rooms.x');
    expect(seen[0]).toMatchObject({ authorization: 'Bearer cred', body: JSON.stringify({ name: 'My Room' }) });
  });

  it('gives up after 5 attempts with ESWRTC_002', async () => {
    const clock = reset(Array(10).fill(401));
    const failure = drive(clock, fetchRoomConfig(fetch, clock, { roomConfigUrl: `${baseUrl}/room`, credential: 'x' }, 'r'));
    await expect(failure).rejects.toThrow(RoomConfigRequestError);
    await expect(failure).rejects.toMatchObject({ code: 'ESWRTC_002', message: 'SimpleWebRTC room configuration request failed: 401' });
    expect(seen).toHaveLength(ROOM_CONFIG_REQUEST.attempts);
  });
});
