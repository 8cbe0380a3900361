import WebSocket, { type RawData } from 'ws';
import {
  isRelayMethod,
  parseRelayEnvelope,
  parseRelayParams,
  RELAY_ERROR,
  RelayRpcError,
  type ParsedRelayRequest,
  type RelayLimits,
  type RelayNotification,
  type RelayRequestId,
  type RelayResponse,
} from '../../src/protocol/relay';
import { ConflictError, NotAuthenticatedError, RateLimitedError } from './errors';
import type { RelaySession } from './RelaySession';
import { TokenBucket } from './TokenBucket';

export interface SessionHooks {
  /** Sends a notification (CONSUMER_ICE_STATE, LAYERS_WANTED). */
  notify: (notification: RelayNotification) => void;
  /** Ends the connection (1011) when its media is gone; the client reconnects and ingests again. */
  lost: (reason: string) => void;
}

export interface RelayConnectionOptions {
  limits: RelayLimits;
  now: () => number;
  /** Verifies an AUTH token; returns the user it is bound to or throws NotAuthenticatedError. */
  authenticate: (token: string) => string;
  /** Makes the connection's session once AUTH succeeds. */
  openSession: (hooks: SessionHooks) => RelaySession;
  log: (line: string) => void;
}

/**
 * One relay websocket speaking JSON-RPC 2.0 (PROTOCOL.md "Media relay"): bounds each message and
 * the request rate, answers every malformed or unauthorised request with a JSON-RPC error, and
 * runs the rest one at a time, in order, on its RelaySession. Closing the socket closes the
 * session and so everything the connection made.
 */
export class RelayConnection {
  private readonly bucket: TokenBucket;
  private user: string | undefined;
  private session: RelaySession | undefined;
  private queue: Promise<void> = Promise.resolve();
  private alive = true;
  private readonly authDeadline: NodeJS.Timeout;

  constructor(
    readonly socket: WebSocket,
    private readonly options: RelayConnectionOptions,
  ) {
    this.bucket = new TokenBucket(options.limits.requestBurst, options.limits.requestsPerSecond, options.now);
    // An open socket costs memory and a file descriptor: one that never authenticates is closed.
    this.authDeadline = setTimeout(() => {
      if (this.user === undefined) closeWithin(socket, 1008, `no successful AUTH within ${options.limits.authTimeoutMs} ms`);
    }, options.limits.authTimeoutMs);
    socket.once('close', () => clearTimeout(this.authDeadline));
    socket.on('message', (data) => this.receive(data));
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.on('error', (error) => options.log(`relay: connection error: ${error.message}`));
    socket.once('close', () => this.session?.close());
  }

  get authenticatedUser(): string | undefined {
    return this.user;
  }

  get relaySession(): RelaySession | undefined {
    return this.session;
  }

  /** Keepalive: a socket that has not answered the previous ping is closed. */
  ping(): void {
    if (!this.alive) {
      this.socket.terminate();
      return;
    }
    this.alive = false;
    this.socket.ping();
  }

  private receive(data: RawData): void {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (bytes.length > this.options.limits.messageBytes) {
      this.replyError(null, new RelayRpcError(RELAY_ERROR.invalidRequest, `message of ${bytes.length} bytes is over the ${this.options.limits.messageBytes}-byte limit`));
      return;
    }
    const text = bytes.toString('utf8');
    let request: ParsedRelayRequest;
    try {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new RelayRpcError(RELAY_ERROR.parseError, 'parse error: the message is not valid JSON', null);
      }
      request = parseRelayEnvelope(value);
    } catch (error) {
      const rpcError = error as RelayRpcError;
      this.replyError(rpcError.requestId ?? null, rpcError);
      return;
    }
    if (!this.bucket.take()) {
      const { requestBurst, requestsPerSecond } = this.options.limits;
      this.replyError(request.id, new RateLimitedError(`too many requests: at most ${requestBurst} at once and ${requestsPerSecond} a second`));
      return;
    }
    this.queue = this.queue.then(() => this.execute(request));
  }

  private async execute({ id, method, params }: ParsedRelayRequest): Promise<void> {
    // Requests still queued when the socket closed have no one to answer, and their session is closed.
    if (this.socket.readyState !== WebSocket.OPEN) return;
    try {
      if (!isRelayMethod(method)) throw new RelayRpcError(RELAY_ERROR.methodNotFound, `unknown method "${method}"`);
      if (method === 'AUTH') {
        const { token } = parseRelayParams('AUTH', params);
        this.reply(id, { user: this.authenticate(token) });
        return;
      }
      if (!this.session) throw new NotAuthenticatedError(`not authenticated: send AUTH {token} before ${method}`);
      const result = await this.session.call(method, parseRelayParams(method, params));
      this.reply(id, result);
    } catch (error) {
      if (error instanceof RelayRpcError) {
        this.replyError(id, error);
      } else {
        this.options.log(`relay: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        this.replyError(id, new RelayRpcError(RELAY_ERROR.internalError, `internal error in ${method.slice(0, 64)}`));
      }
    }
  }

  private authenticate(token: string): string {
    if (this.user !== undefined) throw new ConflictError('already authenticated');
    const user = this.options.authenticate(token);
    this.user = user;
    if (this.socket.readyState === WebSocket.OPEN) this.session = this.options.openSession({
        notify: (notification) => this.send(notification),
        // A close reason is at most 123 bytes.
        lost: (reason) => this.socket.close(1011, reason.slice(0, 100)),
      });
    return user;
  }

  private reply(id: RelayRequestId, result: object): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  private replyError(id: RelayRequestId | null, error: RelayRpcError): void {
    this.send({ jsonrpc: '2.0', id, error: { code: error.rpcCode, message: error.message } });
  }

  private send(message: RelayResponse | RelayNotification): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}

/** How long a closing socket waits for its peer's close frame before it is dropped (ws would wait 30 s). */
export const CLOSE_GRACE_MS = 1_000;

/** Closes with a code and reason, and drops the socket if its peer does not answer within CLOSE_GRACE_MS; resolves once closed. */
export function closeWithin(socket: WebSocket, code: number, reason: string): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) {
      resolve();
      return;
    }
    const drop = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(drop);
      resolve();
    });
    // A close reason is at most 123 bytes.
    socket.close(code, reason.slice(0, 100));
  });
}
