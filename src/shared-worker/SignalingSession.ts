import type { Agent, AgentConfig } from 'stanza';
import { KEEPALIVE_INTERVAL_MS, NETWORK_EVENTS } from '../protocol/constants';
import type { ProviderConfig } from '../protocol/config';
import { ParleyError, type ErrorCode } from '../protocol/errors';
import type { CallConfig, ConnectionRecord } from '../protocol/session-state';
import type { Clock } from '../common/clock';
import { fetchConfig, type Fetch } from './ConfigClient';
import { ConfigRefresh } from './ConfigRefresh';
import { GuestIdentity } from './identity/GuestIdentity';
import type { IdentityStorage } from './identity/IdentityStorage';
import type { Logger } from '../common/logger';
import { LIVENESS, RECONNECT_POLICY } from '../protocol/clientDefaults';
import { ConnectionLiveness, type LivenessSettings } from './ConnectionLiveness';
import { ServerAwareReconnectPolicy, type ReconnectPolicy } from './ReconnectPolicy';
import { waitForServerUp } from './ServerReadiness';
import type { SessionContext, SessionDomain } from './SessionContext';
import { StateStore } from './StateStore';

export interface SignalingSessionDependencies {
  clock: Clock;
  fetch: Fetch;
  log: Logger<ErrorCode>;
  /** The config service (SPEC §7), e.g. `/api/config`. */
  configUrl: string;
  /** The product's own token for this user, sent with the config request (carries customerData). */
  userToken?: string;
  /** Where the browser keeps its guest identity credential. */
  identityStorage: IdentityStorage;
  /** Creates the XMPP client: StanzaJS's `createClient` in every runtime. */
  createXmppClient: (config: AgentConfig) => Agent;
  /** When to try again after a drop or a failed attempt; default: the spec's backoff, then waiting for the server (issue 13). */
  reconnectPolicy?: ReconnectPolicy;
  /** The gateway's `GET /api/xmpp-ready`, where a reconnect waits for the XMPP server; absent, the policy's delays only. */
  serverReadyUrl?: string;
  /** When a silent connection is given up (issue 13); default LIVENESS. */
  liveness?: LivenessSettings;
}

/** What every connection's XMPP client is made with, before its config is known. */
const CLIENT_OPTIONS: AgentConfig = {
  // Parley reconnects itself, with a fresh config, on the spec's schedule.
  autoReconnect: false,
  allowResumption: false,
  // Without resumption, stream-management acks serve nothing (chat delivery is the room's echo),
  // and StanzaJS sends each ack request unawaited: a socket closing just then rejected with no one listening.
  useStreamManagement: false,
};

/** What the tabs' calls take from the config (ConnectionRecord.callConfig). */
function callConfigOf({ iceServers, sfuServer, videoResolutionTiers }: ProviderConfig): CallConfig {
  return { iceServers, sfuServer, videoResolutionTiers };
}

/**
 * The one signalling session every tab shares (SPEC §4 connection state, §7 signalling): config,
 * XMPP login, keepalive and reconnect, and the config kept fresh while connected (ConfigRefresh). Runtime-agnostic: it runs unchanged in Node and in the
 * SharedWorker. Beyond the spec, it never stops trying while the person wants to be connected: a
 * failed attempt (`failed`) is retried on the reconnect policy's schedule too, and while the
 * browser is offline it waits for `online` instead. Past the spec's first attempts it waits for the
 * gateway to say the XMPP server is up (ReconnectPolicy), and a connection that stops answering
 * is noticed (ConnectionLiveness) and replaced.
 */
export class SignalingSession implements SessionContext {
  readonly store = new StateStore();
  private currentClient: Agent | undefined;
  private sessionStarted = false;
  private currentConfig: ProviderConfig | undefined;
  /** When the current config was asked for: its tokens' lifetimes count from then (ConfigRefresh). */
  private configAskedAt = 0;
  private readonly configRefresh: ConfigRefresh;
  private readonly domains: SessionDomain[] = [];
  private keepalive: unknown;
  private reconnectTimer: unknown;
  private offlineTimer: unknown;
  private onlineTimer: unknown;
  /** A reconnect waiting for the gateway to say the server is up. */
  private serverWait: AbortController | undefined;
  /** The last attempt went because the gateway said the server was up: if it fails, the next one waits its delay first. */
  private triedOnServerUp = false;
  /** Attempts in a row whose sign-in the chat server refused: the reconnect policy backs off after a run of them. */
  private loginsRefusedInARow = 0;
  private liveness: ConnectionLiveness | undefined;
  /** A login not yet a session: given up after LIVENESS.startWithinMs. */
  private startTimer: unknown;
  /** False after a deliberate disconnect: a drop then schedules nothing. */
  private wantConnected = false;
  /** Advanced as each connection ends (endConnection): an attempt begun before then is stale and starts no client. */
  private attemptGeneration = 0;
  private readonly identity: GuestIdentity;
  private readonly reconnectPolicy: ReconnectPolicy;

  constructor(private readonly deps: SignalingSessionDependencies) {
    this.identity = new GuestIdentity(deps.identityStorage, deps.log, deps.clock);
    this.reconnectPolicy = deps.reconnectPolicy ?? new ServerAwareReconnectPolicy();
    this.configRefresh = new ConfigRefresh(deps.clock, deps.log, async () => this.requestConfig(await this.identity.current()), (config) => this.refreshed(config));
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  get log(): Logger<ErrorCode> {
    return this.deps.log;
  }

  get fetch(): Fetch {
    return this.deps.fetch;
  }

  get client(): Agent | undefined {
    return this.sessionStarted ? this.currentClient : undefined;
  }

  get config(): ProviderConfig | undefined {
    return this.currentConfig;
  }

  get connection(): ConnectionRecord {
    return this.store.state.connection;
  }

  /** Adds a domain; it sees every client created from now on. */
  addDomain<D extends SessionDomain>(domain: D): D {
    this.domains.push(domain);
    return domain;
  }

  /** True until a deliberate disconnect: the session is, or is getting, connected. */
  get wantsConnection(): boolean {
    return this.wantConnected;
  }

  /**
   * Starts the session unless it is connected or on its way there. Also the "Retry now" of every
   * tab: a scheduled attempt is brought forward.
   */
  async connect(): Promise<void> {
    this.wantConnected = true;
    if (this.connection.state === 'connecting' || this.connection.state === 'connected') return;
    this.clearReconnect();
    this.setConnection({ state: 'connecting', nextAttemptAt: undefined });
    // Offline or a deliberate disconnect may end the connection while this attempt waits, and the
    // next attempt may start meanwhile: this one then stops, so that one client alone logs in.
    const generation = this.attemptGeneration;
    const stale = (): boolean => generation !== this.attemptGeneration;
    let config: ProviderConfig;
    let client: Agent;
    let askedAt = 0;
    try {
      const identity = await this.identity.current();
      if (stale()) return;
      askedAt = this.deps.clock.now();
      const configuring = this.requestConfig(identity);
      // Issue 14, the join path: making StanzaJS's client takes this thread 15–25 ms on a busy
      // machine; it is made while the config request is out, which it then only completes.
      client = this.deps.createXmppClient(CLIENT_OPTIONS);
      config = await configuring;
    } catch (error) {
      if (stale()) return;
      const coded = error instanceof ParleyError ? error : new ParleyError(String(error));
      this.deps.log.error(coded.message, coded.code ?? 'ESWRTC_001');
      this.loginsRefusedInARow = 0;
      this.setConnection({ state: 'failed', lastError: coded.message, disconnectedSince: this.lostSince(), loginRefused: false });
      this.scheduleReconnect();
      return;
    }
    void this.identity.renew(config.identity);
    if (stale()) return;
    this.currentConfig = config;
    this.configAskedAt = askedAt;
    if (config.identityReplaced) this.setConnection({ identityReplaced: true });
    if (this.deps.userToken && config.customerData === undefined) this.deps.log.error('The config carries no customerData for the user token sent', 'ESWRTC_003');
    for (const domain of this.domains) domain.configured?.();
    this.startClient(client, config);
  }

  /** A config request; a reconnect (and a refresh) asks for the same id back: the same resource and room nickname (issue 13, ConfigRequestBody). */
  private requestConfig(identity: string | undefined): Promise<ProviderConfig> {
    const { fetch, clock, configUrl, userToken } = this.deps;
    // Sent in the caller's task: on the join path the XMPP client is made while it is out.
    return fetchConfig(fetch, clock, configUrl, userToken, identity, this.currentConfig?.credential);
  }

  /**
   * A refreshed config (ConfigRefresh) replaces the current one in place, with no reconnect: the
   * room-config requests take its credential, the tabs its call config (the relay's next AUTH, its
   * token), a reconnect its `resume`. One for another id or user would not be this connection's.
   */
  private refreshed(config: ProviderConfig): boolean {
    const current = this.currentConfig;
    if (!this.sessionStarted || !current) return false;
    if (config.id !== current.id || config.userId !== current.userId || config.signalingUrl !== current.signalingUrl) {
      this.deps.log.info('the refreshed config is for another id, user or address: kept the current one');
      return false;
    }
    this.currentConfig = config;
    void this.identity.renew(config.identity);
    this.setConnection({ callConfig: callConfigOf(config) });
    return true;
  }

  /** Deliberate disconnect: ends reconnecting (SPEC §4). */
  disconnect(): void {
    this.wantConnected = false;
    this.endConnection();
    this.setConnection({ disconnectedSince: undefined, stoppedAnswering: false, loginRefused: false });
    for (const domain of this.domains) domain.stopped?.();
  }

  /**
   * SPEC §7: online reconnects after up to 5 s (random) unless connected or connecting. Connected, the
   * connection is checked at once: a network that changed (back within the offline delay, or a new
   * route with no offline before it) leaves the socket dead without a close.
   */
  online(): void {
    this.clearNetworkTimers();
    if (this.connection.offline) this.setConnection({ offline: false });
    if (this.connection.state === 'connected') this.liveness?.checkNow();
    this.onlineTimer = this.deps.clock.setTimeout(() => {
      this.onlineTimer = undefined;
      if (this.connection.state !== 'connected' && this.connection.state !== 'connecting') void this.connect();
    }, this.deps.clock.random() * NETWORK_EVENTS.onlineMaxDelayMs);
  }

  /**
   * SPEC §7: offline disconnects after 5 s if still offline. Not a deliberate disconnect: the
   * person still wants to be connected, and `online` brings the session back.
   */
  offline(): void {
    this.clearNetworkTimers();
    this.setConnection({ offline: true });
    this.offlineTimer = this.deps.clock.setTimeout(() => {
      this.offlineTimer = undefined;
      this.endConnection();
    }, NETWORK_EVENTS.offlineDisconnectDelayMs);
  }

  /** Closes the current connection and stops a scheduled attempt; the state says disconnected (failed stays failed). */
  private endConnection(): void {
    this.attemptGeneration += 1;
    this.clearReconnect();
    const client = this.currentClient;
    const wasStarted = this.letConnectionGo();
    client?.disconnect();
    const state = this.connection.state === 'failed' ? 'failed' : 'disconnected';
    this.setConnection({ state, selfAddress: undefined, nextAttemptAt: undefined, disconnectedSince: this.lostSince() });
    if (wasStarted) for (const domain of this.domains) domain.disconnected?.();
  }

  /** Forgets the current connection's client and stops its timers; returns whether a session had started on it. */
  private letConnectionGo(): boolean {
    const wasStarted = this.sessionStarted;
    this.currentClient = undefined;
    this.sessionStarted = false;
    this.clearStartTimer();
    this.stopKeepalive();
    this.configRefresh.stop();
    return wasStarted;
  }

  /** Since when the session has been without a connection: kept through attempts, now when it was just lost. */
  private lostSince(): number {
    return this.connection.disconnectedSince ?? this.deps.clock.now();
  }

  private clearNetworkTimers(): void {
    if (this.onlineTimer !== undefined) this.deps.clock.clearTimeout(this.onlineTimer);
    if (this.offlineTimer !== undefined) this.deps.clock.clearTimeout(this.offlineTimer);
    this.onlineTimer = undefined;
    this.offlineTimer = undefined;
  }

  /** Completes a client made with CLIENT_OPTIONS with the connection's config, and connects it. */
  private startClient(client: Agent, config: ProviderConfig): void {
    client.updateConfig({ jid: config.userId, password: config.credential, resource: config.id, transports: { websocket: config.signalingUrl, bosh: false } });
    // Never two clients at once: under the same resource the server would put the other out of its rooms.
    const previous = this.currentClient;
    this.currentClient = client;
    this.sessionStarted = false;
    previous?.disconnect();
    for (const domain of this.domains) domain.attachClient?.(client);
    this.startTimer = this.deps.clock.setTimeout(() => {
      this.startTimer = undefined;
      this.giveUp(client, `the login did not become a session within ${this.livenessSettings.startWithinMs} ms`);
    }, this.livenessSettings.startWithinMs);
    client.on('session:started', () => {
      if (this.currentClient !== client) return;
      this.clearStartTimer();
      this.sessionStarted = true;
      this.triedOnServerUp = false;
      this.loginsRefusedInARow = 0;
      client.sendPresence();
      this.startKeepalive(client);
      this.configRefresh.plan(config, this.configAskedAt);
      this.setConnection({
        state: 'connected',
        selfAddress: client.jid,
        reconnectAttempts: 0,
        disconnectedSince: undefined,
        nextAttemptAt: undefined,
        lastError: undefined,
        stoppedAnswering: false,
        wasConnected: true,
        loginRefused: false,
        callConfig: callConfigOf(config),
      });
      for (const domain of this.domains) domain.connected?.();
    });
    // StanzaJS closes the stream after a refused sign-in: its 'disconnected' follows.
    let loginRefused = false;
    client.on('auth:failed', () => {
      if (this.currentClient !== client) return;
      loginRefused = true;
      this.setConnection({ lastError: 'authentication failed' });
    });
    client.on('disconnected', () => {
      if (this.currentClient === client) this.onDropped(loginRefused);
    });
    void client.connect();
  }

  /** SPEC §4: an unexpected drop gives disconnected and schedules a reconnect; a refused sign-in ends the attempt the same way. */
  private onDropped(loginRefused = false): void {
    const wasStarted = this.letConnectionGo();
    this.loginsRefusedInARow = loginRefused ? this.loginsRefusedInARow + 1 : 0;
    this.setConnection({ state: 'disconnected', selfAddress: undefined, disconnectedSince: this.lostSince(), loginRefused });
    this.scheduleReconnect();
    if (wasStarted) for (const domain of this.domains) domain.disconnected?.();
  }

  /** The next attempt, on the policy's schedule, while the person wants to be connected and the browser is online. */
  private scheduleReconnect(): void {
    this.clearReconnect();
    if (!this.wantConnected || this.connection.offline) return;
    const attemptsSoFar = this.connection.reconnectAttempts;
    const step = this.reconnectPolicy.next({ attemptsSoFar, loginsRefusedInARow: this.loginsRefusedInARow, random: this.deps.clock.random() });
    this.setConnection({ reconnectAttempts: attemptsSoFar + 1 });
    const url = this.deps.serverReadyUrl;
    if (!step.waitForServer || url === undefined || this.triedOnServerUp) {
      this.triedOnServerUp = false;
      this.attemptAfter(step.delayMs);
      return;
    }
    const wait = new AbortController();
    this.serverWait = wait;
    this.setConnection({ waitingForServer: true });
    void waitForServerUp(this.deps.fetch, this.deps.clock, url, RECONNECT_POLICY, wait.signal).then((answer) => {
      if (this.serverWait !== wait) return;
      this.serverWait = undefined;
      this.setConnection({ waitingForServer: false });
      this.triedOnServerUp = answer === 'up';
      this.attemptAfter(answer === 'up' ? this.reconnectPolicy.afterServerUpMs(this.deps.clock.random()) : step.delayMs);
    });
  }

  private attemptAfter(delayMs: number): void {
    this.setConnection({ nextAttemptAt: this.deps.clock.now() + delayMs });
    this.reconnectTimer = this.deps.clock.setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delayMs);
  }

  /** SPEC §7's keepalive, and issue 13's liveness: a connection that stops answering is given up and replaced. */
  private startKeepalive(client: Agent): void {
    this.stopKeepalive();
    this.keepalive = this.deps.clock.setInterval(() => {
      client.ping().catch(() => this.deps.log.info('keepalive ping got no answer'));
    }, KEEPALIVE_INTERVAL_MS);
    this.liveness = new ConnectionLiveness(client, this.deps.clock, this.livenessSettings, () => this.giveUp(client, 'the connection stopped answering'));
  }

  private get livenessSettings(): LivenessSettings {
    return this.deps.liveness ?? LIVENESS;
  }

  /** Issue 13: a connection that went silent (or a login that never became a session) is dropped and replaced. */
  private giveUp(client: Agent, why: string): void {
    if (this.currentClient !== client) return;
    this.deps.log.info(`${why}: reconnecting`);
    this.setConnection({ stoppedAnswering: true, lastError: why });
    this.onDropped();
    // Given up while its socket may still look open: whatever it does from now on is ignored.
    client.disconnect();
  }

  private clearStartTimer(): void {
    if (this.startTimer !== undefined) this.deps.clock.clearTimeout(this.startTimer);
    this.startTimer = undefined;
  }

  private stopKeepalive(): void {
    if (this.keepalive !== undefined) this.deps.clock.clearInterval(this.keepalive);
    this.keepalive = undefined;
    this.liveness?.stop();
    this.liveness = undefined;
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== undefined) this.deps.clock.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.serverWait?.abort();
    this.serverWait = undefined;
    if (this.connection.nextAttemptAt !== undefined || this.connection.waitingForServer) this.setConnection({ nextAttemptAt: undefined, waitingForServer: false });
  }

  private setConnection(change: Partial<ConnectionRecord>): void {
    this.store.apply({ kind: 'connection', value: { ...this.connection, ...change } });
  }
}
