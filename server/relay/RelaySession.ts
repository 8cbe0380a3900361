import type { types } from 'mediasoup';
import {
  CONSUMER_ICE_STATE,
  LAYERS_WANTED,
  type RelayLimits,
  type RelayMethod,
  type RelayNotification,
  type RelayParams,
  type RelayRequestId,
  type RelayResponse,
  type RelayResult,
} from '../../src/protocol/relay';
import { ConsumerSession, type ConsumerStats } from './ConsumerSession';
import { ConflictError, LimitExceededError, NotFoundError } from './errors';
import { Ingest, type IngestStats } from './Ingest';
import type { RoomDirectory, RoomKey } from './RoomDirectory';
import { SessionRequests } from './SessionRequests';

/** How a session reaches the socket that holds it now. */
export interface SessionHooks {
  /** Sends an answer, or a notification (CONSUMER_ICE_STATE, LAYERS_WANTED). */
  send: (message: RelayResponse | RelayNotification) => void;
  /** Ends the connection (1011) when its media is gone; the client reconnects and ingests again. */
  lost: (reason: string) => void;
}

export interface RelaySessionOptions {
  /** Unique per session: names its provisional room. */
  number: number;
  /** The socket that opened it. */
  hooks: SessionHooks;
  /** Set for a resumable session (AUTH `resumable`): the id its client resumes it with. */
  resumeId?: string;
  rooms: RoomDirectory;
  routerCapabilities: types.RtpCapabilities;
  transportOptions: types.WebRtcTransportOptions;
  limits: RelayLimits;
  /** Takes one of the user's ingest slots (throws LimitExceededError when they hold all); returns its release. */
  takeIngestSlot: () => () => void;
  /** Takes one of the address's transport slots (throws LimitExceededError when it holds all); returns its release. */
  takeTransportSlot: () => () => void;
  /** Counts the session in its room (throws LimitExceededError when the relay serves all the rooms it may); returns its release. */
  bindRoom: (roomAddress: string) => () => void;
  /** Gives back the user's connection slot, which the session holds for as long as it lives, whichever socket holds it. */
  releaseConnectionSlot: () => void;
}

type SessionMethod = Exclude<RelayMethod, 'AUTH'>;
type Handlers = { [M in SessionMethod]: (params: RelayParams<M>) => Promise<RelayResult<M>> };

/** Counts of what one connection holds, for stats. */
export interface RelaySessionStats {
  room: string | undefined;
  ingests: IngestStats[];
  consumerSessions: number;
  consumers: ConsumerStats[];
}

/**
 * What one authenticated relay connection has made — its ingests and consumer sessions — and
 * the methods that make and close them. Everything is closed by DISPOSE / REMOVE_CONSUMER or,
 * all at once, by `close()` when the socket closes — or, for a resumable session whose socket
 * dropped, once no new socket took it over (`detach`, `attach`; ResumableSessions).
 */
export class RelaySession {
  private readonly ingests = new Map<string, Ingest>();
  private readonly consumers = new Map<string, ConsumerSession>();
  /** The spatial layer last sent in LAYERS_WANTED, per ingest. */
  private readonly layersWanted = new Map<Ingest, number>();
  private roomAddress: string | undefined;
  private releaseRoom: (() => void) | undefined;
  private room: RoomKey;
  private closed = false;
  /** The socket holding it; none while a resumable session waits for its client. */
  private hooks: SessionHooks | undefined;
  /** Notifications sent while no socket held it, for the one that resumes it. */
  private readonly held: RelayNotification[] = [];
  /** Requests run one at a time, in order, whichever of its sockets they came on. */
  private queue: Promise<void> = Promise.resolve();
  /** A resumable session's requests by id, so that one asked again is answered once. */
  private readonly requests: SessionRequests | undefined;

  private readonly handlers: Handlers = {
    INGEST: async ({ id, sdp }) => {
      const { answer } = await this.makeIngest(id, () => Ingest.fromOffer(id, sdp, this.placement()));
      return { sdp: answer };
    },
    CREATE_CONSUMER: async ({ id, peerId, roomAddress, roomId, source, audio, video }) => {
      this.bind(roomAddress);
      const ingest = this.ingests.get(source);
      if (!ingest) throw new NotFoundError(`no stream "${source}" is ingested on this connection`);
      // The same id again is the retry after `failed`: it replaces the consumer.
      this.closeConsumer(id);
      if (this.consumers.size >= this.options.limits.consumersPerConnection) {
        throw new LimitExceededError(`a connection has at most ${this.options.limits.consumersPerConnection} consumers`);
      }
      const session = await this.withSlots([this.options.takeTransportSlot], () => ConsumerSession.create({
        id,
        peerId,
        roomId,
        source: ingest,
        kinds: [...(audio ? (['audio'] as const) : []), ...(video ? (['video'] as const) : [])],
        rooms: this.options.rooms,
        room: this.room,
        transportOptions: this.options.transportOptions,
        connectTimeoutMs: this.options.limits.consumerConnectTimeoutMs,
      }), (made) => made.transport);
      this.adoptConsumer(session);
      return { sdp: session.offer };
    },
    CLAIM_CONSUMER: async ({ id, peerId }) => {
      this.consumer(id).claim(peerId);
      return {};
    },
    START_CONSUMER: async ({ id, sdp }) => {
      await this.consumer(id).start(sdp);
      return {};
    },
    REMOVE_CONSUMER: async ({ id }) => ({ closed: this.closeConsumer(id) }),
    SET_CONSUMER_PROFILE: async ({ id, profile }) => {
      await this.consumer(id).setProfile(profile);
      return { profile };
    },
    DISPOSE: async ({ id }) => ({ closed: this.dispose(id) }),
    GET_ROUTER_CAPABILITIES: async ({ roomAddress }) => {
      this.bind(roomAddress);
      // mediasoup's header-extension URI type lists one more than mediasoup-client's (toffset); Device.load takes it.
      return { rtpCapabilities: this.options.routerCapabilities as RelayResult<'GET_ROUTER_CAPABILITIES'>['rtpCapabilities'] };
    },
    CREATE_INGEST_TRANSPORT: async ({ id, roomAddress }) => {
      this.bind(roomAddress);
      const { ingest } = await this.makeIngest(id, async () => ({ ingest: await Ingest.forClient(id, this.placement()) }));
      return ingest.transportParameters();
    },
    CONNECT_INGEST_TRANSPORT: async ({ id, dtlsParameters }) => {
      await this.ingest(id).connect(dtlsParameters as types.DtlsParameters);
      return {};
    },
    PRODUCE: async ({ id, kind, rtpParameters, appData }) => {
      const trackId = typeof appData.trackId === 'string' ? appData.trackId.slice(0, this.options.limits.idLength) : undefined;
      const ingest = this.ingest(id);
      const producerId = await ingest.produce(kind, rtpParameters as types.RtpParameters, trackId, appData);
      // A new video sends every layer until it is told otherwise (at once, when it has consumers already).
      if (kind === 'video') {
        this.layersWanted.delete(ingest);
        this.sendLayersWanted(ingest);
      }
      return { producerId };
    },
    PING: async () => ({}),
  };

  constructor(private readonly options: RelaySessionOptions) {
    this.room = `connection:${options.number}`;
    this.hooks = options.hooks;
    if (options.resumeId !== undefined) this.requests = new SessionRequests(options.limits.answersKept);
  }

  get resumeId(): string | undefined {
    return this.options.resumeId;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Its socket dropped: notifications are kept for the client's next socket (at most `notificationsKept`). */
  detach(): void {
    this.hooks = undefined;
  }

  /** A socket holds it (again): what was sent meanwhile goes first. */
  attach(hooks: SessionHooks): void {
    this.hooks = hooks;
    for (const notification of this.held.splice(0)) hooks.send(notification);
  }

  /**
   * Runs request `id` after the session's others (`respond` makes its answer, errors included) and
   * sends the answer to the socket holding the session then; with none, a resumable session keeps
   * it for the request asked again. A request asked again is not run again: it gets the answer
   * kept, or the one still coming.
   */
  async serve(id: RelayRequestId, respond: () => Promise<RelayResponse>): Promise<void> {
    const admission = this.requests?.admit(id) ?? { run: true };
    if (!admission.run) {
      if (admission.answer !== undefined) this.hooks?.send(admission.answer);
      return;
    }
    const answered = this.queue.then(async () => {
      const answer = await respond();
      this.requests?.settle(id, answer);
      this.hooks?.send(answer);
    });
    this.queue = answered;
    await answered;
  }

  call<M extends SessionMethod>(method: M, params: RelayParams<M>): Promise<RelayResult<M>> {
    return (this.handlers[method] as (params: RelayParams<M>) => Promise<RelayResult<M>>)(params);
  }

  /** The socket closed (or its client did not come back): everything this connection made goes. */
  close(): void {
    this.closed = true;
    this.hooks = undefined;
    this.held.length = 0;
    for (const session of this.consumers.values()) session.close();
    for (const ingest of this.ingests.values()) ingest.close();
    this.consumers.clear();
    this.ingests.clear();
    this.releaseRoom?.();
    this.options.releaseConnectionSlot();
  }

  stats(): RelaySessionStats {
    return {
      room: this.roomAddress,
      ingests: [...this.ingests.values()].map((ingest) => ingest.stats()),
      consumerSessions: this.consumers.size,
      consumers: [...this.consumers.values()].flatMap((session) => session.stats()),
    };
  }

  private placement(): Parameters<typeof Ingest.forClient>[1] {
    return {
      capabilities: this.options.routerCapabilities,
      rooms: this.options.rooms,
      room: this.room,
      transportOptions: this.options.transportOptions,
      maxProducers: this.options.limits.producersPerIngest,
    };
  }

  /** A connection serves one room; INGEST's provisional room joins it at the first room-naming call. */
  private bind(roomAddress: string): void {
    if (this.roomAddress === roomAddress) return;
    if (this.roomAddress !== undefined) {
      throw new ConflictError(`this connection serves room "${this.roomAddress}"; use another connection for "${roomAddress}"`);
    }
    this.releaseRoom = this.options.bindRoom(roomAddress);
    const named: RoomKey = `room:${roomAddress}`;
    this.options.rooms.merge(this.room, named);
    this.room = named;
    this.roomAddress = roomAddress;
  }

  /**
   * Makes and keeps a new ingest within the per-connection, per-user and per-address bounds (the
   * slots: `withSlots`).
   */
  private async makeIngest<T extends { ingest: Ingest }>(id: string, make: () => Promise<T>): Promise<T> {
    if (this.ingests.has(id)) throw new ConflictError(`stream "${id}" is already ingested; DISPOSE it first`);
    if (this.ingests.size >= this.options.limits.ingestsPerConnection) {
      throw new LimitExceededError(`a connection ingests at most ${this.options.limits.ingestsPerConnection} streams`);
    }
    const made = await this.withSlots([this.options.takeIngestSlot, this.options.takeTransportSlot], make, ({ ingest }) => ingest.transport);
    this.adoptIngest(made.ingest);
    return made;
  }

  /**
   * Takes the slots before the media server is asked (connections of one user or address run
   * concurrently) and gives them back when what it made closes its transport, however that
   * happens, or at once should making it fail.
   */
  private async withSlots<T>(takes: readonly (() => () => void)[], make: () => Promise<T>, transportOf: (made: T) => types.Transport): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const take of takes) releases.push(take());
      const made = await make();
      for (const release of releases) transportOf(made).observer.once('close', release);
      return made;
    } catch (error) {
      for (const release of releases) release();
      throw error;
    }
  }

  private ingest(id: string): Ingest {
    const ingest = this.ingests.get(id);
    if (!ingest) throw new NotFoundError(`no stream "${id}" is ingested on this connection`);
    return ingest;
  }

  private consumer(id: string): ConsumerSession {
    const session = this.consumers.get(id);
    if (!session) throw new NotFoundError(`no consumer "${id}" on this connection`);
    return session;
  }

  /** Keeps what a request made — unless the socket closed while it was being made. */
  private adoptIngest(ingest: Ingest): void {
    if (this.closed) {
      ingest.close();
      return;
    }
    this.ingests.set(ingest.id, ingest);
    ingest.transport.observer.once('close', () => {
      // DISPOSE and close() forget an ingest before closing it: one still here was lost.
      if (this.closed || this.ingests.get(ingest.id) !== ingest) return;
      this.ingests.delete(ingest.id);
      this.lost(`stream "${ingest.id}" lost its media server`);
    });
  }

  private adoptConsumer(session: ConsumerSession): void {
    if (this.closed) {
      session.close();
      return;
    }
    this.consumers.set(session.id, session);
    session.on('icestate', (iceConnectionState) => this.notify({ jsonrpc: '2.0', method: CONSUMER_ICE_STATE, params: { id: session.id, iceConnectionState } }));
    session.on('wanted', () => this.sendLayersWanted(session.source));
    session.once('lost', () => {
      if (this.consumers.get(session.id) !== session) return;
      this.consumers.delete(session.id);
      this.sendLayersWanted(session.source);
    });
    this.sendLayersWanted(session.source);
  }

  private closeConsumer(id: string): boolean {
    const session = this.consumers.get(id);
    if (!session) return false;
    this.consumers.delete(id);
    session.close();
    this.sendLayersWanted(session.source);
    return true;
  }

  /**
   * LAYERS_WANTED to the sender of a simulcast video it produced itself (PRODUCE; an INGEST's
   * 1.30.3 sender would not know it), when the highest layer its consumers want has changed: it
   * need not encode the layers above. A video sends every layer until its first consumer; a layer
   * is given up only once every consumer's receiver has said what it needs (or had the grace to),
   * so that a call moving to the relay or a newcomer does not switch the sender's layers off and
   * straight on again; one is asked for again at once. The low layer is always wanted, so that a
   * consumer that comes or asks again has a layer to start on at once.
   */
  private sendLayersWanted(ingest: Ingest): void {
    if (this.closed || ingest.madeBy !== 'client' || this.ingests.get(ingest.id) !== ingest) return;
    const layers = ingest.track('video')?.producer.rtpParameters.encodings?.length ?? 0;
    if (layers < 2) return;
    const consumers = [...this.consumers.values()].filter((session) => session.source === ingest);
    const sent = this.layersWanted.get(ingest);
    if (consumers.length === 0 && sent === undefined) return;
    const spatialLayer = Math.max(0, ...consumers.map((session) => (session.wantUnsettled ? 0 : (session.wantedVideoLayer ?? 0))));
    if (spatialLayer === sent) return;
    if (spatialLayer < (sent ?? layers - 1) && consumers.some((session) => session.wantUnsettled)) return;
    this.layersWanted.set(ingest, spatialLayer);
    this.notify({ jsonrpc: '2.0', method: LAYERS_WANTED, params: { id: ingest.id, spatialLayer } });
  }

  private notify(notification: RelayNotification): void {
    if (this.hooks) {
      this.hooks.send(notification);
      return;
    }
    if (this.held.length < this.options.limits.notificationsKept) this.held.push(notification);
    else this.close();
  }

  /** Its media is gone: the socket holding it is ended; with none, the session ends here. */
  private lost(reason: string): void {
    if (this.hooks) this.hooks.lost(reason);
    else this.close();
  }

  private dispose(id: string): boolean {
    const ingest = this.ingests.get(id);
    if (!ingest) return false;
    for (const session of [...this.consumers.values()]) if (session.source === ingest) this.closeConsumer(session.id);
    this.ingests.delete(id);
    this.layersWanted.delete(ingest);
    ingest.close();
    return true;
  }
}
