import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { systemClock } from '../../src/common/clock';
import type { Logger } from '../../src/common/logger';
import { XMPP_WEBSOCKET_PROTOCOL } from '../../src/protocol/endpoints';
import { openXmppSocketAhead, type SocketConstructor } from '../../src/shared-worker/ahead/xmppSocketAhead';
import { bindFrame, plainAuthFrame, streamOpenFrame, xmppLoginOf, type XmppLogin } from '../../src/shared-worker/ahead/XmppLoginAhead';
import { until } from '../support/until';
import { workerScope } from '../support/workerScope';

const DOMAIN = 'parley.localhost';
const LOGIN: XmppLogin = { domain: DOMAIN, username: 'guest-1', password: 'token-1', resource: 'resource-1' };
/** The client's bind, with an id of its own (StanzaJS makes one per request). */
const BIND = bindFrame('client-bind-1', 'resource-1');
/** LOGIN's frames before binding, as the login ahead and the client both send them. */
const LOGIN_BEFORE_BIND = [streamOpenFrame(DOMAIN), plainAuthFrame(LOGIN), streamOpenFrame(DOMAIN)];
/** LOGIN's frames as the login ahead sends them, binding included. */
const LOGIN_AHEAD = [...LOGIN_BEFORE_BIND, bindFrame('bind-ahead', 'resource-1')];

/**
 * A named fake: the XMPP server's side of a websocket login, scripted on loopback (the real
 * client and server meet in tests/integration/login-ahead.test.ts). It answers a stream open with
 * its header and features (mechanisms before SASL, binding after), an auth with success, and a bind
 * with its result under the request's id, each answer in the order of the requests, as a server
 * reads a stream; each request's answer waits for `answersHeld` as it was when the request came. It
 * keeps every frame it received, in order.
 */
class ScriptedXmppServer {
  readonly received: string[] = [];
  readonly closed: WebSocket[] = [];
  mechanisms = ['PLAIN'];
  answersHeld: Promise<void> = Promise.resolve();

  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket) => {
      let streams = 0;
      let answered = Promise.resolve();
      socket.on('close', () => this.closed.push(socket));
      socket.on('message', (data) => {
        const frame = String(data);
        this.received.push(frame);
        const answers: string[] = [];
        if (frame.startsWith('<open')) {
          streams += 1;
          answers.push(`<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' id='stream-${streams}' version='1.0' from='${DOMAIN}'/>`);
          const features = streams === 1 ? `<mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>${this.mechanisms.map((name) => `<mechanism>${name}</mechanism>`).join('')}</mechanisms>` : `<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>`;
          answers.push(`<stream:features xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client'>${features}</stream:features>`);
        } else if (frame.startsWith('<auth')) {
          answers.push(`<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>`);
        } else if (frame.startsWith('<iq')) {
          const [, id, resource] = /id="([^"]+)".*<resource>([^<]+)<\/resource>/.exec(frame) ?? [];
          answers.push(`<iq xmlns='jabber:client' id='${id}' type='result'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>guest-1@${DOMAIN}/${resource}</jid></bind></iq>`);
        }
        const held = this.answersHeld;
        answered = answered.then(() => held).then(() => answers.forEach((answer) => socket.send(answer)));
      });
    });
  }

  static async start(): Promise<ScriptedXmppServer> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => XMPP_WEBSOCKET_PROTOCOL });
    await new Promise((resolve) => server.once('listening', resolve));
    return new ScriptedXmppServer(server);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/xmpp-websocket`;
  }

  close(): Promise<void> {
    for (const socket of this.server.clients) socket.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The client's side, as StanzaJS's transport uses the socket it is handed: its frames as it receives them. */
function clientOf(socket: WebSocket): { frames: string[]; closed: Promise<void> } {
  const frames: string[] = [];
  socket.onmessage = (event) => frames.push(String(event.data));
  const closed = new Promise<void>((resolve) => (socket.onclose = () => resolve()));
  return { frames, closed };
}

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info: () => undefined, error: (message) => errors.push(message) };
}

describe('The shared worker logs in ahead on the websocket it opened: stream open with SASL PLAIN, then the stream restart with resource binding, go before the session’s code has loaded (issue 14, the join path)', () => {
  let server: ScriptedXmppServer;
  const sockets: WebSocket[] = [];

  beforeEach(async () => {
    server = await ScriptedXmppServer.start();
  });

  afterEach(async () => {
    sockets.splice(0).forEach((socket) => socket.terminate());
    await server.close();
  });

  function takeSocket(scope: { WebSocket: SocketConstructor<WebSocket> }): WebSocket {
    const socket = new scope.WebSocket(server.url, XMPP_WEBSOCKET_PROTOCOL);
    sockets.push(socket);
    return socket;
  }

  /** LOGIN made ahead until the server has seen `framesAhead` of its frames (binding included: 4), and then the client's socket: the one opened ahead. */
  async function takenAfterLoginAhead({ log, framesAhead = LOGIN_AHEAD.length }: { log?: Logger; framesAhead?: number } = {}): Promise<{ client: ReturnType<typeof clientOf>; socket: WebSocket }> {
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url, { login: Promise.resolve(LOGIN), ...(log ? { log } : {}), clock: systemClock });
    await until(() => server.received.length === framesAhead);
    const socket = takeSocket(scope);
    return { client: clientOf(socket), socket };
  }

  it('the client sending the same frames gets the server’s answers to each, in order — the bind’s under the client’s own id — and the server sees each request once', async () => {
    const { client, socket } = await takenAfterLoginAhead();
    expect(server.received).toEqual(LOGIN_AHEAD);
    socket.send(streamOpenFrame(DOMAIN));
    await until(() => client.frames.length === 2);
    expect(client.frames[0]).toContain("id='stream-1'");
    expect(client.frames[1]).toContain('<mechanism>PLAIN</mechanism>');
    socket.send(plainAuthFrame(LOGIN));
    await until(() => client.frames.length === 3);
    expect(client.frames[2]).toMatch(/^<success/);
    socket.send(streamOpenFrame(DOMAIN));
    await until(() => client.frames.length === 5);
    expect(client.frames[3]).toContain("id='stream-2'");
    expect(client.frames[4]).toContain('xmpp-bind');
    socket.send(BIND);
    await until(() => client.frames.length === 6);
    expect(client.frames[5]).toMatch(/^<iq xmlns='jabber:client' id='client-bind-1' type='result'>/);
    expect(client.frames[5]).toContain(`<jid>guest-1@${DOMAIN}/resource-1</jid>`);

    expect(server.received).toEqual(LOGIN_AHEAD);
    socket.send('<presence xmlns="jabber:client"/>');
    await until(() => server.received.length === 5);
    expect(server.received[4]).toBe('<presence xmlns="jabber:client"/>');
  });

  it('a client binding another resource than the one bound ahead has the socket closed, and says so', async () => {
    const log = recordingLogger();
    const { client, socket } = await takenAfterLoginAhead({ log });
    for (const frame of LOGIN_BEFORE_BIND) socket.send(frame);
    await until(() => client.frames.length === 5);
    socket.send(bindFrame('client-bind-1', 'resource-2'));
    await client.closed;
    expect(server.received).toHaveLength(4);
    expect(log.errors).toEqual([expect.stringMatching(/differs from the one made ahead \(iq\)/)]);
  });

  it('a login whose resource StanzaJS would write otherwise goes as far as the restart: the bind is the client’s own', async () => {
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url, { login: Promise.resolve({ ...LOGIN, resource: undefined }), clock: systemClock });
    await until(() => server.received.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.received).toHaveLength(3);

    const client = clientOf(takeSocket(scope));
    const socket = sockets[0]!;
    for (const frame of LOGIN_BEFORE_BIND) socket.send(frame);
    await until(() => client.frames.length === 5);
    socket.send(BIND);
    await until(() => client.frames.length === 6);
    expect(client.frames[5]).toMatch(/^<iq xmlns='jabber:client' id='client-bind-1' type='result'>/);
    expect(server.received[3]).toBe(BIND);
  });

  it('the login takes two round trips: the stream open goes with the auth, and the restart with the bind, each pair before the server has answered its first frame', async () => {
    let releaseLogin!: () => void;
    server.answersHeld = new Promise((resolve) => (releaseLogin = resolve));
    openXmppSocketAhead(workerScope(), server.url, { login: Promise.resolve(LOGIN), clock: systemClock });
    await until(() => server.received.length === 2);
    expect(server.received).toEqual([streamOpenFrame(DOMAIN), plainAuthFrame(LOGIN)]);

    let releaseBinding!: () => void;
    server.answersHeld = new Promise((resolve) => (releaseBinding = resolve));
    releaseLogin();
    await until(() => server.received.length === 4);
    expect(server.received).toEqual(LOGIN_AHEAD);
    releaseBinding();
  });

  it('taken before the server has answered the auth, the login ahead sends nothing more: the answer reaches the client, and the restart is the client’s own', async () => {
    let releaseAnswers!: () => void;
    server.answersHeld = new Promise((resolve) => (releaseAnswers = resolve));
    const { client, socket } = await takenAfterLoginAhead({ framesAhead: 2 });
    socket.send(streamOpenFrame(DOMAIN));
    releaseAnswers();
    await until(() => client.frames.length === 2);
    socket.send(plainAuthFrame(LOGIN));
    await until(() => client.frames.length === 3);
    expect(client.frames[2]).toMatch(/^<success/);
    // Had the login ahead gone on, the server would have seen its restart by now.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.received).toHaveLength(2);

    socket.send(streamOpenFrame(DOMAIN));
    await until(() => client.frames.length === 5);
    expect(server.received).toEqual(LOGIN_BEFORE_BIND);
  });

  it('a server offering another mechanism beside PLAIN gets the stream open and the PLAIN auth ahead, and no more: the client chooses, and the restart is its own', async () => {
    server.mechanisms = ['SCRAM-SHA-1', 'PLAIN'];
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url, { login: Promise.resolve(LOGIN), clock: systemClock });
    await until(() => server.received.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.received).toEqual([streamOpenFrame(DOMAIN), plainAuthFrame(LOGIN)]);

    const client = clientOf(takeSocket(scope));
    const socket = sockets[0]!;
    socket.send(streamOpenFrame(DOMAIN));
    await until(() => client.frames.length === 2);
    expect(client.frames[1]).toContain('<mechanism>SCRAM-SHA-1</mechanism>');
    socket.send(plainAuthFrame(LOGIN));
    await until(() => client.frames.length === 3);
    expect(client.frames[2]).toMatch(/^<success/);
    socket.send(streamOpenFrame(DOMAIN));
    await until(() => client.frames.length === 5);
    expect(server.received).toEqual(LOGIN_BEFORE_BIND);
  });

  it('a client whose frame differs from the one sent ahead (another account) has the socket closed, and says so; its frame never reaches the server', async () => {
    const log = recordingLogger();
    const { client, socket } = await takenAfterLoginAhead({ log });
    socket.send(streamOpenFrame(DOMAIN));
    await until(() => client.frames.length === 2);
    socket.send(plainAuthFrame({ ...LOGIN, username: 'guest-2' }));
    await client.closed;
    await until(() => server.closed.length === 1);
    expect(server.received).toEqual(LOGIN_AHEAD);
    expect(log.errors).toEqual([expect.stringMatching(/differs from the one made ahead \(auth\)/)]);
  });

  it('without an account (the config failed), the socket is only opened: the client’s frames go to the server as it sends them', async () => {
    const scope = workerScope();
    openXmppSocketAhead(scope, server.url, { login: Promise.resolve(undefined), clock: systemClock });
    const client = clientOf(takeSocket(scope));
    const socket = sockets[0]!;
    await new Promise<void>((resolve) => socket.addEventListener('open', () => resolve()));
    expect(server.received).toEqual([]);
    socket.send(streamOpenFrame(DOMAIN));
    await until(() => client.frames.length === 2);
    expect(server.received).toEqual([streamOpenFrame(DOMAIN)]);
  });
});

describe('The login ahead writes only what StanzaJS will: an account whose address needs no preparation, on the socket the config names, and a resource written as it is (issue 14, the join path)', () => {
  const config = { userId: 'guest-1@parley.localhost', credential: 'token-1', signalingUrl: 'ws://127.0.0.1:8080/xmpp-websocket', id: 'resource-1' };

  it('a prepared bare address on the socket opened ahead gives its account', () => {
    expect(xmppLoginOf(config, config.signalingUrl)).toEqual(LOGIN);
  });

  it('another socket’s address, or an address StanzaJS would prepare first, gives none', () => {
    expect(xmppLoginOf(config, 'ws://127.0.0.1:8080/elsewhere')).toBeUndefined();
    expect(xmppLoginOf({ ...config, userId: 'Guest-1@parley.localhost' }, config.signalingUrl)).toBeUndefined();
    expect(xmppLoginOf({ ...config, userId: 'guest-1@parley.localhost/resource' }, config.signalingUrl)).toBeUndefined();
  });

  it('a config id StanzaJS would prepare or escape as a resource gives the account, to be bound by the client', () => {
    expect(xmppLoginOf({ ...config, id: 'Resource-1' }, config.signalingUrl)).toEqual({ ...LOGIN, resource: undefined });
    expect(xmppLoginOf({ ...config, id: 'a<b' }, config.signalingUrl)).toEqual({ ...LOGIN, resource: undefined });
  });
});
