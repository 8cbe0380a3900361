import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { WebsocketProxy } from '../../server/gateway/websocketProxy';
import { providerConfig, useParley } from '../support/parley';
import { rawXmppClientIn } from '../support/rawXmppClient';

/**
 * The gateway's websocket proxy bounds what it holds per connection (issue 12, item 5): a client
 * that stops reading is closed once `gatewayBufferBytes` have piled up for it, instead of the
 * gateway (or the XMPP server) queueing for it without end. A small bound here so the test reaches it.
 */

const BUFFER_BYTES = 64 * 1024;
/** A socket read hands over at most this much at once, so one read can pass the bound by that. */
const SOCKET_READ_BYTES = 64 * 1024;
/** Far more than loopback's kernel buffers take, so the flood must reach the proxy's own buffer. */
const MAX_FLOOD_BYTES = 64 * 1024 * 1024;

/** XMPP websockets carried at once from one client address, here: above what the other cases hold from loopback. */
const CONNECTIONS_PER_ADDRESS = 8;
const parley = useParley({ gatewayBufferBytes: BUFFER_BYTES, xmppConnectionsPerAddress: CONNECTIONS_PER_ADDRESS, relayWorkers: 0 });

describe('The websocket proxy closes a client that stops reading, holding at most gatewayBufferBytes for it', () => {
  it('closes the stalled reader while a room floods it, having held at most the bound (and one socket read) for it', async () => {
    const roomAddress = `flood-${Date.now()}@${parley().settings.mucDomain}`;
    const stalled = await rawXmppClientIn(await providerConfig(parley()), roomAddress, 'Stalled');
    const sender = await rawXmppClientIn(await providerConfig(parley()), roomAddress, 'Sender');
    stalled.stopReading();

    // A paused socket does not even read the close: the proxy's own count says when it has let go.
    const bothOpen = (): boolean => parley().xmppProxyStats().connections === 2;
    const body = 'x'.repeat(8 * 1024);
    for (let sent = 0; bothOpen() && sent < MAX_FLOOD_BYTES; sent += body.length) await sender.sendGroupchat(roomAddress, body);

    expect(parley().xmppProxyStats().connections).toBe(1);
    expect(parley().xmppProxyStats().peakBufferedBytes).toBeLessThanOrEqual(BUFFER_BYTES + SOCKET_READ_BYTES);
    stalled.close();
    sender.close();
  }, 120_000);
});

/** What came back on a raw connection to the gateway, and whether the gateway closed it. */
interface Exchange {
  received: string;
  closed: boolean;
}

/** A wait that ends any exchange the gateway leaves open: it answers on loopback in milliseconds, also under load. */
const EXCHANGE_WAIT_MS = 5_000;

/**
 * Writes `request` at once on a raw TCP connection to the gateway, as a client pipelining requests
 * would, and gathers what comes back until the gateway closes it, `enough` matches it, or
 * EXCHANGE_WAIT_MS pass (the connection then closed by the test).
 */
function exchange(request: string | Buffer, enough?: RegExp): Promise<Exchange> {
  const { hostname, port } = new URL(parley().url);
  return new Promise((resolve) => {
    let received = '';
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, closed });
    };
    const timer = setTimeout(() => finish(false), EXCHANGE_WAIT_MS);
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (enough?.test(received)) finish(false);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
  });
}

/** An upgrade request to the XMPP websocket: the handshake a browser sends, with `headers` replacing (or, undefined, removing) its own. */
function upgradeRequest(headers: Record<string, string | undefined> = {}, method = 'GET'): string {
  const handshake: Record<string, string | undefined> = {
    Host: 'x',
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Protocol': 'xmpp',
    ...headers,
  };
  const lines = Object.entries(handshake).flatMap(([name, value]) => (value === undefined ? [] : [`${name}: ${value}`]));
  return [`${method} /xmpp-websocket HTTP/1.1`, ...lines, '', ''].join('\r\n');
}

/** What the XMPP server's stats page lists the live rooms under: the request the proxy must never let through. */
const STATS_REQUEST = 'GET /parley-stats HTTP/1.1\r\nHost: x\r\n\r\n';

/** A client's websocket text frame (masked, as RFC 6455 §5.3 has a client's be), for a payload under 126 bytes. */
function clientTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, payload.map((byte, index) => byte ^ mask[index % 4]!)]);
}

/**
 * Until it switches protocols the XMPP server is a plain HTTP server, and the gateway reaches it from
 * loopback, which its /parley-stats trusts: a request smuggled through the proxy would list every live room.
 */
describe('The gateway passes on only websocket upgrades, and nothing before the XMPP server accepts one', () => {
  it('answers an upgrade without a websocket key 400 and closes: the stats request pipelined behind it never reaches the XMPP server', async () => {
    const roomAddress = `listed-${Date.now()}@${parley().settings.mucDomain}`;
    const member = await rawXmppClientIn(await providerConfig(parley()), roomAddress, 'Member');
    try {
      // The room is live, so the stats page would list it.
      expect(Object.keys((await parley().xmpp.stats()).rooms)).toContain(roomAddress);
      const { received, closed } = await exchange(
        'GET /xmpp-websocket HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n' + STATS_REQUEST,
      );
      expect(received).not.toContain(roomAddress);
      expect(received).not.toContain('"rooms"');
      expect(received).toMatch(/^HTTP\/1\.1 400 /);
      expect(closed).toBe(true);
    } finally {
      member.close();
    }
  });

  it('answers 400 with a plain-text reason for each part of the handshake that is missing or wrong', async () => {
    const faults: Array<[string, string]> = [
      [upgradeRequest({ 'Sec-WebSocket-Key': undefined }), 'Sec-WebSocket-Key must be 16 bytes in base64'],
      [upgradeRequest({ 'Sec-WebSocket-Key': randomBytes(15).toString('base64') }), 'Sec-WebSocket-Key must be 16 bytes in base64'],
      [upgradeRequest({ 'Sec-WebSocket-Version': '8' }), 'Sec-WebSocket-Version must be 13'],
      [upgradeRequest({ Upgrade: 'h2c' }), 'Upgrade must be websocket'],
      [upgradeRequest({}, 'POST'), 'a websocket upgrade is a GET'],
    ];
    for (const [request, reason] of faults) {
      const { received, closed } = await exchange(request);
      expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(received).toMatch(/\r\nContent-Type: text\/plain/);
      expect(received.endsWith(`\r\n\r\n${reason}`)).toBe(true);
      expect(closed).toBe(true);
    }
  });

  it('passes on the XMPP server’s refusal of a handshake and closes, having sent it nothing the client pipelined behind', async () => {
    // Prosody refuses a websocket that does not speak XMPP (501) and would then answer the next request.
    const { received, closed } = await exchange(upgradeRequest({ 'Sec-WebSocket-Protocol': 'chat' }) + STATS_REQUEST);
    expect(received).toMatch(/^HTTP\/1\.1 501 /);
    expect(received).not.toContain('"rooms"');
    expect(closed).toBe(true);
  });

  it('carries a handshake the XMPP server accepts, the frame sent right behind it going on once the server has answered 101', async () => {
    const open = `<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' to='${parley().settings.xmppDomain}' version='1.0'/>`;
    const { received } = await exchange(Buffer.concat([Buffer.from(upgradeRequest()), clientTextFrame(open)]), /features/);
    expect(received).toMatch(/^HTTP\/1\.1 101 /);
    expect(received).toMatch(/<open [^>]*from=/);
    expect(received).toContain('features');
  });
});

/** A websocket handshake to the XMPP endpoint from `localAddress`, kept open: the status line it was answered with, and its socket. */
function handshakeFrom(localAddress: string): Promise<{ status: string; socket: Socket }> {
  const { hostname, port } = new URL(parley().url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress }, () => socket.write(upgradeRequest()));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n')) resolve({ status: received.slice(0, received.indexOf('\r\n')), socket });
    });
    socket.once('error', reject);
  });
}

describe('The gateway carries at most PARLEY_XMPP_CONNECTIONS_PER_ADDRESS XMPP websockets from one client address at once: one more is answered 429', () => {
  it('answers the next handshake from a full address 429 and closes it, while another address is carried; a connection closed makes room again', async () => {
    const held = await Promise.all(Array.from({ length: CONNECTIONS_PER_ADDRESS }, () => handshakeFrom('127.0.0.2')));
    try {
      expect(held.map(({ status }) => status)).toEqual(Array(CONNECTIONS_PER_ADDRESS).fill('HTTP/1.1 101 Switching Protocols'));
      const { hostname, port } = new URL(parley().url);
      const refused = await new Promise<Exchange>((resolve) => {
        let received = '';
        const socket = connect({ port: Number(port), host: hostname, localAddress: '127.0.0.2' }, () => socket.write(upgradeRequest()));
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        socket.on('error', () => {});
        socket.on('close', () => resolve({ received, closed: true }));
      });
      expect(refused.received).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
      expect(refused.received.endsWith(`too many connections from this address: at most ${CONNECTIONS_PER_ADDRESS}`)).toBe(true);

      const other = await handshakeFrom('127.0.0.3');
      expect(other.status).toBe('HTTP/1.1 101 Switching Protocols');
      other.socket.destroy();

      held.pop()!.socket.destroy();
      await vi.waitFor(async () => {
        const again = await handshakeFrom('127.0.0.2');
        again.socket.destroy();
        expect(again.status).toBe('HTTP/1.1 101 Switching Protocols');
      }, { timeout: EXCHANGE_WAIT_MS, interval: 50 });
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });
});

/** Where a server listening on loopback port 0 ended up. */
async function listening(server: { listen(port: number, host: string, done: () => void): unknown; address(): AddressInfo | string | null }): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Prosody trusts a loopback proxy's X-Forwarded-For for a session's address (its trusted_proxies,
 * which its logs and limits use), so what the gateway forwards must be its own word. A fake backend
 * (Prosody keeps the address to itself) records the handshake the proxy passes on.
 */
describe('The gateway tells the XMPP server the client’s address itself: no Forwarded, X-Forwarded-* or X-Real-IP of the client’s goes on', () => {
  it('replaces the client’s X-Forwarded-For with its socket’s address and drops the client’s other address claims', async () => {
    const forwarded: string[] = [];
    const backend = createTcpServer((socket) => {
      let head = '';
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        forwarded.push(head);
        socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n');
      });
    });
    const backendUrl = new URL(`http://127.0.0.1:${await listening(backend)}/xmpp-websocket`);
    const proxy = new WebsocketProxy(() => backendUrl, 64 * 1024);
    const gateway = createHttpServer((_request, response) => response.writeHead(404).end());
    gateway.on('upgrade', (request, socket, head: Buffer) => proxy.upgrade(request, socket, head));
    const port = await listening(gateway);
    try {
      const claims = { 'X-Forwarded-For': '203.0.113.7', Forwarded: 'for=203.0.113.7;proto=https', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'elsewhere', 'X-Real-IP': '203.0.113.7' };
      const answer = await new Promise<string>((resolve) => {
        let received = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(upgradeRequest(claims)));
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        socket.on('close', () => resolve(received));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      const headers: IncomingHttpHeaders = Object.fromEntries(
        forwarded[0]!.split('\r\n').slice(1).filter(Boolean).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      expect(headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', upgrade: 'websocket', 'sec-websocket-protocol': 'xmpp' });
      expect(Object.keys(headers).filter((name) => /^(forwarded|x-forwarded-(?!for$).*|x-real-ip)$/.test(name))).toEqual([]);
      expect(forwarded[0]).not.toContain('203.0.113.7');
    } finally {
      proxy.close();
      gateway.close();
      backend.close();
    }
  });
});
