import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { CLIENT_VERSION } from '../../src/protocol/constants';
import { parseProviderConfig, type ProviderConfig } from '../../src/protocol/config';
import { CONSUMER_ICE_STATE, LAYERS_WANTED, parseConsumerIceState, parseLayersWanted, type ConsumerIceStateParams, type LayersWantedParams, type RelayRequestId } from '../../src/protocol/relay';

/** A reply as it came off the wire: exactly one of result and error. */
export interface RelayReply {
  id: RelayRequestId | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A bare JSON-RPC client for the relay, as the 1.30.3 client speaks to it (tests only). */
export interface RelayTestClient {
  call(method: string, params?: unknown): Promise<RelayReply>;
  /** Calls that must succeed: the result, or a thrown error with the relay's message. */
  ok(method: string, params?: unknown): Promise<Record<string, unknown>>;
  /** Sends raw text or bytes; its reply comes from `nextStrayReply`. */
  sendRaw(data: string | Buffer): void;
  /** The next reply whose id matches no call (id null, or a raw send's). */
  nextStrayReply(): Promise<RelayReply>;
  /** CONSUMER_ICE_STATE notifications, in order. */
  notifications: ConsumerIceStateParams[];
  /** LAYERS_WANTED notifications, in order. */
  layersWanted: LayersWantedParams[];
  /** The first CONSUMER_ICE_STATE that matches, received or to come; rejects after NOTIFICATION_WAIT_MS without one. */
  notification(matches: (params: ConsumerIceStateParams) => boolean): Promise<ConsumerIceStateParams>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
  /** The socket ends without a close frame, as when the network drops it (the relay sees 1006). */
  drop(): Promise<void>;
}

/** How long `notification` waits: a consumer's ICE connects within seconds even on a loaded machine. */
const NOTIFICATION_WAIT_MS = 20_000;

export async function fetchConfig(parleyUrl: string): Promise<ProviderConfig> {
  const response = await fetch(new URL('/api/config', parleyUrl), { method: 'POST', body: JSON.stringify({ clientVersion: CLIENT_VERSION }) });
  if (!response.ok) throw new Error(`config request failed: ${response.status}`);
  return parseProviderConfig(await response.json());
}

/**
 * `localAddress`: the loopback address the client connects from (127.0.0.x), to stand for a person
 * at another address; `headers`: sent with the upgrade.
 */
export async function connectRelay(url: string, options: { localAddress?: string; headers?: Record<string, string> } = {}): Promise<RelayTestClient> {
  const socket = new WebSocket(url, options);
  const pending = new Map<RelayRequestId, { resolve: (reply: RelayReply) => void; reject: (error: Error) => void }>();
  const strays: RelayReply[] = [];
  const strayWaiters: ((reply: RelayReply) => void)[] = [];
  const notifications: ConsumerIceStateParams[] = [];
  const layersWanted: LayersWantedParams[] = [];
  const notificationWaiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code, reason) => {
      // A call the closed socket will never answer fails, saying how the socket closed.
      for (const { reject } of pending.values()) reject(new Error(`the relay socket closed (${code} ${reason.toString()})`));
      pending.clear();
      resolve({ code, reason: reason.toString() });
    });
  });
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as RelayReply & { method?: string; params?: unknown };
    if (message.method === LAYERS_WANTED) {
      layersWanted.push(parseLayersWanted(message.params));
      return;
    }
    if (message.method === CONSUMER_ICE_STATE) {
      notifications.push(parseConsumerIceState(message.params));
      for (const wake of notificationWaiters) wake();
      return;
    }
    if (message.method !== undefined) throw new Error(`the relay sent an unknown notification ${message.method}`);
    const waiting = message.id === null ? undefined : pending.get(message.id);
    if (waiting) {
      pending.delete(message.id!);
      waiting.resolve(message);
    } else {
      const waiter = strayWaiters.shift();
      if (waiter) waiter(message);
      else strays.push(message);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  const call = (method: string, params?: unknown): Promise<RelayReply> =>
    new Promise((resolve, reject) => {
      const id = randomUUID();
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    });
  return {
    call,
    async ok(method, params) {
      const reply = await call(method, params);
      if (!reply.result) throw new Error(`${method} failed: ${reply.error?.code} ${reply.error?.message}`);
      return reply.result;
    },
    sendRaw: (data) => socket.send(data),
    nextStrayReply: () => {
      const stray = strays.shift();
      return stray ? Promise.resolve(stray) : new Promise((resolve) => strayWaiters.push(resolve));
    },
    notifications,
    layersWanted,
    notification: (matches) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = notifications.find(matches);
          if (found) {
            notificationWaiters.delete(wake);
            clearTimeout(timer);
            resolve(found);
          }
          return Boolean(found);
        };
        const wake = (): void => void check();
        // A wait that never ends would only show as the case's own timeout, saying nothing of what was missing.
        const timer = setTimeout(() => {
          notificationWaiters.delete(wake);
          reject(new Error(`no CONSUMER_ICE_STATE like that within ${NOTIFICATION_WAIT_MS} ms; seen: ${JSON.stringify(notifications)}`));
        }, NOTIFICATION_WAIT_MS);
        if (!check()) notificationWaiters.add(wake);
      }),
    closed,
    async close() {
      if (socket.readyState !== WebSocket.CLOSED) socket.close();
      await closed;
    },
    async drop() {
      socket.terminate();
      await closed;
    },
  };
}
