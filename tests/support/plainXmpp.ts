import { createClient, type Agent, type Stanzas } from 'stanza';
import type { ProviderConfig } from '../../src/protocol/config';
import { parleyStanzas } from '../../src/protocol/stanzas';

// Plain XMPP clients without the test runner, so the benchmarks use them too (xmppClient.ts adds
// the test files' tracking).

/**
 * A plain StanzaJS client logged in with a config's credential, as any XMPP client would; with
 * `withParleyStanzas` false it is StanzaJS exactly as others ship it (no tolerant JSON importers).
 */
export function clientFor(
  config: Pick<ProviderConfig, 'userId' | 'credential' | 'id' | 'signalingUrl'>,
  password = config.credential,
  withParleyStanzas = true,
): Agent {
  const client = createClient({
    jid: config.userId,
    password,
    resource: config.id,
    transports: { websocket: config.signalingUrl, bosh: false },
    autoReconnect: false,
  });
  if (withParleyStanzas) client.use(parleyStanzas);
  return withHandledAckRequests(client);
}

/**
 * StanzaJS sends stream-management elements (the request after each stanza, the ack of the
 * server's request) without anyone to hear of their failure: when the socket closes in between (a
 * client logged out as a test or a bench run ends), the request's promise rejects unheard, which
 * the test runner reports as a failure, and the ack's is printed by StanzaJS with its stack. Such
 * an element that cannot go is dropped: the stream it counted for is over. The client's stream
 * management is otherwise StanzaJS's own; stanzas that cannot be sent still reject as before.
 */
export function withHandledAckRequests(client: Agent): Agent {
  const StanzaTransport = client.transports.websocket!;
  client.transports.websocket = class extends StanzaTransport {
    override send(name: string, data?: Parameters<InstanceType<typeof StanzaTransport>['send']>[1]): Promise<void> {
      const sent = super.send(name, data);
      return name === 'sm' ? sent.catch(() => undefined) : sent;
    }
  };
  return client;
}

/** Resolves when the session starts, rejects when authentication fails or the stream closes first. */
export function login(client: Agent, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('login timed out')), timeoutMs);
    client.once('session:started', () => {
      clearTimeout(timer);
      resolve();
    });
    client.once('auth:failed', () => {
      clearTimeout(timer);
      reject(new Error('auth:failed'));
    });
    client.once('disconnected', () => {
      clearTimeout(timer);
      reject(new Error('disconnected before the session started'));
    });
    void client.connect();
  });
}

/** StanzaJS's joinRoom has no timeout of its own. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms)));
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

/** The room config form that makes a room moderated: only moderators and participants (people with voice) speak. */
export const MODERATED_ROOM: Stanzas.DataForm = {
  type: 'submit',
  fields: [
    { name: 'FORM_TYPE', type: 'hidden', value: 'http://jabber.org/protocol/muc#roomconfig' },
    { name: 'muc#roomconfig_moderatedroom', type: 'boolean', value: true },
  ],
};
