import { describe, expect, it } from 'vitest';
import { KEEPALIVE_INTERVAL_MS, NETWORK_EVENTS, RECONNECT } from '../../src/protocol/constants';
import type { SignalingSession } from '../../src/shared-worker/SignalingSession';
import { ManualClock } from '../support/ManualClock';
import { useParley } from '../support/parley';
import { useSessions, type TestSession } from '../support/sessions';
import { until } from '../support/until';

const parley = useParley();
const openSession = useSessions();

/** A session built as the SharedWorker builds it, on fake time. */
function newSession(configPath = '/api/config'): { session: SignalingSession; clock: ManualClock; errors: TestSession['errors'] } {
  const { session, clock, errors } = openSession({ server: parley(), clock: new ManualClock(), configPath });
  return { session, clock, errors };
}

const state = (session: SignalingSession) => session.connection.state;

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
    const { session, clock } = newSession();
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
    const { session, clock } = newSession();
    clock.randomValue = 0.5;
    const jitter = 0.5 * RECONNECT.maxJitterMs;
    void session.connect();
    await until(() => state(session) === 'connected', 'connected');

    await parley().killXmpp();
    await until(() => state(session) === 'disconnected', 'disconnected after the crash');
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
    session.online();
    await clock.advance(NETWORK_EVENTS.offlineDisconnectDelayMs);
    expect(state(session)).toBe('connected');
  });
});
