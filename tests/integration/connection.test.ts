import type { Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import { CONFIG_REFRESH, LIVENESS, RECONNECT_POLICY } from '../../src/protocol/clientDefaults';
import { CONFIG_REQUEST, KEEPALIVE_INTERVAL_MS, NETWORK_EVENTS, RECONNECT } from '../../src/protocol/constants';
import type { Fetch } from '../../src/shared-worker/ConfigClient';
import type { LivenessSettings } from '../../src/shared-worker/ConnectionLiveness';
import type { SignalingSession } from '../../src/shared-worker/SignalingSession';
import { ManualClock } from '../support/ManualClock';
import { useParley } from '../support/parley';
import { connected, flushed, useSessions, type TestSession } from '../support/sessions';
import { until } from '../support/until';

const parley = useParley();
const openSession = useSessions();

/** A session built as the SharedWorker builds it, on fake time. */
function newSession(configPath = '/api/config', fetch?: Fetch, liveness?: LivenessSettings): { session: SignalingSession; clock: ManualClock; errors: TestSession['errors'] } {
  const { session, clock, errors } = openSession({ server: parley(), clock: new ManualClock(), configPath, ...(fetch ? { fetch } : {}), ...(liveness ? { liveness } : {}) });
  return { session, clock, errors };
}

/**
 * A fake network for the config request: while `down`, every request fails as a browser's fetch
 * does when the server is unreachable; otherwise it reaches the real gateway.
 */
function switchableNetwork(): { fetch: Fetch; down: boolean } {
  const network = {
    down: false,
    fetch: (input: string, init: RequestInit) => (network.down ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init)),
  };
  return network;
}

/** Runs the spec's config request attempts (1 s apart) until the session says failed. */
async function exhaustConfigAttempts(session: SignalingSession, clock: ManualClock): Promise<void> {
  for (let attempt = 1; attempt < CONFIG_REQUEST.attempts; attempt += 1) {
    await until(() => clock.pendingDelays().includes(CONFIG_REQUEST.retryDelayMs), `config attempt ${attempt + 1}`);
    await clock.advance(CONFIG_REQUEST.retryDelayMs);
  }
  await until(() => state(session) === 'failed', 'failed');
}

const state = (session: SignalingSession) => session.connection.state;

/** A connected session (random 0.5: half the jitter) whose XMPP server was then killed and kept down; it has noticed. */
async function connectedThenServerDown(fetch?: Fetch): Promise<{ session: SignalingSession; clock: ManualClock; jitter: number }> {
  const { session, clock } = newSession('/api/config', fetch);
  clock.randomValue = 0.5;
  void session.connect();
  await until(() => state(session) === 'connected', 'connected');
  await parley().killXmpp();
  await until(() => state(session) === 'disconnected', 'disconnected after the crash');
  return { session, clock, jitter: 0.5 * RECONNECT.maxJitterMs };
}

describe('Connection state: a session start gives connected (SPEC §4)', () => {
  it('goes connecting → connected and sends presence', async () => {
    const { session } = newSession();
    const seen: string[] = [];
    session.store.subscribe((message) => {
      if (message.type === 'patches') for (const patch of message.patches) if (patch.kind === 'connection') seen.push(patch.value.state);
    });
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');
    expect(seen).toEqual(['connecting', 'connected']);
    expect(session.connection.selfAddress).toMatch(/\/.+/);
  });
});

describe('Asks the server for no stream-management acks: chat delivery is the room’s echo, and resumption is off (issue 13)', () => {
  it('enables no stream management and follows a stanza with no ack request', async () => {
    const who = openSession({ server: parley(), displayName: 'Ack' });
    await connected(who);
    await flushed(who);
    expect(who.sent.length).toBeGreaterThan(0);
    expect(who.sent.filter((xml) => xml.includes('urn:xmpp:sm:'))).toEqual([]);
  });
});

describe('Connection state: a config fetch failure gives failed (SPEC §4, §7, ESWRTC_001)', () => {
  it('fails after the config retries are exhausted and logs ESWRTC_001', async () => {
    const { session, clock, errors } = newSession('/api/no-such-config');
    const connecting = session.connect();
    for (let attempt = 1; attempt < 10; attempt += 1) {
      await until(() => clock.pendingDelays().includes(1_000), `retry ${attempt}`);
      await clock.advance(1_000);
    }
    await connecting;
    expect(state(session)).toBe('failed');
    expect(errors).toEqual([{ message: 'SimpleWebRTC configuration request failed: 404', code: 'ESWRTC_001' }]);
  });
});

describe('Keepalive every 90 s (SPEC §7)', () => {
  it('pings the server each 90 s of session time', async () => {
    // The spec's keepalive on its own: issue 13's liveness pings only after a silence longer than this test.
    const { session, clock } = newSession('/api/config', undefined, { ...LIVENESS, quietMs: 3 * KEEPALIVE_INTERVAL_MS });
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');
    const pings: string[] = [];
    session.client?.on('raw:outgoing', (data) => {
      if (data.includes('urn:xmpp:ping')) pings.push(data);
    });
    await clock.advance(KEEPALIVE_INTERVAL_MS - 1);
    expect(pings).toHaveLength(0);
    await clock.advance(1);
    await until(() => pings.length === 1, 'first ping');
    await clock.advance(KEEPALIVE_INTERVAL_MS);
    await until(() => pings.length === 2, 'second ping');
  });
});

describe('Unexpected drop: disconnected, then reconnect after (attempts+1) s plus up to 2 s random (SPEC §4, §7)', () => {
  it('backs off while the server is down and reconnects when it is back; a deliberate disconnect ends it', async () => {
    const { session, clock, jitter } = await connectedThenServerDown();
    expect(clock.pendingDelays()).toContain(1 * RECONNECT.stepMs + jitter);

    // Still down: the next attempt fails and the wait grows by a step.
    await clock.advance(1 * RECONNECT.stepMs + jitter);
    await until(() => session.connection.reconnectAttempts === 2 && state(session) === 'disconnected', 'second attempt failed');
    expect(clock.pendingDelays()).toContain(2 * RECONNECT.stepMs + jitter);

    await parley().restartXmpp();
    await clock.advance(2 * RECONNECT.stepMs + jitter);
    await until(() => state(session) === 'connected', 'reconnected');
    expect(session.connection.reconnectAttempts).toBe(0);

    // A deliberate disconnect schedules nothing.
    session.disconnect();
    expect(state(session)).toBe('disconnected');
    expect(clock.pendingDelays()).toEqual([]);
  });
});

describe('Browser network events (SPEC §7): offline disconnects after 5 s, online reconnects within 5 s', () => {
  it('disconnects 5 s after going offline, not before, and reconnects after the random online delay', async () => {
    const { session, clock } = newSession();
    clock.randomValue = 0.25;
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');

    session.offline();
    await clock.advance(NETWORK_EVENTS.offlineDisconnectDelayMs - 1);
    expect(state(session)).toBe('connected');
    await clock.advance(1);
    expect(state(session)).toBe('disconnected');

    session.online();
    const onlineDelay = 0.25 * NETWORK_EVENTS.onlineMaxDelayMs;
    await clock.advance(onlineDelay - 1);
    expect(state(session)).toBe('disconnected');
    await clock.advance(1);
    await until(() => state(session) === 'connected', 'reconnected after online');
  });

  it('coming back online before 5 s cancels the disconnect', async () => {
    const { session, clock } = newSession();
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');
    session.offline();
    await clock.advance(NETWORK_EVENTS.offlineDisconnectDelayMs / 2);
    // Back online, the session checks its connection at once (a ping): the server's answer keeps it.
    let heard = false;
    session.client?.on('raw:incoming', () => (heard = true));
    session.online();
    await until(() => heard, 'the server’s answer to the check made on online');
    await clock.advance(NETWORK_EVENTS.offlineDisconnectDelayMs);
    expect(state(session)).toBe('connected');
  });
});

describe('Never gives up while the person wants to be connected: after failed, the reconnect policy keeps trying; Retry now tries at once (issue 13)', () => {
  it('schedules the next attempt after failed, says since when and when next, and connects on Retry now', async () => {
    const network = switchableNetwork();
    network.down = true;
    const { session, clock } = newSession('/api/config', network.fetch);
    clock.randomValue = 0.5;
    const jitter = 0.5 * RECONNECT.maxJitterMs;
    void session.connect();
    await exhaustConfigAttempts(session, clock);
    const failedAt = clock.now();

    // Failed, and yet another attempt is on its way: the first retry of the policy.
    expect(session.connection).toMatchObject({ state: 'failed', reconnectAttempts: 1, disconnectedSince: failedAt, nextAttemptAt: failedAt + RECONNECT.stepMs + jitter });
    expect(clock.pendingDelays()).toEqual([RECONNECT.stepMs + jitter]);

    // That attempt fails too: failed again, the next one further off, the loss still dated from the first failure.
    await clock.advance(RECONNECT.stepMs + jitter);
    await exhaustConfigAttempts(session, clock);
    expect(session.connection).toMatchObject({ state: 'failed', reconnectAttempts: 2, disconnectedSince: failedAt });
    expect(clock.pendingDelays()).toEqual([2 * RECONNECT.stepMs + jitter]);

    // The server is reachable again; "Retry now" (connect) does not wait for the timer.
    network.down = false;
    void session.connect();
    await until(() => state(session) === 'connected', 'connected on Retry now');
    expect(session.connection).toMatchObject({ reconnectAttempts: 0, disconnectedSince: undefined, nextAttemptAt: undefined });
    // Connected: liveness, keepalive, and the config's refresh at half its credential's lifetime (CONFIG_REFRESH).
    expect(clock.pendingDelays()).toEqual([LIVENESS.quietMs, KEEPALIVE_INTERVAL_MS, parley().settings.credentialTtlSeconds * 1000 * CONFIG_REFRESH.lifetimeFraction]);
  });

  it('after a deliberate disconnect a failed attempt schedules nothing more', async () => {
    const network = switchableNetwork();
    network.down = true;
    const { session, clock } = newSession('/api/config', network.fetch);
    void session.connect();
    await exhaustConfigAttempts(session, clock);
    session.disconnect();
    expect(clock.pendingDelays()).toEqual([]);
    expect(session.connection).toMatchObject({ nextAttemptAt: undefined, disconnectedSince: undefined });
  });
});

/**
 * A fake slow network for the config request: each request waits until the test lets the waiting
 * ones through, then reaches the real gateway. Counts the requests sent and answered.
 */
function heldConfigRequests(): { fetch: Fetch; sent: number; answered: number; release(): void } {
  const waiting: Array<() => void> = [];
  const network = {
    sent: 0,
    answered: 0,
    fetch: async (input: string, init: RequestInit) => {
      if (!input.endsWith('/api/config')) return fetch(input, init);
      network.sent += 1;
      await new Promise<void>((go) => waiting.push(go));
      const response = await fetch(input, init);
      network.answered += 1;
      return response;
    },
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
  return network;
}

describe('One connection at a time: an attempt overtaken by the end of the connection (offline) starts no client beside the next attempt (SPEC §4, §7)', () => {
  const nextAttempts: Array<[string, (session: SignalingSession) => void]> = [
    ['online', (session) => session.online()],
    ['Retry now', (session) => void session.connect()],
  ];
  it.each(nextAttempts)('a config that comes back for the attempt the offline ended is dropped; the attempt made on %s logs in alone', async (_how, tryAgain) => {
    const network = heldConfigRequests();
    const { session, clock } = newSession('/api/config', network.fetch);
    clock.randomValue = 0;
    const clients: Agent[] = [];
    session.addDomain({ attachClient: (client) => clients.push(client) });

    void session.connect();
    await until(() => network.sent === 1, 'the first attempt’s config request');
    session.offline();
    await clock.advance(NETWORK_EVENTS.offlineDisconnectDelayMs);
    expect(state(session)).toBe('disconnected');

    tryAgain(session);
    await clock.advance(0);
    await until(() => network.sent === 2, 'the next attempt’s config request');
    network.release();
    await until(() => network.answered === 2 && state(session) === 'connected', 'both configs back, and connected');
    // A server round trip: time enough for the first attempt to have started its client, were it to.
    await session.client!.ping();
    expect(clients).toHaveLength(1);
    expect(session.client).toBe(clients[0]);
    expect(state(session)).toBe('connected');
  });
});

describe('Offline (SPEC §7) is not a deliberate disconnect: nothing is tried while offline, online brings the session back (issue 13)', () => {
  it('says offline, schedules no attempt while offline even when the server drops us, and reconnects on online', async () => {
    const { session, clock } = newSession();
    clock.randomValue = 0;
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');

    session.offline();
    expect(session.connection.offline).toBe(true);
    await clock.advance(NETWORK_EVENTS.offlineDisconnectDelayMs);
    expect(session.connection).toMatchObject({ state: 'disconnected', offline: true, nextAttemptAt: undefined });
    expect(session.connection.disconnectedSince).toBe(clock.now());
    expect(clock.pendingDelays()).toEqual([]);

    session.online();
    expect(session.connection.offline).toBe(false);
    await clock.advance(0);
    await until(() => state(session) === 'connected', 'reconnected after online');
    expect(session.connection.disconnectedSince).toBeUndefined();
  });

  it('a drop while offline waits for online instead of trying', async () => {
    const { session, clock } = newSession();
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');
    session.offline();
    await parley().killXmpp();
    await until(() => state(session) === 'disconnected', 'dropped');
    // Only the spec's offline timer is left; no reconnect attempt.
    expect(clock.pendingDelays()).toEqual([NETWORK_EVENTS.offlineDisconnectDelayMs]);
    await parley().restartXmpp();
    session.online();
    await clock.advance(NETWORK_EVENTS.onlineMaxDelayMs);
    await until(() => state(session) === 'connected', 'reconnected after online');
  });
});

/** A fetch that counts the config requests it passes on (each is an attempt reaching the gateway). */
function countingConfigRequests(): { fetch: Fetch; configRequests: number } {
  const counter = {
    configRequests: 0,
    fetch: (input: string, init: RequestInit) => {
      if (input.endsWith('/api/config')) counter.configRequests += 1;
      return fetch(input, init);
    },
  };
  return counter;
}

describe('Back within the target whatever the outage’s length: past the spec’s attempts the session waits for the gateway to say the XMPP server is up, and tries then (issue 13)', () => {
  it('makes no attempt while the server stays down, and tries within the spread once it accepts connections again', async () => {
    const counter = countingConfigRequests();
    const { session, clock, jitter } = await connectedThenServerDown(counter.fetch);
    // The spec's attempts, each failing while the server is down.
    for (let attempt = 1; attempt <= RECONNECT_POLICY.specAttempts; attempt += 1) {
      await clock.advance(attempt * RECONNECT.stepMs + jitter);
      await until(() => session.connection.reconnectAttempts === attempt + 1 && state(session) === 'disconnected', `attempt ${attempt} failed`);
    }
    // Then it waits on the gateway: said in the state, no attempt scheduled, none made however long it lasts.
    await until(() => session.connection.waitingForServer, 'waiting for the server');
    expect(session.connection.nextAttemptAt).toBeUndefined();
    const requestsBefore = counter.configRequests;
    await clock.advance(RECONNECT_POLICY.readinessTimeoutMs - 1);
    expect(counter.configRequests).toBe(requestsBefore);

    await parley().restartXmpp();
    // The gateway answers as the server comes up: the attempt goes after the spread, not after a grown backoff.
    const spread = 0.5 * RECONNECT_POLICY.spreadAfterUpMs;
    await until(() => session.connection.nextAttemptAt !== undefined, 'an attempt scheduled once the server is up');
    expect(session.connection.waitingForServer).toBe(false);
    expect(clock.pendingDelays()).toContain(spread);
    await clock.advance(spread);
    await until(() => state(session) === 'connected', 'reconnected');
    expect(counter.configRequests).toBe(requestsBefore + 1);
  });

  it('a server the gateway says is up that still refuses us is not tried in a loop: after such an attempt fails, the next waits its delay before asking again', async () => {
    // A config service that fails every request (a fake of a broken deployment); the gateway's readiness route is the real one.
    const refusing: Fetch = (input, init) => (input.endsWith('/api/config') ? Promise.resolve(new Response('', { status: 500 })) : fetch(input, init));
    const { session, clock } = newSession('/api/config', refusing);
    clock.randomValue = 0.5;
    void session.connect();
    await exhaustConfigAttempts(session, clock);
    for (let attempt = 1; attempt <= RECONNECT_POLICY.specAttempts; attempt += 1) {
      await clock.advance(clock.pendingDelays()[0]!);
      await exhaustConfigAttempts(session, clock);
    }
    // The gateway says the XMPP server is up: tried after the spread.
    const spread = 0.5 * RECONNECT_POLICY.spreadAfterUpMs;
    await until(() => clock.pendingDelays().includes(spread), 'tried once the gateway says up');
    await clock.advance(spread);
    await exhaustConfigAttempts(session, clock);
    // That failed: the next attempt waits the policy's delay, without asking.
    expect(session.connection.waitingForServer).toBe(false);
    const [delay] = clock.pendingDelays();
    expect(delay).toBeGreaterThan(spread);
    expect(delay).toBeLessThan(RECONNECT_POLICY.maxDelayMs);
    await clock.advance(delay!);
    await exhaustConfigAttempts(session, clock);
    // And then asks again.
    await until(() => clock.pendingDelays().includes(spread), 'asked again');
  });

  it('when the gateway cannot be reached to ask, tries on the spec’s schedule capped at maxDelayMs', async () => {
    const network = switchableNetwork();
    const { session, clock } = newSession('/api/config', network.fetch);
    clock.randomValue = 0.999;
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');
    network.down = true;
    await parley().restartGateway();
    await until(() => state(session) !== 'connected', 'dropped with the gateway');
    const delays: number[] = [];
    for (let attempt = 1; attempt <= RECONNECT_POLICY.specAttempts + 3; attempt += 1) {
      await until(() => session.connection.nextAttemptAt !== undefined, `attempt ${attempt} scheduled`);
      const [delay] = clock.pendingDelays();
      delays.push(delay!);
      await clock.advance(delay!);
      await exhaustConfigAttempts(session, clock);
    }
    // The spec's attempt × step plus 0.999 of its jitter; past the spec's attempts, that schedule
    // capped: the jitter (here the spec's whole jitter) taken off maxDelayMs, 0.999 of it added back.
    const jitter = 0.999 * RECONNECT.maxJitterMs;
    const capped = RECONNECT_POLICY.maxDelayMs - RECONNECT.maxJitterMs + jitter;
    expect(delays).toEqual([1 * RECONNECT.stepMs + jitter, 2 * RECONNECT.stepMs + jitter, capped, capped, capped]);
    expect(Math.max(...delays.slice(RECONNECT_POLICY.specAttempts))).toBeLessThanOrEqual(RECONNECT_POLICY.maxDelayMs);
    network.down = false;
    await until(() => session.connection.nextAttemptAt !== undefined, 'next attempt scheduled');
    await clock.advance(clock.pendingDelays()[0]!);
    await until(() => state(session) === 'connected', 'reconnected');
  });
});

describe('A connection that stops answering is noticed by the session itself within quiet + answer time, said in plain words, and replaced (issue 13)', () => {
  it('pings after LIVENESS.quietMs of silence; an answer keeps the connection', async () => {
    const { session, clock } = newSession();
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');
    const pings: string[] = [];
    let heard = 0;
    session.client?.on('raw:outgoing', (data) => data.includes('urn:xmpp:ping') && pings.push(data));
    session.client?.on('raw:incoming', () => (heard += 1));
    await clock.advance(LIVENESS.quietMs - 1);
    expect(pings).toHaveLength(0);
    await clock.advance(1);
    expect(pings).toHaveLength(1);
    await until(() => heard > 0, 'the answer');
    await clock.advance(LIVENESS.answerWithinMs);
    expect(state(session)).toBe('connected');
  });

  it('a server that stops answering (its process stopped: the socket stays open, nothing comes back) is given up and the session reconnects once it answers', async () => {
    const { session, clock } = newSession();
    clock.randomValue = 0;
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');
    const pid = parley().xmpp.pid!;
    process.kill(pid, 'SIGSTOP');
    try {
      await clock.advance(LIVENESS.quietMs + LIVENESS.answerWithinMs - 1);
      expect(state(session)).toBe('connected');
      await clock.advance(1);
      expect(session.connection).toMatchObject({ state: 'disconnected', stoppedAnswering: true });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await clock.advance(RECONNECT.stepMs);
    await until(() => state(session) === 'connected', 'reconnected');
    expect(session.connection.stoppedAnswering).toBe(false);
  });

  it('a login that never becomes a session (the server stopped answering while it was on its way) is given up after LIVENESS.startWithinMs', async () => {
    const { session, clock } = newSession();
    clock.randomValue = 0;
    const pid = parley().xmpp.pid!;
    process.kill(pid, 'SIGSTOP');
    try {
      void session.connect();
      // The config service answers (the gateway), the XMPP server does not: the login hangs.
      await until(() => clock.pendingDelays().includes(LIVENESS.startWithinMs), 'the login under way');
      await clock.advance(LIVENESS.startWithinMs - 1);
      expect(state(session)).toBe('connecting');
      await clock.advance(1);
      expect(session.connection).toMatchObject({ state: 'disconnected', stoppedAnswering: true, reconnectAttempts: 1 });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await clock.advance(RECONNECT.stepMs);
    await until(() => state(session) === 'connected', 'connected once it answers');
  });
});
