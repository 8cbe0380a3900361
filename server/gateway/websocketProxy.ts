import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { HeldCounts } from '../relay/HeldCounts';

/** What the proxy holds now, and the most it ever held for one connection in one direction. */
export interface WebsocketProxyStats {
  connections: number;
  /** Bytes written but not yet taken by the far end, the highest seen on any connection. */
  peakBufferedBytes: number;
}

/** Where one upgrade goes instead of the proxy's backend. */
export interface ForwardTarget {
  backend: URL;
  unreachable: (error: Error) => void;
  /** Answers the client itself when no connection to the backend can be made (else its socket is closed). */
  answerUnreachable?: (request: IncomingMessage, client: Duplex, head: Buffer) => void;
  /** Set on the forwarded request (lower-case names), replacing whatever the client sent under those names. */
  headers?: Record<string, string>;
}

/** Headers by which a client would claim an address or scheme of its own (lower-case, as Node gives them): never passed on. */
const CLIENT_ADDRESS_CLAIMS = /^(forwarded|x-forwarded-.*|x-real-ip)$/;

/**
 * Forwards websocket upgrades byte for byte to a backend on loopback, so XMPP framing, pings and
 * close codes pass through untouched and the gateway adds no per-message work.
 *
 * Until the backend has switched protocols it is a plain HTTP server, reached from loopback, which
 * it may trust (Prosody's /parley-stats does): a request that is no websocket handshake, or bytes the
 * client pipelines behind one, would reach its HTTP handlers as requests of the gateway's own. So
 * only a handshake is forwarded (anything else is answered 400 here), and nothing the client sends
 * after it goes on until the backend has answered 101; any other answer ends the connection.
 *
 * The backend hears the client's address from the gateway alone: X-Forwarded-For is set to the
 * client socket's address, and whatever Forwarded, X-Forwarded-* or X-Real-IP the client sent is
 * dropped.
 *
 * What it holds per connection is bounded by `maxBufferedBytes` in each direction. Towards the
 * client, a client that has let that much pile up has stopped reading: both sides are closed, and
 * the XMPP server sees the session end instead of queueing for it without end. Towards the backend
 * (trusted, on loopback) the client is paused until the backend drains.
 *
 * With `connectionsPerAddress`, it carries at most that many connections from one client address at
 * once (each holds a session on the backend, which keeps one that never logs in for minutes): one
 * more is answered 429 and closed.
 */
export class WebsocketProxy {
  private readonly open = new Set<{ client: Duplex; upstream: Socket }>();
  private readonly byAddress = new HeldCounts();
  private peakBufferedBytes = 0;
  private closed = false;

  /** `backend` is asked on each upgrade (the server behind it may move); undefined: every upgrade names its own target. */
  constructor(
    private readonly backend: (() => URL) | undefined,
    private readonly maxBufferedBytes: number,
    /** Connections carried at once from one client address; undefined: no bound here (the relay counts its own). */
    private readonly connectionsPerAddress?: number,
  ) {}

  /**
   * Forwards one upgrade to the proxy's backend, or to `target` (a relay host: each connection may
   * go elsewhere), whose `unreachable` is told when no connection to it can be made and whose
   * `headers` replace the client's headers of the same names.
   */
  upgrade(request: IncomingMessage, client: Duplex, head: Buffer, target?: ForwardTarget): void {
    if (this.closed) {
      client.destroy();
      return;
    }
    const backend = target?.backend ?? this.backend?.();
    if (!backend) {
      client.destroy();
      return;
    }
    const fault = handshakeFault(request);
    if (fault) {
      refuse(client, fault);
      return;
    }
    const clientAddress = request.socket.remoteAddress ?? '';
    if (this.connectionsPerAddress !== undefined && this.byAddress.of(clientAddress) >= this.connectionsPerAddress) {
      refuse(client, `too many connections from this address: at most ${this.connectionsPerAddress}`, TOO_MANY_REQUESTS);
      return;
    }
    const releaseAddress = this.byAddress.hold(clientAddress);
    // Frames go through as they come: with Nagle's algorithm a frame written while the previous one
    // is unacknowledged waits for the far end's delayed ACK. (Node's HTTP server already accepts the
    // client's socket so.)
    const upstream: Socket = connect({ port: portOf(backend), host: backend.hostname, noDelay: true });
    let connected = false;
    let answered = false;
    upstream.once('connect', () => (connected = true));
    if (target) {
      upstream.once('error', (error) => {
        if (connected) return;
        target.unreachable(error);
        if (!target.answerUnreachable) return;
        answered = true;
        target.answerUnreachable(request, client, head);
      });
    }
    const pair = { client, upstream };
    this.open.add(pair);
    const closeBoth = (): void => {
      this.open.delete(pair);
      releaseAddress();
      if (!answered) client.destroy();
      upstream.destroy();
    };
    upstream.once('error', closeBoth);
    client.once('error', closeBoth);
    upstream.once('close', closeBoth);
    client.once('close', closeBoth);
    upstream.once('connect', () => {
      // The backend trusts a loopback proxy's word for the client's address (Prosody's trusted_proxies):
      // only the gateway's own, from the socket, goes on.
      const added = { ...(clientAddress ? { 'x-forwarded-for': clientAddress } : {}), ...target?.headers };
      const passedOn = Object.entries(request.headers).filter(([name]) => name !== 'host' && !CLIENT_ADDRESS_CLAIMS.test(name) && !(name in added));
      const headers = [...passedOn, ...Object.entries(added)].flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((v) => `${name}: ${v}`) : [`${name}: ${value ?? ''}`],
      );
      const requestHead = [`GET ${backend.pathname}${backend.search} HTTP/1.1`, `host: ${backend.host}`, ...headers, '', ''].join('\r\n');
      upstream.write(requestHead);
      const toClient = (chunk: Buffer): void => {
        client.write(chunk);
        if (this.buffered(client) > this.maxBufferedBytes) closeBoth();
      };
      const toUpstream = (chunk: Buffer): void => {
        if (upstream.write(chunk) || this.buffered(upstream) <= this.maxBufferedBytes) return;
        client.pause();
        upstream.once('drain', () => client.resume());
      };
      let answer = Buffer.alloc(0);
      const awaitSwitch = (chunk: Buffer): void => {
        answer = Buffer.concat([answer, chunk]);
        if (answer.length < SWITCHING_PROTOCOLS.length) return;
        upstream.off('data', awaitSwitch).on('data', toClient);
        toClient(answer);
        if (!answer.subarray(0, SWITCHING_PROTOCOLS.length).equals(SWITCHING_PROTOCOLS)) {
          // Refused: the rest of the answer follows it, until the backend, told no more comes, closes.
          upstream.end();
          return;
        }
        // Accepted: what the client sent after its handshake goes on only now (its socket went unread).
        if (head.length > 0) toUpstream(head);
        client.on('data', toUpstream);
        client.once('end', () => upstream.end());
      };
      upstream.on('data', awaitSwitch);
      upstream.once('end', () => client.end());
    });
  }

  stats(): WebsocketProxyStats {
    return { connections: this.open.size, peakBufferedBytes: this.peakBufferedBytes };
  }

  /** Shutdown: ends every connection at once, whatever its client is doing, and takes no more. */
  close(): void {
    this.closed = true;
    for (const { client, upstream } of this.open) {
      client.destroy();
      upstream.destroy();
    }
    this.open.clear();
  }

  private buffered(stream: Duplex): number {
    const bytes = stream.writableLength;
    if (bytes > this.peakBufferedBytes) this.peakBufferedBytes = bytes;
    return bytes;
  }
}

/** How a backend's answer starts when it accepts the upgrade (RFC 6455 §4.2.2). */
const SWITCHING_PROTOCOLS = Buffer.from('HTTP/1.1 101 ');

/** A Sec-WebSocket-Key: 16 bytes in base64 (RFC 6455 §4.1). */
const WEBSOCKET_KEY = /^[A-Za-z0-9+/]{22}==$/;

/** Why `request` is not a websocket handshake (RFC 6455 §4.2.1); undefined when it is one. */
export function handshakeFault({ method, headers }: IncomingMessage): string | undefined {
  if (method !== 'GET') return 'a websocket upgrade is a GET';
  if (headers.upgrade?.toLowerCase() !== 'websocket') return 'Upgrade must be websocket';
  const connection = (headers.connection ?? '').split(',').map((token) => token.trim().toLowerCase());
  if (!connection.includes('upgrade')) return 'Connection must include upgrade';
  if (!WEBSOCKET_KEY.test(headers['sec-websocket-key'] ?? '')) return 'Sec-WebSocket-Key must be 16 bytes in base64';
  if (headers['sec-websocket-version'] !== '13') return 'Sec-WebSocket-Version must be 13';
  return undefined;
}

const BAD_REQUEST = '400 Bad Request';
const TOO_MANY_REQUESTS = '429 Too Many Requests';

/**
 * Answers `status` (400 by default) with `reason` and closes, once the answer is out. Node drops its
 * own error listener from a socket handed to `upgrade`, so one is added: a client resetting meanwhile
 * would otherwise throw out of the process.
 */
export function refuse(client: Duplex, reason: string, status = BAD_REQUEST): void {
  client.on('error', () => client.destroy());
  client.once('finish', () => client.destroy());
  client.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

/** The proxy speaks plain TCP: its backends are ws:// URLs. */
const WS_DEFAULT_PORT = 80;

/** The port a ws:// URL names; the URL leaves it empty when it is the scheme's default. */
function portOf(url: URL): number {
  return url.port === '' ? WS_DEFAULT_PORT : Number(url.port);
}
