import type { Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/common/logger';
import type { ErrorCode } from '../../src/protocol/errors';
import type { Fetch } from '../../src/shared-worker/ConfigClient';
import { MemoryIdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { SignalingSession } from '../../src/shared-worker/SignalingSession';
import { ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { FakeXmppClient } from './signaling-session-fakes';

const CONFIG = { credential: 'credential', id: 'config-id', roomConfigUrl: 'http://h/api/room-config', signalingUrl: 'ws://h/xmpp-websocket', userId: 'guest@h' };

/** Lets the config request's answer be read (a Response's body is read over event-loop turns). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A session whose config service (a fake fetch) answers every request with `config`; its XMPP client is a fake. */
function sessionAnswered(config: Record<string, unknown>): { session: SignalingSession; fakeClient: FakeXmppClient } {
  const fakeClient = new FakeXmppClient();
  const fetch: Fetch = () => Promise.resolve(new Response(JSON.stringify(config), { status: 200, headers: { 'content-type': 'application/json' } }));
  const log: Logger<ErrorCode> = { info: () => undefined, error: () => undefined };
  const session = new SignalingSession({
    clock: new ManualClock(),
    fetch,
    log,
    configUrl: '/api/config',
    identityStorage: new MemoryIdentityStorage(),
    createXmppClient: () => fakeClient as unknown as Agent,
  });
  return { session, fakeClient };
}

describe('A config that says the browser’s identity was replaced (its saved data lost or cleared) puts that in the session state, for the pages to explain', () => {
  it('sets connection.identityReplaced when the config says identityReplaced', async () => {
    const { session } = sessionAnswered({ ...CONFIG, identityReplaced: true });
    void session.connect();
    await settle();
    expect(session.connection.identityReplaced).toBe(true);
  });

  it('leaves it false for a config without the field (a first visit, or a gateway that does not send it)', async () => {
    const { session, fakeClient } = sessionAnswered(CONFIG);
    void session.connect();
    // The answer was read: the client was given its user.
    await until(() => fakeClient.config.jid === CONFIG.userId, 'the config answer read');
    expect(session.connection.state).toBe('connecting');
    expect(session.connection.identityReplaced).toBe(false);
  });
});
