import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import type { Fetch } from '../../src/shared-worker/ConfigClient';

/**
 * A named fake for a slow network: a loopback TCP proxy to the server's websocket. It holds every
 * connection (its bytes wait, unread) until `release`, and, while `holdIncoming` holds, what the
 * server sends to the session. What the session does while an answer is on its way can then be
 * seen in order, whatever the machine's load.
 */
export async function heldWebsocket(target: URL) {
  const waiting: Socket[] = [];
  const clients = new Set<Socket>();
  let released = false;
  let incoming: Buffer[] | undefined;
  const forward = (client: Socket): void => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      client.pipe(upstream);
      upstream.on('data', (chunk: Buffer) => {
        if (incoming) incoming.push(chunk);
        else if (client.writable) client.write(chunk);
      });
      client.resume();
    });
    const closeBoth = (): void => {
      clients.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  };
  const proxy: Server = createServer((client) => {
    clients.add(client);
    client.pause();
    if (released) forward(client);
    else waiting.push(client);
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  const address = proxy.address();
  if (!address || typeof address === 'string') throw new Error('the held websocket proxy has no port');
  return {
    /** The session's websocket URL, through this proxy. */
    url: (signalingUrl: string): string => {
      const url = new URL(signalingUrl);
      url.host = `127.0.0.1:${address.port}`;
      return url.href;
    },
    /** Connections go through from now on. */
    release: (): void => {
      released = true;
      waiting.splice(0).forEach(forward);
    },
    /** What the server sends waits from now on… */
    holdIncoming: (): void => {
      incoming ??= [];
    },
    /** What waits so far, as text. */
    heldText: (): string => Buffer.concat(incoming ?? []).toString('utf8'),
    /** …until this, in order. */
    releaseIncoming: (): void => {
      const held = incoming ?? [];
      incoming = undefined;
      for (const client of clients) for (const chunk of held) if (client.writable) client.write(chunk);
    },
    // Takes no more connections; those open end with their sessions.
    close: (): void => void proxy.close(),
  };
}

export type HeldWebsocket = Awaited<ReturnType<typeof heldWebsocket>>;

/** Opens a test file's held websocket proxies to `server`'s websocket, each closed after its test. */
export function useHeldWebsockets(server: () => Pick<RunningParley, 'url'>): () => Promise<HeldWebsocket> {
  const open: HeldWebsocket[] = [];
  afterEach(() => open.splice(0).forEach((held) => held.close()));
  return async () => {
    const held = await heldWebsocket(new URL(server().url));
    open.push(held);
    return held;
  };
}

/** A session's fetch whose config names `held` as the websocket (its signalingUrl rewritten). */
export function fetchThrough(held: HeldWebsocket): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).includes('/api/config')) return response;
    const config = (await response.json()) as { signalingUrl: string };
    return Response.json({ ...config, signalingUrl: held.url(config.signalingUrl) }, { status: response.status });
  };
}
