import { RELAY_REQUEST_TIMEOUT_MS, RELAY_RESUME } from '../../../protocol/clientDefaults';
import {
  CONSUMER_ICE_STATE,
  CONSUMER_PROFILES,
  LAYERS_WANTED,
  parseClosedResult,
  parseConsumerIceState,
  parseLayersWanted,
  parseIngestTransportResult,
  parseProduceResult,
  parseRouterCapabilitiesResult,
  parseSdpResult,
  RELAY_LIMITS,
  relayErrorFrom,
  RelayRpcError,
  RELAY_UNAVAILABLE,
  SOCKET_ABANDONED,
  SOCKET_DROPPED,
  type ConsumerIceStateParams,
  type LayersWantedParams,
  type RelayMethod,
  type RelayParams,
  type RelayRequest,
  type RelayResult,
} from '../../../protocol/relay';
import { ValidationError } from '../../../protocol/errors';
import { expectRecord, expectString, isRecord } from '../../../protocol/validate';
import { sleep, type Clock } from '../../../common/clock';
import { TypedEmitter } from '../../../common/TypedEmitter';
import { RelayClosedError, RelayConnectError, RelayProtocolError, RelayTimeoutError } from './errors';
import { errorMessage } from '../../../common/errorMessage';

/** The part of a WebSocket the client uses: the browser's, or `ws` in Node tests. */
export interface RelaySocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

export type CreateRelaySocket = (url: string) => RelaySocket;

export interface RelayRpcClientOptions {
  /** `sfuServer.url`. */
  readonly url: string;
  /** `sfuServer.password`: the AUTH token. */
  readonly token: string;
  readonly clock: Clock;
  /** The browser's WebSocket by default. */
  readonly createSocket?: CreateRelaySocket;
  /** How long a request (AUTH included) may wait for its reply. */
  readonly requestTimeoutMs?: number;
}

export interface RelayRpcClientEvents {
  /** CONSUMER_ICE_STATE from the relay. */
  consumerIceState: [params: ConsumerIceStateParams];
  /** LAYERS_WANTED from the relay: how many of a stream's video layers are watched. */
  layersWanted: [params: LayersWantedParams];
  /**
   * The socket dropped without a close frame: a new one resumes the session (RELAY_RESUME).
   * Requests in flight wait for it with those sent meanwhile, and are asked again on it (the relay
   * answers each once); they fail if it does not come back.
   */
  interrupted: [error: RelayClosedError];
  /** The session goes on over a new socket: everything the relay made for it is still there. */
  resumed: [];
  /** The connection is over (the relay died, dropped us and did not take us back, or `close()`); every pending request has failed. */
  closed: [error: RelayClosedError];
  /** A message that was not readable JSON-RPC, or answered no request of ours: dropped, the connection goes on. */
  messageDropped: [error: RelayProtocolError];
}

/** Every method but AUTH, which `connect` sends. */
export type RelayCallMethod = Exclude<RelayMethod, 'AUTH'>;

const OPEN = 1;
/** Replies carry an SDP at most (bounded by the relay's own message limit); anything far larger is not the relay. */
const MAX_MESSAGE_CHARS = 4 * RELAY_LIMITS.messageBytes;

function emptyResult<T>(value: unknown): T {
  expectRecord(value, 'relay result');
  return {} as T;
}

/** Results are untrusted input: each method's reader checks the fields the client uses. */
const RESULT_READERS: { [M in RelayMethod]: (value: unknown) => RelayResult<M> } = {
  AUTH: (value) => {
    const result = expectRecord(value, 'relay result');
    const session = result.session === undefined ? {} : { session: expectString(result.session, 'session', RELAY_LIMITS.idLength) };
    return { user: expectString(result.user, 'user', RELAY_LIMITS.idLength), ...session };
  },
  INGEST: parseSdpResult,
  CREATE_CONSUMER: parseSdpResult,
  CLAIM_CONSUMER: emptyResult,
  START_CONSUMER: emptyResult,
  REMOVE_CONSUMER: parseClosedResult,
  SET_CONSUMER_PROFILE: (value) => {
    const profile = expectRecord(value, 'relay result').profile;
    const known = CONSUMER_PROFILES.find((candidate) => candidate === profile);
    if (!known) throw new ValidationError('profile must be high, medium, low or off');
    return { profile: known };
  },
  DISPOSE: parseClosedResult,
  GET_ROUTER_CAPABILITIES: parseRouterCapabilitiesResult,
  CREATE_INGEST_TRANSPORT: parseIngestTransportResult,
  CONNECT_INGEST_TRANSPORT: emptyResult,
  PRODUCE: parseProduceResult,
  PING: emptyResult,
};

interface Pending {
  readonly method: RelayMethod;
  /** The request as sent: asked again, as it is, on the socket that resumes the session. */
  readonly message: string;
  /** Its timeout; none while it waits for the session's resume. */
  timer: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One JSON-RPC 2.0 connection to the media relay (PROTOCOL.md "Media relay"): opened and
 * authenticated by `connect`, then requests with their own ids and timeouts, the relay's
 * CONSUMER_ICE_STATE and LAYERS_WANTED notifications, and one `closed` event when it ends. A
 * socket that drops without a close frame (a network fault) is replaced and the relay session
 * resumed on it, with everything the relay made for it (`interrupted`, `resumed`); a connection
 * that ended is not reopened: the owner makes a new one (RelayLink reconnects) and ingests again.
 */
export class RelayRpcClient extends TypedEmitter<RelayRpcClientEvents> {
  private readonly pending = new Map<string, Pending>();
  private readonly timeoutMs: number;
  private closedWith: RelayClosedError | undefined;
  /** The relay session's id, what a new socket resumes (none from a relay that does not resume). */
  private session: string | undefined;
  /** A new socket is resuming the session: requests wait for it. */
  private resuming: Promise<void> | undefined;
  /** Requests asked again after the last resume: a second answer to one (it was answered on both sockets) is no fault. */
  private readonly askedAgain = new Set<string>();
  private heartbeat: unknown;
  /** The PING checking the socket now (the heartbeat's, or one for a request unanswered in time): whether it was answered. */
  private check: Promise<boolean> | undefined;
  /** The user the token names, once AUTH succeeded. */
  user = '';

  private constructor(
    private socket: RelaySocket,
    private readonly options: RelayRpcClientOptions,
  ) {
    super();
    this.timeoutMs = options.requestTimeoutMs ?? RELAY_REQUEST_TIMEOUT_MS;
    this.listen(socket);
  }

  /** Opens the socket and authenticates; rejects with RelayConnectError (the socket then closed). */
  static async connect(options: RelayRpcClientOptions): Promise<RelayRpcClient> {
    const client = new RelayRpcClient(openSocket(options), options);
    try {
      await client.opened(client.socket, client.timeoutMs);
      const { user, session } = await client.transmit('AUTH', { token: options.token, resumable: true }, client.timeoutMs);
      client.user = user;
      client.session = session;
      client.heartbeat = options.clock.setInterval(() => client.ping(), RELAY_RESUME.heartbeatMs);
      return client;
    } catch (error) {
      client.close();
      throw error instanceof RelayConnectError ? error : new RelayConnectError(options.url, errorMessage(error));
    }
  }

  get isOpen(): boolean {
    return this.closedWith === undefined;
  }

  /** Sends a request; resolves with its checked result, rejects with RelayRpcError, RelayTimeoutError or RelayClosedError. */
  request<M extends RelayCallMethod>(method: M, params: RelayParams<M>): Promise<RelayResult<M>> {
    return this.send(method, params);
  }

  /** Closes the socket; pending requests fail and `closed` is emitted (once). */
  close(): void {
    if (this.socket.readyState <= OPEN) this.socket.close(1000, 'done');
    this.finish(new RelayClosedError(1000, 'closed by the client'));
  }

  private listen(socket: RelaySocket): void {
    socket.addEventListener('message', (event) => {
      if (socket === this.socket) this.receive(event.data);
    });
    socket.addEventListener('close', (event) => this.onSocketClose(socket, event.code, event.reason));
    // A failing socket reports close next, which carries the outcome; unheard, Node's `ws` would throw.
    socket.addEventListener('error', () => undefined);
  }

  private opened(socket: RelaySocket, timeoutMs: number): Promise<void> {
    if (socket.readyState === OPEN) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = this.options.clock.setTimeout(() => reject(new RelayTimeoutError('the websocket handshake', timeoutMs)), timeoutMs);
      socket.addEventListener('open', () => {
        this.options.clock.clearTimeout(timer);
        resolve();
      });
      // A refused upgrade reports error, then close: both end the wait with the close's reason.
      socket.addEventListener('close', (event) => {
        this.options.clock.clearTimeout(timer);
        reject(new RelayClosedError(event.code, event.reason));
      });
    });
  }

  /** A request; while the session is being resumed it waits for that, and fails if it does not come back. */
  private async send<M extends RelayMethod>(method: M, params: RelayParams<M>): Promise<RelayResult<M>> {
    if (this.resuming) await this.resuming;
    return this.transmit(method, params, this.timeoutMs);
  }

  private transmit<M extends RelayMethod>(method: M, params: RelayParams<M>, timeoutMs: number): Promise<RelayResult<M>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = crypto.randomUUID();
    const request: RelayRequest<M> = { jsonrpc: '2.0', id, method, params };
    return new Promise<RelayResult<M>>((resolve, reject) => {
      const pending: Pending = { method, message: JSON.stringify(request), timer: undefined, resolve: resolve as (value: unknown) => void, reject };
      this.pending.set(id, pending);
      this.sendPending(id, pending, timeoutMs);
    });
  }

  /** Sends a pending request on the socket, its timeout running from now. */
  private sendPending(id: string, pending: Pending, timeoutMs: number): void {
    pending.timer = this.options.clock.setTimeout(() => this.timedOut(id, pending, timeoutMs), timeoutMs);
    try {
      this.socket.send(pending.message);
    } catch {
      // Closing already: the close event settles this request with the others.
    }
  }

  private receive(data: unknown): void {
    try {
      this.dispatch(this.read(data));
    } catch (error) {
      this.emit('messageDropped', error instanceof RelayProtocolError ? error : new RelayProtocolError(errorMessage(error)));
    }
  }

  private read(data: unknown): Record<string, unknown> {
    if (typeof data !== 'string') throw new RelayProtocolError('relay sent a binary message');
    if (data.length > MAX_MESSAGE_CHARS) throw new RelayProtocolError(`relay message of ${data.length} characters dropped`);
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      throw new RelayProtocolError('relay sent a message that is not JSON');
    }
    if (!isRecord(value) || value.jsonrpc !== '2.0') throw new RelayProtocolError('relay sent a message that is not JSON-RPC 2.0');
    return value;
  }

  private dispatch(message: Record<string, unknown>): void {
    if (message.method === CONSUMER_ICE_STATE) {
      this.emit('consumerIceState', parseConsumerIceState(message.params));
      return;
    }
    if (message.method === LAYERS_WANTED) {
      this.emit('layersWanted', parseLayersWanted(message.params));
      return;
    }
    const id = message.id;
    const pending = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (typeof id === 'string' && !pending && this.askedAgain.delete(id)) return;
    if (!pending || typeof id !== 'string') throw new RelayProtocolError(`relay reply to no request of ours (${String(id)})`);
    this.pending.delete(id);
    this.options.clock.clearTimeout(pending.timer);
    // Settled whatever the reply holds: the request has left `pending`, and one never settled would
    // jam the queue that awaits it (RelayLink's, a consumer's) for the rest of the call.
    if ('error' in message) {
      const { error } = message;
      pending.reject(isRecord(error) ? relayErrorFrom(error) : new RelayProtocolError(`relay ${pending.method} error unreadable: ${error === null ? 'null' : typeof error}`));
      return;
    }
    try {
      pending.resolve(RESULT_READERS[pending.method](message.result));
    } catch (error) {
      pending.reject(new RelayProtocolError(`relay ${pending.method} result unreadable: ${errorMessage(error)}`));
    }
  }

  private onSocketClose(socket: RelaySocket, code: number, reason: string): void {
    if (socket !== this.socket || this.closedWith) return;
    const error = new RelayClosedError(code, reason);
    // A resuming socket's failure is its attempt's: its AUTH failed just now.
    if (this.resuming) {
      this.failPending(error, 'AUTH');
      return;
    }
    if (code === SOCKET_DROPPED && this.session !== undefined) {
      // What was asked on this socket is asked again on the one that resumes the session.
      for (const pending of this.pending.values()) this.options.clock.clearTimeout(pending.timer);
      this.resuming = this.resume(this.session, error);
      return;
    }
    this.finish(error);
  }

  /**
   * A request unanswered in time. On a resumable connection its socket may have gone silent (a
   * network that drops everything closes nothing), before the heartbeat's PING could tell: the
   * socket is checked with a PING first. Unanswered, the socket is taken for dropped and the request
   * waits for the session's resume, to be asked again; answered, the relay is there and did not
   * answer this request, which fails.
   */
  private timedOut(id: string, pending: Pending, timeoutMs: number): void {
    const error = new RelayTimeoutError(pending.method, timeoutMs);
    pending.timer = undefined;
    if (this.session === undefined || this.resuming || pending.method === 'PING') {
      this.pending.delete(id);
      pending.reject(error);
      return;
    }
    void this.socketAnswers().then((answers) => {
      // Still waiting and not asked again on a resumed socket (which gave it a timer anew).
      if (!answers || this.pending.get(id) !== pending || pending.timer !== undefined) return;
      this.pending.delete(id);
      pending.reject(error);
    });
  }

  private ping(): void {
    if (!this.resuming && !this.closedWith) void this.socketAnswers();
  }

  /** One PING at a time checks the socket; unanswered in time, the socket is taken for dropped, as if it had closed so. */
  private socketAnswers(): Promise<boolean> {
    this.check ??= this.pingSocket().finally(() => (this.check = undefined));
    return this.check;
  }

  private async pingSocket(): Promise<boolean> {
    const socket = this.socket;
    try {
      await this.transmit('PING', {}, this.timeoutMs);
      return true;
    } catch (error) {
      if (error instanceof RelayTimeoutError && socket === this.socket && !this.resuming) {
        // Taken for dropped first: the abandoned socket's own close, however soon it comes, is then no longer this one's.
        this.onSocketClose(socket, SOCKET_DROPPED, 'no answer to PING');
        socket.close(SOCKET_ABANDONED, 'no answer to PING');
      }
      return false;
    }
  }

  /**
   * New sockets, one after another, each asking to resume the session, for as long as the relay
   * keeps it; the connection ends once the relay answers no (the session is gone) or that time is over.
   */
  private async resume(session: string, dropped: RelayClosedError): Promise<void> {
    this.emit('interrupted', dropped);
    const { retryDelayMs, attemptTimeoutMs } = RELAY_RESUME;
    const until = this.options.clock.now() + RELAY_LIMITS.resumeGraceMs;
    for (let attempt = 0; !this.closedWith && this.options.clock.now() < until; attempt += 1) {
      if (attempt > 0) await sleep(this.options.clock, retryDelayMs);
      if (this.closedWith) return;
      try {
        this.socket = openSocket(this.options);
        this.listen(this.socket);
        await this.opened(this.socket, attemptTimeoutMs);
        await this.transmit('AUTH', { token: this.options.token, resume: session }, attemptTimeoutMs);
        this.resuming = undefined;
        this.askAgain();
        this.emit('resumed');
        return;
      } catch (error) {
        // Abandoned, not closed: had the relay taken it back after all, it keeps the session for the next try.
        if (this.socket.readyState <= OPEN) this.socket.close(SOCKET_ABANDONED, 'not resumed in time');
        // The relay answered, or said it is not there: the session is gone (or the token is refused
        // now); asking again would not change that.
        if (error instanceof RelayRpcError || (error instanceof RelayClosedError && error.closeCode === RELAY_UNAVAILABLE)) break;
      }
    }
    this.resuming = undefined;
    this.finish(dropped);
  }

  /** The requests the dropped socket left unanswered, asked again first on the one that resumed the session. */
  private askAgain(): void {
    this.askedAgain.clear();
    for (const [id, pending] of this.pending) {
      this.askedAgain.add(id);
      this.sendPending(id, pending, this.timeoutMs);
    }
  }

  /** Fails the pending requests (only those of `method`, when given). */
  private failPending(error: RelayClosedError, method?: RelayMethod): void {
    for (const [id, pending] of this.pending) {
      if (method !== undefined && pending.method !== method) continue;
      this.options.clock.clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
  }

  private finish(error: RelayClosedError): void {
    if (this.closedWith) return;
    this.closedWith = error;
    this.options.clock.clearInterval(this.heartbeat);
    this.failPending(error);
    this.emit('closed', error);
  }
}

function openSocket(options: RelayRpcClientOptions): RelaySocket {
  try {
    return (options.createSocket ?? ((url: string) => new WebSocket(url)))(options.url);
  } catch (error) {
    throw new RelayConnectError(options.url, errorMessage(error));
  }
}
