// Servers that look after each other (issue 13): `npm start`'s process (startParley) restarts
// Prosody when it dies, keeps serving meanwhile, says which part is down at GET /api/health, and a
// restarted gateway is transparent to open sessions. Real Prosody, real relay worker, real gateway.
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import { XMPP_PROBE_REUSE_MS } from '../../server/supervision/health';
import { XMPP_READINESS_DEFAULTS } from '../../server/supervision/XmppReadiness';
import { startTestParley } from '../support/testParley';
import { joinedBy, joinedRoom, useSessions, waitFor, WAIT_MS, type TestSession } from '../support/sessions';

let parley: RunningParley | undefined;
const logs: string[] = [];
beforeAll(async () => {
  parley = await startTestParley({ relayWorkers: 1 }, (line) => logs.push(line));
});
afterAll(async () => {
  await parley?.stop();
});
const server = (): RunningParley => parley!;
const openSession = useSessions();

async function health(): Promise<{ status: number; body: unknown }> {
  const response = await fetch(new URL('/api/health', server().url));
  return { status: response.status, body: await response.json() };
}

/** Polls the health route (real time, bounded) until it answers the status. */
async function healthBecomes(status: number): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const answer = await health();
    if (answer.status === status || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function inRoom(displayName: string, roomName: string): Promise<{ who: TestSession; roomId: string }> {
  const who = openSession({ server: server(), displayName });
  const room = await joinedBy(who, roomName, { autoJoinCall: false });
  return { who, roomId: room.id };
}

describe('Supervision: a Prosody that dies is restarted on the same port, with one log line, and sessions come back into their rooms', () => {
  it('restarts Prosody killed from outside (SIGKILL) and the session rejoins its room', async () => {
    const alice = await inRoom('Alice', `supervised-${randomUUID().slice(0, 8)}`);
    const crashed = server().xmpp;
    const restartLines = logs.length;
    process.kill(crashed.pid!, 'SIGKILL');
    await waitFor(alice.who, 'the room interrupted', (state) => state.rooms[alice.roomId]?.roomState === 'interrupted');
    // Real time: the supervisor's backoff, then a real Prosody's start.
    await vi.waitFor(() => expect(server().xmpp).not.toBe(crashed), { timeout: WAIT_MS, interval: 50 });
    expect(server().xmpp.httpPort).toBe(crashed.httpPort);
    await joinedRoom(alice.who, alice.roomId);
    expect(logs.slice(restartLines).filter((line) => line.startsWith('xmpp: the XMPP server exited (signal SIGKILL); restarting it in'))).toHaveLength(1);
  });

  it('keeps serving the app and the config API while Prosody is down', async () => {
    await server().killXmpp();
    const app = await fetch(new URL('/', server().url));
    expect(app.status).toBe(200);
    expect(app.headers.get('content-type')).toMatch(/^text\/html\b/);
    expect(await app.text()).toContain('<div id="root"></div>');
    const config = await fetch(new URL('/api/config', server().url), { method: 'POST', body: '{"clientVersion":"1.30.3"}' });
    expect(config.status).toBe(200);
    await config.body?.cancel();
    await server().restartXmpp();
  });
});

describe('Supervision: a Prosody whose port was taken while it was down starts again on a free port, and the gateway’s proxy follows it', () => {
  it('restarts Prosody on another port when something listens on its old one, and a session joins a room through the gateway', async () => {
    const before = server().xmpp.httpPort;
    await server().killXmpp();
    const squatter = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      squatter.once('error', reject);
      squatter.listen(before, '127.0.0.1', resolve);
    });
    try {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`Prosody did not start again within ${WAIT_MS} ms while its port was taken`)), WAIT_MS);
      });
      await Promise.race([server().restartXmpp(), gaveUp]).finally(() => clearTimeout(timer));
    } finally {
      // Freed either way: a supervisor still retrying that port gets it, for the tests after this one.
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect(server().xmpp.httpPort).not.toBe(before);
    await inRoom('Alice', `moved-${randomUUID().slice(0, 8)}`);
  });
});

describe('GET /api/health names the part that is down (503), and says up once it is back (200)', () => {
  it('is 200 with everything up, 503 xmpp down while Prosody is down, 200 again after', async () => {
    expect(await health()).toEqual({ status: 200, body: { xmpp: 'up', relay: 'up' } });
    await server().killXmpp();
    expect(await health()).toEqual({ status: 503, body: { xmpp: 'down', relay: 'up' } });
    await server().restartXmpp();
    expect(await healthBecomes(200)).toEqual({ status: 200, body: { xmpp: 'up', relay: 'up' } });
  });

  it('is 503 relay down while the relay has no worker, 200 after the relay is back', async () => {
    await server().killRelay();
    expect(await health()).toEqual({ status: 503, body: { xmpp: 'up', relay: 'down' } });
    await server().restartRelay();
    expect(await healthBecomes(200)).toEqual({ status: 200, body: { xmpp: 'up', relay: 'up' } });
  });
});

describe(`GET /api/health asked by anyone, however often, has the XMPP server list its sessions and rooms at most once per XMPP_PROBE_REUSE_MS (${XMPP_PROBE_REUSE_MS} ms), one probe at a time`, () => {
  it('answers 50 questions asked at once from one probe, and probes again only once the answer is older than the reuse window', async () => {
    await healthBecomes(200);
    const probes = vi.spyOn(server().xmpp, 'stats');
    try {
      await new Promise((resolve) => setTimeout(resolve, XMPP_PROBE_REUSE_MS));
      const answers = await Promise.all(Array.from({ length: 50 }, () => health()));
      expect(answers).toEqual(Array(50).fill({ status: 200, body: { xmpp: 'up', relay: 'up' } }));
      expect(probes).toHaveBeenCalledTimes(1);
      await new Promise((resolve) => setTimeout(resolve, XMPP_PROBE_REUSE_MS));
      expect(await health()).toEqual({ status: 200, body: { xmpp: 'up', relay: 'up' } });
      expect(probes).toHaveBeenCalledTimes(2);
    } finally {
      probes.mockRestore();
    }
  });
});

describe('GET /api/xmpp-ready: the gateway holds a waiting client until the restarted XMPP server accepts connections (issue 13)', () => {
  it('answers 200 at once while up; while down the question is held, and answered 200 once the supervisor has the server back', async () => {
    const ready = () => fetch(new URL('/api/xmpp-ready', server().url)).then(async (response) => ({ status: response.status, body: await response.json(), at: Date.now() }));
    expect(await ready()).toMatchObject({ status: 200, body: { xmpp: 'up' } });
    await server().killXmpp();
    expect(server().xmppUpSince).toBeUndefined();
    let answered = false;
    const held = ready().finally(() => (answered = true));
    // A round trip to the gateway: had it answered the question, the answer would be here by now.
    await (await fetch(new URL('/api/health', server().url))).body?.cancel();
    expect(answered).toBe(false);
    await server().restartXmpp();
    const answer = await held;
    expect(answer).toMatchObject({ status: 200, body: { xmpp: 'up' } });
    expect(answer.at).toBeGreaterThanOrEqual(server().xmppUpSince!);
  });
});

/** GET /api/xmpp-ready from `localAddress` (any of 127.0.0.0/8 on Linux's loopback); resolves its status once answered. */
function readyFrom(localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const asked = request(new URL('/api/xmpp-ready', server().url), { localAddress, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    asked.once('error', reject);
    asked.end();
  });
}

describe('GET /api/xmpp-ready holds at most maxWaitersPerAddress questions from one client address, so one address cannot leave everyone else "down"', () => {
  it('answers one more from a full address 503 at once, holds another address’s question, and answers all held 200 once the server is back', async () => {
    const { maxWaitersPerAddress } = XMPP_READINESS_DEFAULTS;
    await server().killXmpp();
    const held: Array<Promise<number>> = [];
    try {
      held.push(...Array.from({ length: maxWaitersPerAddress }, () => readyFrom('127.0.0.2')));
      // Each is on its own connection: the gateway holds them all before the next question is asked.
      await vi.waitFor(() => expect(server().xmppWaiting).toBe(maxWaitersPerAddress), { timeout: WAIT_MS, interval: 20 });
      let refused: number | undefined;
      void readyFrom('127.0.0.2').then((status) => (refused = status));
      await vi.waitFor(() => expect(refused).toBe(503), { timeout: WAIT_MS, interval: 20 });
      let otherAnswered = false;
      held.push(readyFrom('127.0.0.3').finally(() => (otherAnswered = true)));
      await vi.waitFor(() => expect(server().xmppWaiting).toBe(maxWaitersPerAddress + 1), { timeout: WAIT_MS, interval: 20 });
      expect(otherAnswered).toBe(false);
    } finally {
      // Up again even when an expectation failed, so the tests after this one meet a running server.
      await server().restartXmpp();
    }
    expect(await Promise.all(held)).toEqual(Array.from({ length: maxWaitersPerAddress + 1 }, () => 200));
  });
});

describe('A restarted gateway (same settings, same token secret) is transparent to open sessions', () => {
  it('brings both sessions back into their room by themselves, and chat flows again', async () => {
    const name = `gateway-${randomUUID().slice(0, 8)}`;
    const alice = await inRoom('Alice', name);
    const bob = await inRoom('Bob', name);
    await server().restartGateway();
    await waitFor(alice.who, 'the room interrupted', (state) => state.rooms[alice.roomId]?.roomState === 'interrupted');
    const [a, b] = await Promise.all([joinedRoom(alice.who, alice.roomId), joinedRoom(bob.who, bob.roomId)]);
    const id = await bob.who.chat.sendChat(b.address, 'through the new gateway');
    await waitFor(alice.who, 'the message', (state) => Object.values(state.messages).some((message) => message.stanzaId === id));
    expect(a.address).toBe(b.address);
  });
});
