import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { systemClock } from '../../src/common/clock';
import { XMPP_SOCKET_AHEAD_UNCLAIMED_MS } from '../../src/protocol/clientDefaults';
import { CONFIG_REQUEST } from '../../src/protocol/constants';
import { XMPP_WEBSOCKET_PROTOCOL } from '../../src/protocol/endpoints';
import { FetchAhead } from '../../src/shared-worker/ahead/FetchAhead';
import { openXmppSocketAhead } from '../../src/shared-worker/ahead/xmppSocketAhead';
import { fetchConfig } from '../../src/shared-worker/ConfigClient';
import { configRequestInit } from '../../src/shared-worker/configRequestInit';
import { flushMicrotasks, ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { workerScope } from '../support/workerScope';

/** A websocket server on loopback that accepts XMPP's subprotocol and keeps what it saw. */
class SocketServer {
  readonly connections: WebSocket[] = [];
  readonly closed: WebSocket[] = [];
  readonly received: string[] = [];

  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket) => {
      this.connections.push(socket);
      socket.on('message', (data) => this.received.push(String(data)));
      socket.on('close', () => this.closed.push(socket));
    });
  }

  static async start(): Promise<SocketServer> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (protocols) => (protocols.has(XMPP_WEBSOCKET_PROTOCOL) ? XMPP_WEBSOCKET_PROTOCOL : false) });
    await new Promise((resolve) => server.once('listening', resolve));
    return new SocketServer(server);
  }

  url(path = '/xmpp-websocket'): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  close(): Promise<void> {
    for (const socket of this.server.clients) socket.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function opened(socket: WebSocket): Promise<number> {
  let opens = 0;
  return new Promise((resolve) => {
    socket.onopen = () => {
      opens += 1;
      // Any second open would come within the same turn or the next.
      setTimeout(() => resolve(opens), 20);
    };
  });
}

describe('The shared worker opens the XMPP websocket as it starts, before the config that names it has come back (issue 14, the join path)', () => {
  let server: SocketServer;
  const sockets: WebSocket[] = [];

  beforeEach(async () => {
    server = await SocketServer.start();
  });

  afterEach(async () => {
    sockets.splice(0).forEach((socket) => socket.terminate());
    await server.close();
  });

  it('the first websocket asked for at that address with XMPP’s subprotocol is the one opened ahead: one connection, and its asker hears it open', async () => {
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url(), { clock: systemClock });
    await until(() => server.connections.length === 1 && server.connections[0]!.readyState === WebSocket.OPEN);

    const socket = new scope.WebSocket(server.url(), XMPP_WEBSOCKET_PROTOCOL);
    sockets.push(socket);
    expect(socket).toBeInstanceOf(WebSocket);
    expect(await opened(socket)).toBe(1);
    socket.send('<open xmlns="urn:ietf:params:xml:ns:xmpp-framing" to="parley.localhost" version="1.0"/>');
    await until(() => server.received.length === 1);
    expect(server.connections).toHaveLength(1);

    // The next asker, a reconnect's, gets a socket of its own.
    const next = new scope.WebSocket(server.url(), XMPP_WEBSOCKET_PROTOCOL);
    sockets.push(next);
    expect(await opened(next)).toBe(1);
    expect(server.connections).toHaveLength(2);
  });

  it('asked for while it is still connecting, its asker hears the socket’s own open, once', async () => {
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url(), { clock: systemClock });
    const socket = new scope.WebSocket(server.url(), XMPP_WEBSOCKET_PROTOCOL);
    sockets.push(socket);
    expect(socket.readyState).toBe(WebSocket.CONNECTING);
    expect(await opened(socket)).toBe(1);
    expect(server.connections).toHaveLength(1);
  });

  it('when the config names another address, the asker gets a socket to that one and the socket opened ahead is closed', async () => {
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url('/elsewhere'), { clock: systemClock });
    await until(() => server.connections.length === 1);

    const socket = new scope.WebSocket(server.url(), XMPP_WEBSOCKET_PROTOCOL);
    sockets.push(socket);
    expect(await opened(socket)).toBe(1);
    await until(() => server.closed.length === 1);
    expect(server.closed[0]).toBe(server.connections[0]);
    expect(server.connections).toHaveLength(2);
  });

  it('a socket the server closed before it was asked for is not handed over: the asker opens its own', async () => {
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url(), { clock: systemClock });
    await until(() => server.connections.length === 1);
    server.connections[0]!.close();
    await until(() => server.closed.length === 1);
    // The client side has seen the close too once its own close handshake is done.
    await new Promise((resolve) => setTimeout(resolve, 50));

    const socket = new scope.WebSocket(server.url(), XMPP_WEBSOCKET_PROTOCOL);
    sockets.push(socket);
    expect(await opened(socket)).toBe(1);
    expect(server.connections).toHaveLength(2);
  });

  it(`one that no login has taken within ${XMPP_SOCKET_AHEAD_UNCLAIMED_MS / 1000} s (the config kept failing) is closed, and a later login opens its own`, async () => {
    const clock = new ManualClock();
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url(), { clock });
    await until(() => server.connections.length === 1);
    await clock.advance(XMPP_SOCKET_AHEAD_UNCLAIMED_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.closed).toHaveLength(0);
    await clock.advance(1);
    await until(() => server.closed.length === 1);

    const socket = new scope.WebSocket(server.url(), XMPP_WEBSOCKET_PROTOCOL);
    sockets.push(socket);
    expect(await opened(socket)).toBe(1);
    expect(server.connections).toHaveLength(2);
  });
});

/**
 * An HTTP server on loopback that answers every request after `hold` resolves and keeps the bodies it
 * saw; the first `stalledBodies` answers send their headers and part of their body, and then nothing.
 */
class ConfigServer {
  readonly bodies: string[] = [];
  hold: Promise<void> = Promise.resolve();
  stalledBodies = 0;
  private readonly server: Server;

  constructor(answer: (body: string) => unknown) {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.bodies.push(body);
        void this.hold.then(() => {
          response.setHeader('content-type', 'application/json');
          const text = JSON.stringify(answer(body));
          if (this.stalledBodies-- > 0) response.write(text.slice(0, 10));
          else response.end(text);
        });
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/config`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A config whose id says which request it answered. */
function configAnswering(body: string): unknown {
  const { identity } = JSON.parse(body) as { identity?: string };
  return { credential: 'c', id: `answer-${identity ?? 'new'}`, roomConfigUrl: 'http://h/api/room-config', signalingUrl: 'ws://h/xmpp-websocket', userId: 'u@h' };
}

const network = (url: string, init: RequestInit) => fetch(url, init);

describe('The shared worker sends the session’s first config request as it starts, before the session’s code has loaded (issue 14, the join path)', () => {
  let server: ConfigServer;
  let url: string;

  beforeEach(async () => {
    server = new ConfigServer(configAnswering);
    url = await server.listen();
  });

  afterEach(() => server.close());

  it('the session’s first config request is the one sent ahead: the service sees one request, and the session reads its answer', async () => {
    const ahead = new FetchAhead(network);
    ahead.send(url, configRequestInit(undefined, 'stored.identity'));
    await until(() => server.bodies.length === 1);

    const config = await fetchConfig(ahead.fetch, systemClock, url, undefined, 'stored.identity');
    expect(config.id).toBe('answer-stored.identity');
    expect(server.bodies).toHaveLength(1);

    // The next one, a reconnect's, goes to the service.
    await fetchConfig(ahead.fetch, systemClock, url, undefined, 'stored.identity');
    expect(server.bodies).toHaveLength(2);
  });

  it('a new visitor’s request sent before the stored identity is known, and the identity’s sent once it is: the session asking with the identity takes the second, and the first is dropped', async () => {
    const ahead = new FetchAhead(network);
    ahead.send(url, configRequestInit());
    ahead.send(url, configRequestInit(undefined, 'stored.identity'));
    await until(() => server.bodies.length === 2);

    const config = await fetchConfig(ahead.fetch, systemClock, url, undefined, 'stored.identity');
    expect(config.id).toBe('answer-stored.identity');
    expect(server.bodies).toHaveLength(2);
    // The other one was dropped with that first ask: a later request without an identity goes to the service.
    expect((await fetchConfig(ahead.fetch, systemClock, url)).id).toBe('answer-new');
    expect(server.bodies).toHaveLength(3);
  });

  it('a request that is not the one sent ahead (another identity, a reconnect’s resume) goes to the service', async () => {
    const ahead = new FetchAhead(network);
    ahead.send(url, configRequestInit(undefined, undefined));
    await until(() => server.bodies.length === 1);

    const config = await fetchConfig(ahead.fetch, systemClock, url, undefined, 'renewed.identity', 'previous.credential');
    expect(config.id).toBe('answer-renewed.identity');
    expect(server.bodies).toHaveLength(2);
    expect(JSON.parse(server.bodies[1]!)).toMatchObject({ identity: 'renewed.identity', resume: 'previous.credential' });
  });

  it('the asker’s own timeout holds for the request sent ahead, and its retry goes to the service', async () => {
    let release!: () => void;
    server.hold = new Promise((resolve) => (release = resolve));
    const ahead = new FetchAhead(network);
    const init = configRequestInit(undefined, 'stored.identity');
    ahead.send(url, init);
    await until(() => server.bodies.length === 1);

    const asked = ahead.fetch(url, { ...init, signal: AbortSignal.timeout(50) });
    await expect(asked).rejects.toThrow(/timeout|aborted/i);
    release();
    const retried = await ahead.fetch(url, init);
    expect(((await retried.json()) as { id: string }).id).toBe('answer-stored.identity');
    expect(server.bodies).toHaveLength(2);
  });

  it('the asker’s own timeout holds for the answer’s body too: one that stalls after its headers is given up, and the retry goes to the service', async () => {
    server.stalledBodies = 1;
    const clock = new ManualClock();
    const ahead = new FetchAhead(network);
    // Settled once the answer's headers have arrived.
    await ahead.send(url, configRequestInit(undefined, 'stored.identity'));

    const asked = fetchConfig(ahead.fetch, clock, url, undefined, 'stored.identity');
    // The asker has the headers, and reads the body.
    await flushMicrotasks();
    await clock.advance(CONFIG_REQUEST.timeoutMs);
    await until(() => clock.pendingDelays().includes(CONFIG_REQUEST.retryDelayMs), 'the retry after the stalled body');
    await clock.advance(CONFIG_REQUEST.retryDelayMs);
    expect((await asked).id).toBe('answer-stored.identity');
    expect(server.bodies).toHaveLength(2);
  });

  it('a request sent ahead that fails fails its asker, and one never asked for fails unseen', async () => {
    await server.close();
    const ahead = new FetchAhead(network);
    ahead.send(url, configRequestInit(undefined, 'stored.identity'));
    ahead.send(`${url}?never-asked`, configRequestInit(undefined, 'stored.identity'));
    await expect(ahead.fetch(url, configRequestInit(undefined, 'stored.identity'))).rejects.toThrow(/fetch failed/);
  });
});
