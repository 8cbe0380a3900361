import type { Agent, AgentConfig } from 'stanza';
import type { Logger } from '../../src/common/logger';
import type { ErrorCode } from '../../src/protocol/errors';
import type { Fetch } from '../../src/shared-worker/ConfigClient';
import { MemoryIdentityStorage, type IdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { SignalingSession } from '../../src/shared-worker/SignalingSession';
import { ManualClock } from '../support/ManualClock';

type Handler = (...args: unknown[]) => void;

/**
 * StanzaJS's client as the signalling session uses it, driven by the test: what the chat server
 * would do (start the session, refuse the sign-in, answer, drop) is the test's to say.
 */
export class FakeXmppClient {
  config: AgentConfig = {};
  jid = '';
  connects = 0;
  pings = 0;
  private readonly handlers = new Map<string, Set<Handler>>();

  on(event: string, handler: Handler): void {
    this.handlers.set(event, (this.handlers.get(event) ?? new Set()).add(handler));
  }

  off(event: string, handler: Handler): void {
    this.handlers.get(event)?.delete(handler);
  }

  updateConfig(config: AgentConfig): void {
    this.config = { ...this.config, ...config };
  }

  connect(): Promise<void> {
    this.connects += 1;
    return Promise.resolve();
  }

  /** StanzaJS says 'disconnected' later, once its socket has closed: the tests say it when it matters. */
  disconnect(): void {}

  ping(): Promise<void> {
    this.pings += 1;
    return new Promise(() => undefined);
  }

  sendPresence(): void {}

  startSession(): void {
    this.jid = `${this.config.jid}/${this.config.resource}`;
    this.emit('session:started');
  }

  /** SASL failure: StanzaJS says so, then closes the stream. */
  refuseSignIn(): void {
    this.emit('auth:failed');
    this.emit('disconnected');
  }

  /** A byte from the server. */
  hear(): void {
    this.emit('raw:incoming', '<r/>');
  }

  private emit(event: string, ...args: unknown[]): void {
    this.handlers.get(event)?.forEach((handler) => handler(...args));
  }
}

const CONFIG = { credential: 'credential', id: 'config-id', roomConfigUrl: 'http://h/api/room-config', signalingUrl: 'ws://h/xmpp-websocket', userId: 'guest@h' };

/** A signalling session on fake time, its config service answering at once, its clients fakes. */
export interface FakeTimeSession {
  session: SignalingSession;
  clock: ManualClock;
  clients: FakeXmppClient[];
  /** The config requests' bodies, in order. */
  configRequests: string[];
  /** The newest client the session made. */
  readonly client: FakeXmppClient;
}

export function sessionOnFakeTime({ identityStorage = new MemoryIdentityStorage() }: { identityStorage?: IdentityStorage } = {}): FakeTimeSession {
  const clock = new ManualClock();
  const clients: FakeXmppClient[] = [];
  const configRequests: string[] = [];
  const fetch: Fetch = (_url, init) => {
    configRequests.push(String(init.body));
    return Promise.resolve(new Response(JSON.stringify(CONFIG), { status: 200, headers: { 'content-type': 'application/json' } }));
  };
  const log: Logger<ErrorCode> = { info: () => undefined, error: () => undefined };
  const session = new SignalingSession({
    clock,
    fetch,
    log,
    configUrl: '/api/config',
    identityStorage,
    createXmppClient: () => {
      const client = new FakeXmppClient();
      clients.push(client);
      return client as unknown as Agent;
    },
  });
  return {
    session,
    clock,
    clients,
    configRequests,
    get client() {
      const newest = clients.at(-1);
      if (!newest) throw new Error('the session has made no client yet');
      return newest;
    },
  };
}
