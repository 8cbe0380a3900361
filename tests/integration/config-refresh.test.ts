import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_REFRESH, LIVENESS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';
import { useParley } from '../support/parley';
import { connected, joinedRoom, useSessions } from '../support/sessions';
import { until } from '../support/until';
import { connectRelay } from './relay-client';

const TTL_SECONDS = 60;
const parley = useParley({ credentialTtlSeconds: TTL_SECONDS });
const openSession = useSessions();

afterEach(() => {
  vi.useRealTimers();
});

/**
 * The gateway and the relay (in this process) read the time from Date: faked, the tokens they
 * issued age by the test's word, with no wait; the session runs on its own fake clock.
 */
function gatewayTime(at: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
}

describe('The config is refreshed while the connection lasts: its credential and relay token do not go stale (PARLEY_CREDENTIAL_TTL_SECONDS)', () => {
  it('asks again (resume: the same id) before half the lifetime is over, with no reconnect; past the first TTL the room config and the relay AUTH still succeed', async () => {
    const clock = new ManualClock();
    const who = openSession({ server: parley(), clock, liveness: { ...LIVENESS, quietMs: 24 * 3_600_000 } });
    await connected(who);
    const first = who.session.config!;
    const { selfAddress } = who.session.connection;
    const issuedAt = Date.now();

    // Half the lifetime on: the session asks again, while its credential is still good for `resume`.
    gatewayTime(issuedAt + (TTL_SECONDS * CONFIG_REFRESH.lifetimeFraction + 1) * 1000);
    await clock.advance(TTL_SECONDS * 1000 * CONFIG_REFRESH.lifetimeFraction);
    await until(() => who.session.config !== first, 'the refreshed config');
    const fresh = who.session.config!;
    expect(fresh.credential).not.toBe(first.credential);
    expect(fresh.id).toBe(first.id);
    expect(who.session.connection).toMatchObject({ state: 'connected', selfAddress, reconnectAttempts: 0 });
    expect(who.session.connection.callConfig?.sfuServer?.password).toBe(fresh.sfuServer!.password);

    // Past the first config's TTL: its tokens are refused, the session's are not.
    gatewayTime(issuedAt + (TTL_SECONDS + 5) * 1000);
    const room = await joinedRoom(who, await who.rooms.joinRoom('After Hours', { autoJoinCall: false }));
    expect(room.selfAddress.endsWith(`/${first.id}`)).toBe(true);
    const stale = await connectRelay(fresh.sfuServer!.url);
    const current = await connectRelay(fresh.sfuServer!.url);
    try {
      expect((await stale.call('AUTH', { token: first.sfuServer!.password })).error?.message).toBe('AUTH refused: token expired');
      await current.ok('AUTH', { token: who.session.connection.callConfig!.sfuServer!.password });
    } finally {
      await Promise.all([stale.close(), current.close()]);
    }
  });
});
