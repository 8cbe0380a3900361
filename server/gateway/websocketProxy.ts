import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

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

/**
 * Forwards websocket upgrades byte for byte to a backend on loopback, so XMPP framing, pings and
 * close codes pass through untouched and the gateway adds no per-message work.
 *
 * What it holds per connection is bounded by `maxBufferedBytes` in each direction. Towards the
 * client, a client that has let that much pile up has stopped reading: both sides are closed, and
 * the XMPP server sees the session end instead of queueing for it without end. Towards the backend
 * (trusted, on loopback) the client is paused until the backend drains.
 */
export class WebsocketProxy {
  private readonly open = new Set<{ client: Duplex; upstream: Socket }>();
  private peakBufferedBytes = 0;
  private closed = false;

  /** `backend` undefined: every upgrade names its own target. */
  constructor(
    private readonly backend: URL | undefined,
    private readonly maxBufferedBytes: number,
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
    const backend = target?.backend ?? this.backend;
    if (!backend) {
      client.destroy();
      return;
    }
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
      if (!answered) client.destroy();
      upstream.destroy();
    };
    upstream.once('error', closeBoth);
    client.once('error', closeBoth);
    upstream.once('close', closeBoth);
    client.once('close', closeBoth);
    upstream.once('connect', () => {
      const added = target?.headers ?? {};
      const headers = [...Object.entries(request.headers).filter(([name]) => name !== 'host' && !(name in added)), ...Object.entries(added)].flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((v) => `${name}: ${v}`) : [`${name}: ${value ?? ''}`],
      );
      const requestHead = [`GET ${backend.pathname}${backend.search} HTTP/1.1`, `host: ${backend.host}`, ...headers, '', ''].join('\r\n');
      upstream.write(requestHead);
      if (head.length > 0) upstream.write(head);
      upstream.on('data', (chunk: Buffer) => {
        client.write(chunk);
        if (this.buffered(client) > this.maxBufferedBytes) closeBoth();
      });
      client.on('data', (chunk: Buffer) => {
        if (upstream.write(chunk) || this.buffered(upstream) <= this.maxBufferedBytes) return;
        client.pause();
        upstream.once('drain', () => client.resume());
      });
      upstream.once('end', () => client.end());
      client.once('end', () => upstream.end());
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

/** The proxy speaks plain TCP: its backends are ws:// URLs. */
const WS_DEFAULT_PORT = 80;

/** The port a ws:// URL names; the URL leaves it empty when it is the scheme's default. */
function portOf(url: URL): number {
  return url.port === '' ? WS_DEFAULT_PORT : Number(url.port);
}
