// Relays on several hosts (issue 16, item 2): relay processes of their own, each on its own loopback
// address, announce themselves to the gateway with the shared secret; each room's media is placed
// on one of them when the room first needs the relay (by load), and stays there; when a host dies,
// its rooms' next connections go to a live host. The clients here are bare JSON-RPC clients that
// connect as Parley's RelayLink does (sfuServer.url with ?room=, src/protocol/relay.ts) and, like it,
// connect again when their connection drops.
import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { announcementToken, RELAY_ANNOUNCEMENT_LIMITS, type RelayAnnouncement } from '../../server/relay/host/announcement';
import { LIMITS } from '../../src/protocol/constants';
import { RELAY_UNAVAILABLE, relayUrlForRoom } from '../../src/protocol/relay';
import { providerConfig, useParley } from '../support/parley';
import { startRelayHost, type RelayHostProcess } from '../support/relayHosts';
import { WAIT_MS } from '../support/sessions';
import { connectRelay, type RelayTestClient } from './relay-client';

const gatewayLog: string[] = [];
const parley = useParley({ remoteRelays: true, relayWorkers: 0 }, (line) => gatewayLog.push(line));
const HEARTBEAT_MS = 250;
const RECONNECT_GAP_MS = 100;

const hosts: RelayHostProcess[] = [];
const clients: RelayTestClient[] = [];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  for (const { child } of hosts) child.kill('SIGKILL');
});

async function relayHostOn(address: string): Promise<RelayHostProcess> {
  const host = await startRelayHost({ address, gatewayUrl: parley().url, tokenSecret: parley().settings.tokenSecret, heartbeatMs: HEARTBEAT_MS });
  hosts.push(host);
  return host;
}

/** A relay connection for `room`, as RelayLink makes one: AUTH, then the room's router capabilities. */
async function connectForRoom(config: ProviderConfig, room: string): Promise<RelayTestClient> {
  const client = await connectRelay(relayUrlForRoom(config.sfuServer!.url, room));
  try {
    await client.ok('AUTH', { token: config.sfuServer!.password });
    await client.ok('GET_ROUTER_CAPABILITIES', { roomAddress: room });
  } catch (error) {
    await client.close();
    throw error;
  }
  clients.push(client);
  return client;
}

/** Connects again until a connection works, as RelayLink does after an outage (it backs off; this waits a little between tries). */
async function reconnectForRoom(config: ProviderConfig, room: string): Promise<RelayTestClient> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      return await connectForRoom(config, room);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_GAP_MS));
    }
  }
}

/** Which host (by URL) says it carries each room, from the hosts' own announcements. */
function carriers(): Record<string, string[]> {
  const byRoom: Record<string, string[]> = {};
  for (const { url, rooms } of parley().relayRegistry!.liveAnnouncements()) {
    for (const room of rooms) (byRoom[room] ??= []).push(url);
  }
  return byRoom;
}

/** The status a `/relay` upgrade request gets from the gateway, a whole websocket handshake or one without its key, and the plain-text reason of a refusal. */
function relayRequest(url: string, handshake: 'whole' | 'keyless'): Promise<{ status: number; reason: string }> {
  const key = handshake === 'whole' ? { 'Sec-WebSocket-Key': randomBytes(16).toString('base64') } : {};
  const headers = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', ...key };
  return new Promise((resolve, reject) => {
    const request = httpRequest(url.replace(/^ws/, 'http'), { headers });
    request.on('response', (response) => {
      let reason = '';
      response.on('data', (chunk: Buffer) => (reason += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reason }));
    });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, reason: '' });
    });
    request.on('error', reject);
    request.end();
  });
}

describe('A relay connection places its room only once it is a websocket handshake naming a room address the relay could take', () => {
  it('places nothing for an upgrade that is no websocket handshake: the room’s people, coming later, go to the least loaded host', async () => {
    const room = `relay-hosts-early-${randomUUID().slice(0, 8)}@${parley().settings.mucDomain}`;
    const config = await providerConfig(parley());
    const url = relayUrlForRoom(config.sfuServer!.url, room);
    // The only hosts yet, nothing listening at their addresses: the one the gateway dials is dropped, and the log says which.
    const idle = (id: string, load: number): RelayAnnouncement => ({ id, url: `ws://127.0.0.11:9/${id}`, heartbeatMs: WAIT_MS, load, rooms: [] });
    try {
      expect((await announce(idle('idle-first', 0))).status).toBe(200);
      expect((await announce(idle('idle-then', 1))).status).toBe(200);
      expect(await relayRequest(url, 'keyless')).toEqual({ status: 400, reason: 'Sec-WebSocket-Key must be 16 bytes in base64' });
      // The first idle host got busy since; a placement made by the refused request would still send the room there.
      expect((await announce(idle('idle-first', 1_000))).status).toBe(200);
      const connection = await connectRelay(url);
      expect(await connection.closed).toEqual({ code: RELAY_UNAVAILABLE, reason: 'media relay unavailable' });
      expect(gatewayLog.filter((line) => line.includes('idle-'))).toEqual([expect.stringMatching(/relay host idle-then .* is unreachable/)]);
    } finally {
      // Gone before the real hosts start.
      for (const id of ['idle-first', 'idle-then']) parley().relayRegistry!.unreachable(id, new Error('the test is over'));
    }
  });

  it('answers 400, placing nothing, for a room that is longer than the relay takes or no room address', async () => {
    const config = await providerConfig(parley());
    const reason = 'room must be a room address (room@service) of at most 256 characters';
    for (const room of [`${'r'.repeat(8192)}@${parley().settings.mucDomain}`, 'not a room']) {
      expect(await relayRequest(relayUrlForRoom(config.sfuServer!.url, room), 'whole')).toEqual({ status: 400, reason });
    }
  });
});

describe('Relays on several hosts: rooms land on both, and a host that dies loses its rooms to the other', () => {
  it('places rooms on two relay hosts on 127.0.0.2 and 127.0.0.3; killing one moves its rooms to the other', async () => {
    const [first, second] = await Promise.all([relayHostOn('127.0.0.2'), relayHostOn('127.0.0.3')]);
    expect(new URL(first.url).hostname).toBe('127.0.0.2');
    expect(new URL(second.url).hostname).toBe('127.0.0.3');
    await expect.poll(() => parley().relayRegistry!.liveAnnouncements().length, { timeout: WAIT_MS }).toBe(2);

    const rooms = [1, 2, 3, 4].map((n) => `relay-hosts-${n}-${randomUUID().slice(0, 8)}@${parley().settings.mucDomain}`);
    // One person per room (the relay caps connections per user).
    const people = new Map<string, ProviderConfig>();
    const connections = new Map<string, RelayTestClient>();
    for (const room of rooms) {
      people.set(room, await providerConfig(parley()));
      connections.set(room, await connectForRoom(people.get(room)!, room));
    }
    // Someone else's connection for a room goes to the same host (sticky).
    await connectForRoom(await providerConfig(parley()), rooms[0]!);

    await expect.poll(() => rooms.map((room) => carriers()[room]?.length ?? 0), { timeout: WAIT_MS }).toEqual([1, 1, 1, 1]);
    const placedOn = new Map(rooms.map((room) => [room, carriers()[room]![0]!]));
    expect(new Set(placedOn.values())).toEqual(new Set([first.url, second.url]));

    first.child.kill('SIGKILL');
    const moving = rooms.filter((room) => placedOn.get(room) === first.url);
    const staying = rooms.filter((room) => placedOn.get(room) === second.url);
    await Promise.all(moving.map((room) => connections.get(room)!.closed));
    for (const room of moving) await reconnectForRoom(people.get(room)!, room);

    await expect.poll(() => rooms.map((room) => carriers()[room]), { timeout: WAIT_MS }).toEqual(rooms.map(() => [second.url]));
    expect(parley().relayRegistry!.liveAnnouncements().map(({ url }) => url)).toEqual([second.url]);
    // The rooms on the host that lived were never interrupted: their connections still answer.
    for (const room of staying) {
      expect(await connections.get(room)!.ok('GET_ROUTER_CAPABILITIES', { roomAddress: room })).toHaveProperty('rtpCapabilities');
    }
  }, 4 * WAIT_MS);
});

/** POST /api/relays as a relay host sends it, signed for `announcement.id` unless `token` says otherwise. */
function announce(announcement: RelayAnnouncement, token = announcementToken(parley().settings.tokenSecret, announcement.id)): Promise<Response> {
  return fetch(new URL('/api/relays', parley().url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(announcement) });
}

describe('Only relay hosts announce themselves: POST /api/relays needs a token for that relay host, signed with the shared secret', () => {
  const announceWith = (token: string, id: string): Promise<Response> =>
    announce({ id, url: 'ws://127.0.0.9:9/relay', heartbeatMs: HEARTBEAT_MS, load: 0, rooms: [] }, token);

  it("refuses a client's relay token, another host's token and a token signed with another secret; takes none of them", async () => {
    const before = parley().relayRegistry!.liveAnnouncements().length;
    const config = await providerConfig(parley());
    expect((await announceWith(config.sfuServer!.password, 'intruder')).status).toBe(401);
    expect((await announceWith(announcementToken(parley().settings.tokenSecret, 'someone-else'), 'intruder')).status).toBe(403);
    expect((await announceWith(announcementToken('another secret', 'intruder'), 'intruder')).status).toBe(401);
    expect(parley().relayRegistry!.liveAnnouncements().map(({ id }) => id)).not.toContain('intruder');
    expect(parley().relayRegistry!.liveAnnouncements().length).toBe(before);
    expect((await announceWith(announcementToken(parley().settings.tokenSecret, 'welcome'), 'welcome')).status).toBe(200);
    expect(parley().relayRegistry!.liveAnnouncements().map(({ id }) => id)).toContain('welcome');
  });

  it('checks the token before reading the body: a body from no relay host is refused whatever its size', async () => {
    const response = await fetch(new URL('/api/relays', parley().url), { method: 'POST', body: 'x'.repeat(RELAY_ANNOUNCEMENT_LIMITS.bytes + 1) });
    expect(response.status).toBe(401);
  });
});

describe('A relay host announces every room it carries: POST /api/relays takes announcements beyond the 16 KB of other bodies', () => {
  it('takes the announcement of a host carrying 400 rooms', async () => {
    const rooms = Array.from({ length: 400 }, () => `relay-hosts-busy-${randomUUID()}@${parley().settings.mucDomain}`);
    const busy: RelayAnnouncement = { id: 'busy', url: 'ws://127.0.0.9:9/relay', heartbeatMs: HEARTBEAT_MS, load: 400, rooms };
    expect(JSON.stringify(busy).length).toBeGreaterThan(LIMITS.httpBodyBytes);
    expect((await announce(busy)).status).toBe(200);
    expect(parley().relayRegistry!.liveAnnouncements().find(({ id }) => id === 'busy')?.rooms).toEqual(rooms);
  });
});

describe("A relay host's URL without a port is dialled at its scheme's default port; a host the gateway cannot reach is dropped, and the gateway says so", () => {
  it('dials ws://127.0.0.10/relay at port 80 and, with nothing listening there, drops the host, logs why, and closes the connection as unavailable', async () => {
    const room = `relay-hosts-portless-${randomUUID().slice(0, 8)}@${parley().settings.mucDomain}`;
    expect((await announce({ id: 'portless', url: 'ws://127.0.0.10/relay', heartbeatMs: HEARTBEAT_MS, load: 0, rooms: [room] })).status).toBe(200);
    const config = await providerConfig(parley());
    const connection = await connectRelay(relayUrlForRoom(config.sfuServer!.url, room));
    expect(await connection.closed).toEqual({ code: RELAY_UNAVAILABLE, reason: 'media relay unavailable' });
    expect(parley().relayRegistry!.liveAnnouncements().map(({ id }) => id)).not.toContain('portless');
    expect(gatewayLog.filter((line) => line.includes('portless'))).toEqual([expect.stringMatching(/unreachable.*127\.0\.0\.10:80\b/)]);
  });
});

