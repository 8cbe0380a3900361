// Issue 14, the join path: the shared worker's first script logs in on the websocket it opens ahead,
// and the session's StanzaJS client takes that login over. Against the real client and server (Prosody,
// and ejabberd in its project): what the first script writes must be, byte for byte, what StanzaJS writes.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Logger } from '../../src/common/logger';
import { gatewayAddresses, publicOrigin } from '../../src/protocol/endpoints';
import { startConnectionAhead } from '../../src/shared-worker/ahead/connectionAhead';
import { openXmppSocketAhead, type SocketConstructor } from '../../src/shared-worker/ahead/xmppSocketAhead';
import { xmppLoginOf } from '../../src/shared-worker/ahead/XmppLoginAhead';
import { MemoryIdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { providerConfig, useParley } from '../support/parley';
import { connected, joinedBy, useSessions } from '../support/sessions';
import { until } from '../support/until';
import { BrowserLikeWebSocket } from '../support/workerScope';

const server = useParley();
const openSession = useSessions();

/** StanzaJS's Node platform: its websocket transport constructs this `WebSocket` at each connect, as the browser's does the worker's global. */
const stanzaPlatform = createRequire(import.meta.url)('stanza/platform/node/index.js') as { WebSocket: unknown };
const nodeWebSocket = stanzaPlatform.WebSocket;
afterEach(() => {
  stanzaPlatform.WebSocket = nodeWebSocket;
});

/** A worker's scope whose `ws` sockets record every frame they send and receive: the wire, in order. */
function recordedWire() {
  const sent: string[] = [];
  const received: string[] = [];
  const sockets: WebSocket[] = [];
  class RecordingWebSocket extends BrowserLikeWebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols);
      sockets.push(this);
      this.on('message', (data) => received.push(String(data)));
      const send = this.send.bind(this) as (data: string) => void;
      this.send = ((data: string) => {
        sent.push(data);
        send(data);
      }) as WebSocket['send'];
    }
  }
  const scope: { WebSocket: SocketConstructor<WebSocket> } = { WebSocket: RecordingWebSocket };
  return { scope, sent, received, sockets };
}

/** A frame's element, or for an IQ what it asks (`iq bind`). */
function elementOf(frame: string): string {
  const element = /^<([\w:-]+)/.exec(frame)?.[1] ?? frame.slice(0, 20);
  return element === 'iq' ? `iq ${/<(\w+) xmlns="urn:ietf:params:xml:ns:xmpp-(\w+)"/.exec(frame)?.[2] ?? 'other'}` : element;
}

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info: () => undefined, error: (message) => errors.push(message) };
}

/** Logged in ahead, resource binding included: the bind's answer has come. */
function loggedInAhead(wire: ReturnType<typeof recordedWire>): boolean {
  return wire.received.some((frame) => frame.startsWith('<iq') && frame.includes('<jid>'));
}

describe('Join path: the shared worker logs in ahead, and the session’s client takes the login over (issue 14)', () => {
  it('the client sends the same stream open, SASL PLAIN, restart and bind as the login ahead: none goes twice, its bind is answered under its own id, and the session joins a room', async () => {
    const wire = recordedWire();
    const log = recordingLogger();
    const addresses = gatewayAddresses(publicOrigin(new URL(server().url)));
    const identityStorage = new MemoryIdentityStorage();
    const fetchAhead = startConnectionAhead(wire.scope, addresses, identityStorage, (url, init) => fetch(url, init), log);
    await until(() => loggedInAhead(wire));
    expect(wire.sent.map(elementOf)).toEqual(['open', 'auth', 'open', 'iq bind']);

    stanzaPlatform.WebSocket = wire.scope.WebSocket;
    const person = openSession({ server: server(), displayName: 'Alice', fetch: fetchAhead, identityStorage });
    await connected(person);
    expect(wire.sockets).toHaveLength(1);
    expect(wire.sent.slice(0, 5).map(elementOf)).toEqual(['open', 'auth', 'open', 'iq bind', 'presence']);
    // Bound as the session asked: the resource bound ahead is its config's id.
    const boundAhead = /<resource>([^<]+)<\/resource>/.exec(wire.sent[3]!)?.[1];
    expect(person.session.connection.selfAddress).toMatch(new RegExp(`/${boundAhead}$`));
    expect(log.errors).toEqual([]);
    expect(person.errors).toEqual([]);

    const room = await joinedBy(person, 'login-ahead');
    expect(room.address).toMatch(/^login-ahead@/);
    // The server read every frame of the login as a well-formed stream: none of its answers is a stream error, and the socket is the one opened ahead.
    expect(wire.received.filter((frame) => frame.includes('stream:error'))).toEqual([]);
    expect(wire.sockets).toHaveLength(1);
  });

  it('a session whose account is not the one logged in ahead has that socket closed, says so, and connects by itself on a socket of its own', async () => {
    const wire = recordedWire();
    const log = recordingLogger();
    const addresses = gatewayAddresses(publicOrigin(new URL(server().url)));
    const someoneElse = await providerConfig(server());
    openXmppSocketAhead(wire.scope, addresses.xmppWebsocket, { login: Promise.resolve(xmppLoginOf(someoneElse, addresses.xmppWebsocket)), log });
    await until(() => loggedInAhead(wire));

    stanzaPlatform.WebSocket = wire.scope.WebSocket;
    const person = openSession({ server: server(), displayName: 'Bob' });
    await connected(person);
    expect(log.errors).toEqual([expect.stringMatching(/differs from the one made ahead \(auth\)/)]);
    expect(wire.sockets).toHaveLength(2);
    expect(wire.sockets[0]!.readyState).toBe(WebSocket.CLOSED);
    expect(person.session.connection.selfAddress).not.toContain(someoneElse.userId);
  });
});
