import type { Logger } from '../../common/logger';
import type { ProviderConfig } from '../../protocol/config';

/** The account a session logs in with, as StanzaJS's PLAIN mechanism sends it, and the resource it binds. */
export interface XmppLogin {
  readonly domain: string;
  readonly username: string;
  readonly password: string;
  /** The resource the session asks to bind (the config's id); none when StanzaJS would write it otherwise (then the login ahead stops before binding). */
  readonly resource: string | undefined;
}

/** A bare JID already in its prepared form: StanzaJS's stringprep leaves it as it is. */
const PREPARED_BARE_JID = /^([a-z0-9._-]+)@([a-z0-9.-]+)$/;
/** A resource StanzaJS writes as it is: nothing to prepare or escape. */
const PLAIN_RESOURCE = /^[a-z0-9._-]+$/;

/**
 * The login of `config`'s account on the socket opened ahead at `socketUrl`, when the login ahead
 * can write exactly the frames StanzaJS will: the config names that socket's address and an account
 * whose address needs no preparation.
 */
export function xmppLoginOf(config: Pick<ProviderConfig, 'userId' | 'credential' | 'signalingUrl' | 'id'>, socketUrl: string): XmppLogin | undefined {
  const account = PREPARED_BARE_JID.exec(config.userId);
  if (config.signalingUrl !== socketUrl || !account) return undefined;
  const resource = PLAIN_RESOURCE.test(config.id) ? config.id : undefined;
  return { username: account[1]!, domain: account[2]!, password: config.credential, resource };
}

/** RFC 7395's stream open, as StanzaJS's websocket transport writes it (no `lang` configured). */
export function streamOpenFrame(domain: string): string {
  return `<open xmlns="urn:ietf:params:xml:ns:xmpp-framing" xml:lang="en" to="${domain}" version="1.0"/>`;
}

/** SASL PLAIN's auth with no authorization identity, as StanzaJS's SASL feature writes it. */
export function plainAuthFrame({ username, password }: XmppLogin): string {
  const bytes = new TextEncoder().encode(`\0${username}\0${password}`);
  return `<auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="PLAIN">${btoa(String.fromCharCode(...bytes))}</auth>`;
}

/** The id the login ahead gives its bind request; the client's own id replaces it in the answer handed to the client. */
const BIND_AHEAD_ID = 'bind-ahead';
/** The server's answer to the bind made ahead: its head up to the id, and the id's quote. */
const BIND_AHEAD_ANSWER = new RegExp(`^(<iq [^>]*\\bid=)(['"])${BIND_AHEAD_ID}\\2`);

/** Resource binding as StanzaJS's client writes it (the core's bind feature), with the request's `id`. */
export function bindFrame(id: string, resource: string): string {
  return `<iq xmlns="jabber:client" id="${id}" type="set"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"><resource>${resource}</resource></bind></iq>`;
}

/** A bind request's id, when the frame is one. */
function bindIdOf(frame: string): string | undefined {
  return /^<iq xmlns="jabber:client" id="([^"]+)" type="set"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind">/.exec(frame)?.[1];
}

/** True when the server's `frame` completes its answer to `request` sent ahead: a stream open's features, an auth's outcome, the bind's result. */
function answersInFull(request: string, frame: string): boolean {
  const element = elementOf(frame);
  switch (elementOf(request)) {
    case 'open':
      return element === 'stream:features';
    case 'auth':
      return element === 'success' || element === 'failure';
    default:
      return element === 'iq';
  }
}

/** The name of a websocket frame's one element (RFC 7395: one element per frame). */
function elementOf(frame: string): string | undefined {
  return /^\s*<([\w:-]+)/.exec(frame)?.[1];
}

/** True when the server offers PLAIN and nothing else: the one mechanism StanzaJS can then choose. */
function offersOnlyPlain(features: string): boolean {
  const mechanisms = [...features.matchAll(/<mechanism>([^<]*)<\/mechanism>/g)].map((match) => match[1]);
  return mechanisms.length === 1 && mechanisms[0] === 'PLAIN';
}

/** What the login ahead needs of its websocket: the browser's, or `ws`'s in Node. */
export interface LoginSocket {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'message', listener: (event: SocketMessage) => void): void;
}

/** A socket's event as the login ahead reads it: a message's carries its `data`. */
type SocketMessage = { readonly type: string; readonly data?: unknown };
type MessageHandler = (this: LoginSocket, event: SocketMessage) => void;

/**
 * The XMPP login (stream open, SASL PLAIN, stream restart, resource binding), made by the shared
 * worker's first script on the websocket it opens ahead (issue 14, the join path), while the session's
 * code — StanzaJS is most of it — is still being fetched and compiled. Its four requests go in two
 * round trips: the auth does not wait for the mechanisms (the config's credential is the SASL
 * password, PROTOCOL.md "HTTP": a token the server takes as PLAIN's), nor the bind for the restart's
 * features.
 *
 * The client that takes the socket logs in as ever, unaware: each frame it sends that the first
 * script has already sent, identical and in the same order, is not sent again, and the server's
 * answers to it, held until then, are handed to it. The bind request alone differs in its id (the
 * client makes its own): it is the same request when the rest is identical, and its answer is
 * handed over with the client's id. Once it has sent them all, the socket is its own.
 * A frame that differs from the one sent ahead (another account, another StanzaJS) cannot be
 * reconciled with the server's side: the socket is closed, and the session reconnects as after any
 * drop. Frames are compared as strings, so what the first script writes must be what StanzaJS writes,
 * which `login-ahead.test.ts` checks against the real client and both XMPP servers.
 */
export class XmppLoginAhead {
  /** Frames sent ahead, in order. */
  private readonly sentAhead: string[] = [];
  /** How many of them the client has sent too. */
  private matched = 0;
  /** The server's frames not yet handed to the client, each with how many of the frames sent ahead the client must have sent to be given it. */
  private readonly held: Array<{ message: SocketMessage; answering: number }> = [];
  /** How many frames sent ahead the server has answered in full (a stream open by its features, an auth by its outcome, the bind by its result). */
  private answered = 0;
  /** The login waits for its auth's success, to send the restart and the bind; once past it (or given up), nothing more goes ahead. */
  private awaitingSuccess = false;
  /** The client's id for the bind request made ahead, once it has sent it. */
  private clientBindId: string | undefined;
  private login: XmppLogin | undefined;
  private handedOver = false;
  /** The client's login differed from the one made ahead: the socket is closing, and nothing more reaches the client. */
  private diverged = false;
  /** The client's message handler (the socket's `onmessage` as the client sets it). */
  private handler: MessageHandler | null = null;
  private releaseScheduled = false;

  constructor(
    private readonly socket: LoginSocket,
    login: Promise<XmppLogin | undefined>,
    private readonly log: Logger,
  ) {
    socket.addEventListener('message', (message) => this.received(message));
    const opened = new Promise<void>((resolve) => socket.addEventListener('open', () => resolve()));
    void Promise.all([login, opened]).then(([account]) => {
      if (account && !this.handedOver) this.start(account);
    });
  }

  /**
   * The client takes the socket: from now on the login ahead sends nothing more, the client's frames
   * go through `send` and the server's reach the client's `onmessage` in order. Called as the socket
   * is handed over, before the client sets its handlers.
   */
  handOver(): void {
    this.handedOver = true;
    this.awaitingSuccess = false;
    const socket = this.socket;
    const nativeSend = socket.send;
    // Own properties of this one socket: the client sees the socket it asked for, in every other respect the browser's.
    Object.defineProperty(socket, 'send', { configurable: true, writable: true, value: (data: string) => this.clientSends(data, nativeSend) });
    Object.defineProperty(socket, 'onmessage', {
      configurable: true,
      get: () => this.handler,
      set: (handler: MessageHandler | null) => {
        this.handler = handler;
        this.scheduleRelease();
      },
    });
  }

  /**
   * Each step's frames go together, without waiting for the features in between: the stream open with
   * the auth, and after its success the restart with the bind. The server answers them in order
   * (RFC 6120 offers binding after every authentication), and the login takes two round trips, not four.
   */
  private start(login: XmppLogin): void {
    this.login = login;
    this.awaitingSuccess = true;
    this.sendAhead(streamOpenFrame(login.domain));
    this.sendAhead(plainAuthFrame(login));
  }

  private sendAhead(frame: string): void {
    this.sentAhead.push(frame);
    this.socket.send(frame);
  }

  private received(message: SocketMessage): void {
    if (this.diverged) return;
    const frame = String(message.data);
    this.held.push({ message, answering: Math.min(this.answered + 1, this.sentAhead.length) });
    if (this.answered < this.sentAhead.length && answersInFull(this.sentAhead[this.answered]!, frame)) this.answered += 1;
    if (this.handedOver) this.release();
    else this.advance(frame);
  }

  /** The login's next step, on the server's frame. */
  private advance(frame: string): void {
    const element = elementOf(frame);
    const login = this.login;
    if (element === 'open' || !login) return;
    if (element === 'stream:features') {
      // The client chooses its mechanism from these too: offered another, it may not send the PLAIN auth sent ahead, so nothing more goes ahead.
      if (!offersOnlyPlain(frame)) this.awaitingSuccess = false;
      return;
    }
    if (this.awaitingSuccess && element === 'success') {
      this.sendAhead(streamOpenFrame(login.domain));
      if (login.resource !== undefined) this.sendAhead(bindFrame(BIND_AHEAD_ID, login.resource));
    }
    // Past the success, or anything unexpected: no further.
    this.awaitingSuccess = false;
  }

  private clientSends(data: string, nativeSend: (data: string) => void): void {
    if (this.matched === this.sentAhead.length) {
      nativeSend.call(this.socket, data);
      return;
    }
    const ahead = this.sentAhead[this.matched]!;
    const clientBindId = bindIdOf(data);
    // The bind made ahead is the client's under another id: the same frame once the ids agree.
    const sameRequest = data === ahead || (clientBindId !== undefined && data.replace(clientBindId, BIND_AHEAD_ID) === ahead);
    if (!sameRequest) {
      this.log.error(`the XMPP client's login differs from the one made ahead (${elementOf(data) ?? 'a frame'}): reconnecting`);
      // What the client sends on the closing socket goes nowhere, as on any socket that has closed.
      this.diverged = true;
      this.sentAhead.length = 0;
      this.matched = 0;
      this.held.length = 0;
      this.socket.close();
      return;
    }
    if (clientBindId !== undefined) this.clientBindId = clientBindId;
    this.matched += 1;
    // Not within the client's own send: its answers arrive as the network's would, in a later task.
    this.scheduleRelease();
  }

  private scheduleRelease(): void {
    if (this.releaseScheduled) return;
    this.releaseScheduled = true;
    setTimeout(() => {
      this.releaseScheduled = false;
      this.release();
    }, 0);
  }

  /** Hands the client every held frame that answers a frame it has sent, in order. */
  private release(): void {
    const handler = this.handler;
    if (!handler) return;
    while (this.held.length > 0 && this.held[0]!.answering <= this.matched) {
      handler.call(this.socket, this.withClientBindId(this.held.shift()!.message));
    }
  }

  /** The server's answer to the bind made ahead goes to the client under the client's id for it; every other frame as it came. */
  private withClientBindId(message: SocketMessage): SocketMessage {
    const clientBindId = this.clientBindId;
    if (clientBindId === undefined) return message;
    const frame = String(message.data);
    const answer = frame.replace(BIND_AHEAD_ANSWER, `$1$2${clientBindId}$2`);
    if (answer === frame) return message;
    this.clientBindId = undefined;
    return { type: message.type, data: answer };
  }
}
