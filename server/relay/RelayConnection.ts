import { randomBytes } from 'node:crypto';
import WebSocket, { type RawData } from 'ws';
import {
  isRelayMethod,
  parseRelayEnvelope,
  parseRelayParams,
  RELAY_ERROR,
  RelayRpcError,
  SOCKET_ABANDONED,
  SOCKET_DROPPED,
  type ParsedRelayRequest,
  type RelayLimits,
  type RelayNotification,
  type RelayRequestId,
  type RelayResponse,
  type AuthParams,
  type AuthResult,
} from '../../src/protocol/relay';
import { ConflictError, NotAuthenticatedError, RateLimitedError } from './errors';
import type { RelaySession, SessionHooks } from './RelaySession';
import type { SessionHolder } from './ResumableSessions';
import { TokenBucket } from './TokenBucket';

export interface RelayConnectionOptions {
  limits: RelayLimits;
  /** Milliseconds clock for the request-rate bucket; monotonic by default (TokenBucket). */
  now?: () => number;
  /** Verifies an AUTH token; returns the user it is bound to or throws NotAuthenticatedError. */
  authenticate: (token: string) => string;
  /** Makes the connection's session once AUTH succeeds (throws LimitExceededError when the user holds all their connection slots). */
  openSession: (user: string, hooks: SessionHooks, resumable: boolean, holder: SessionHolder) => RelaySession;
  /** AUTH `resume`: the user's session of that id (throws NotFoundError when there is none). */
  resumeSession: (id: string, user: string, holder: SessionHolder) => RelaySession;
  /** The socket closed: the session ends, or waits for its client when `dropped`. */
  releaseSession: (session: RelaySession, holder: SessionHolder, dropped: boolean) => void;
  log: (line: string) => void;
}

/**
 * One relay websocket speaking JSON-RPC 2.0 (PROTOCOL.md "Media relay"): bounds each message, the
 * request rate, the requests waiting to run (requestBurst) and what waits unsent for it
 * (SEND_BUFFER_BYTES), answers every malformed or unauthorised request with a JSON-RPC error, and
 * runs the rest one at a time, in order, on its RelaySession. Closing the socket closes the
 * session and so everything the connection made — unless the session is resumable and the socket
 * dropped, when it waits for a new socket (ResumableSessions).
 */
export class RelayConnection implements SessionHolder {
  private readonly bucket: TokenBucket;
  private user: string | undefined;
  private session: RelaySession | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** Requests queued or running: at most requestBurst, since each holds up to messageBytes while it waits. */
  private waiting = 0;
  /**
   * The payload of the keepalive ping not answered yet. ws takes any pong, asked for or not: only
   * one that echoes this (unguessable) payload shows that the peer reads what the relay sends.
   */
  private unansweredPing: Buffer | undefined;
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
    socket.on('pong', (data) => {
      if (this.unansweredPing?.equals(data)) this.unansweredPing = undefined;
    });
    socket.on('error', (error) => options.log(`relay: connection error: ${error.message}`));
    socket.once('close', (code) => this.release(code === SOCKET_DROPPED || code === SOCKET_ABANDONED));
  }

  /** Another socket resumed this one's session: this one, still open here, is dropped without it. */
  handOver(): void {
    this.session = undefined;
    this.socket.terminate();
  }

  get authenticatedUser(): string | undefined {
    return this.user;
  }

  get relaySession(): RelaySession | undefined {
    return this.session;
  }

  /** Keepalive: a socket that has not answered the previous ping is closed. */
  ping(): void {
    if (this.unansweredPing) {
      this.socket.terminate();
      return;
    }
    this.unansweredPing = randomBytes(8);
    this.socket.ping(this.unansweredPing);
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
    if (this.waiting >= this.options.limits.requestBurst) {
      this.replyError(request.id, new RateLimitedError(`too many requests waiting for their answers: at most ${this.options.limits.requestBurst}`));
      return;
    }
    this.waiting += 1;
    this.queue = this.queue
      .then(() => this.execute(request))
      .finally(() => {
        this.waiting -= 1;
      });
  }

  private async execute(request: ParsedRelayRequest): Promise<void> {
    // Requests still queued when the socket closed have no one to answer (a resumable session's
    // client asks them again on its next socket), and a session that is not resumable is closed.
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const session = this.session;
    if (request.method === 'AUTH' || !session) {
      this.send(await this.respond(request, undefined));
      return;
    }
    await session.serve(request.id, () => this.respond(request, session));
  }

  /** The answer to one request: its result, or the JSON-RPC error it ends in (never a rejection). */
  private async respond({ id, method, params }: ParsedRelayRequest, session: RelaySession | undefined): Promise<RelayResponse> {
    try {
      if (!isRelayMethod(method)) throw new RelayRpcError(RELAY_ERROR.methodNotFound, `unknown method "${method}"`);
      if (method === 'AUTH') return { jsonrpc: '2.0', id, result: this.authenticate(parseRelayParams('AUTH', params)) };
      if (!session) throw new NotAuthenticatedError(`not authenticated: send AUTH {token} before ${method}`);
      return { jsonrpc: '2.0', id, result: await session.call(method, parseRelayParams(method, params)) };
    } catch (error) {
      if (error instanceof RelayRpcError) return errorAnswer(id, error);
      this.options.log(`relay: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return errorAnswer(id, new RelayRpcError(RELAY_ERROR.internalError, `internal error in ${method.slice(0, 64)}`));
    }
  }

  private authenticate({ token, resumable, resume }: AuthParams): AuthResult {
    if (this.user !== undefined) throw new ConflictError('already authenticated');
    const user = this.options.authenticate(token);
    const hooks: SessionHooks = {
      send: (message) => this.send(message),
      lost: (reason) => {
        // Its media is gone: nothing to resume.
        this.release(false);
        this.socket.close(1011, closeReason(reason));
      },
    };
    if (this.socket.readyState !== WebSocket.OPEN) throw new ConflictError('the socket closed during AUTH');
    if (resume === undefined) {
      this.session = this.options.openSession(user, hooks, resumable === true, this);
    } else {
      this.session = this.options.resumeSession(resume, user, this);
      this.session.attach(hooks);
    }
    this.user = user;
    return { user, ...(this.session.resumeId === undefined ? {} : { session: this.session.resumeId }) };
  }

  private release(dropped: boolean): void {
    const session = this.session;
    this.session = undefined;
    if (session) this.options.releaseSession(session, this, dropped);
  }

  private replyError(id: RelayRequestId | null, error: RelayRpcError): void {
    this.send(errorAnswer(id, error));
  }

  private send(message: RelayResponse | RelayNotification): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const text = JSON.stringify(message);
    if (this.socket.bufferedAmount + Buffer.byteLength(text) > SEND_BUFFER_BYTES) {
      this.closeUnread();
      return;
    }
    this.socket.send(text);
  }

  /** Its client reads far slower than it asks, or not at all: the relay holds no more for it. */
  private closeUnread(): void {
    this.options.log(`relay: closing a connection (user ${this.user ?? 'not authenticated'}) that left over ${SEND_BUFFER_BYTES} bytes unread`);
    // What waits for it goes with the socket, answers and notifications alike: its client could not
    // go on where the session is, so the session ends rather than wait to be resumed.
    this.release(false);
    void closeWithin(this.socket, 1008, `over ${SEND_BUFFER_BYTES} bytes of replies left unread`);
  }
}

function errorAnswer(id: RelayRequestId | null, error: RelayRpcError): RelayResponse {
  return { jsonrpc: '2.0', id, error: { code: error.rpcCode, message: error.message } };
}

/**
 * The most the relay holds unsent for one socket. A client that reads has far less waiting (a burst
 * of requestBurst answers, a few KB each); one that sends and never reads — every small bad frame
 * is answered, with about 15 times its bytes — would otherwise grow the relay's memory, the
 * gateway's where the relay runs beside it, without end. The gateway's own bound for one websocket
 * (gatewayBufferBytes) is as much by default.
 */
export const SEND_BUFFER_BYTES = 1024 * 1024;

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
    socket.close(code, closeReason(reason));
  });
}

/** A websocket close reason is at most 123 bytes (RFC 6455 §5.5): `text` cut to that, between characters. ws throws on a longer one. */
function closeReason(text: string): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= MAX_CLOSE_REASON_BYTES) return text;
  // A UTF-8 continuation byte (10xxxxxx) is no character's start: the cut goes before the character it belongs to.
  let end = MAX_CLOSE_REASON_BYTES;
  while ((bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString();
}

const MAX_CLOSE_REASON_BYTES = 123;
