import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Forwards a websocket upgrade byte for byte to a backend on loopback, so XMPP framing, pings and
 * close codes pass through untouched and the gateway adds no per-message work.
 */
export function proxyUpgrade(request: IncomingMessage, client: Duplex, head: Buffer, backend: URL): void {
  const upstream: Socket = connect(Number(backend.port), backend.hostname);
  const closeBoth = (): void => {
    client.destroy();
    upstream.destroy();
  };
  upstream.once('error', closeBoth);
  client.once('error', closeBoth);
  upstream.once('connect', () => {
    const headers = Object.entries(request.headers)
      .filter(([name]) => name !== 'host')
      .flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => `${name}: ${v}`) : [`${name}: ${value ?? ''}`]));
    const requestHead = [`GET ${backend.pathname}${backend.search} HTTP/1.1`, `host: ${backend.host}`, ...headers, '', ''].join('\r\n');
    upstream.write(requestHead);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.once('close', () => client.destroy());
  client.once('close', () => upstream.destroy());
}
