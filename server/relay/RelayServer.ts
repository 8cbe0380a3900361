import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ortc, type types } from 'mediasoup';
import { WebSocketServer } from 'ws';
import { RELAY_TOKEN_AUDIENCE, type RelayLimits } from '../../src/protocol/relay';
import { TokenError, verifyToken } from '../auth/jwt';
import type { ConsumerStats } from './ConsumerSession';
import type { IngestStats } from './Ingest';
import { LimitExceededError, NotAuthenticatedError } from './errors';
import { ROUTER_MEDIA_CODECS } from './mediaCodecs';
import { closeWithin, RelayConnection } from './RelayConnection';
import { relayClientAddress } from './host/clientAddress';
import { Quota } from './Quota';
import { closeAsUnavailable } from './unavailableUpgrade';
import { RelaySession } from './RelaySession';
import { ResumableSessions } from './ResumableSessions';
import { RoomBindings } from './RoomBindings';
import { RoomDirectory, type RoomSummary } from './RoomDirectory';
import { WorkerPool } from './WorkerPool';

export interface RelayServerOptions {
  /** Verifies AUTH tokens (the config service signs `sfuServer.password` with it). */
  tokenSecret: string;
  workers: number;
  workerBin: string;
  /** Where WebRtcTransports listen, and the address their candidates announce (if different). */
  listenIp: string;
  announcedAddress: string | undefined;
  rtcMinPort: number;
  rtcMaxPort: number;
  spillLoad: number;
  limits: RelayLimits;
  log: (line: string) => void;
  /** Milliseconds clock for the request-rate buckets; monotonic by default (TokenBucket). */
  now?: () => number;
}

/** What the relay carries now, from its own bookkeeping (tests and benchmarks read this). */
export interface RelayStats {
  connections: number;
  authenticated: number;
  workers: { pid: number; load: number }[];
  rooms: RoomSummary[];
  /** Relay-made transports: one per ingest and one per consumer session (pipes not counted). */
  transports: number;
  producers: number;
  consumers: number;
  ingestDetails: IngestStats[];
  consumerDetails: ConsumerStats[];
}

/** mediasoup's own view, worker by worker. */
export interface RelayDump {
  workers: { pid: number; dump: types.WorkerDump; routers: types.RouterDump[] }[];
}

/**
 * The media relay (DESIGN.md "Media paths"): mediasoup workers, a router per room, and a
 * websocket endpoint (ws in noServer mode, fed by the gateway's `/relay` upgrades) speaking the
 * JSON-RPC vocabulary of src/protocol/relay.ts.
 */
export class RelayServer {
  private readonly websockets: WebSocketServer;
  private readonly connections = new Set<RelayConnection>();
  private readonly rooms: RoomDirectory;
  private readonly routerCapabilities: types.RtpCapabilities;
  private readonly transportOptions: types.WebRtcTransportOptions;
  private readonly pingTimer: NodeJS.Timeout;
  private readonly connectionsByUser: Quota;
  private readonly connectionsByAddress: Quota;
  private readonly ingestsByUser: Quota;
  private readonly transportsByAddress: Quota;
  private readonly resumable: ResumableSessions;
  private readonly roomBindings: RoomBindings;
  private connectionNumber = 0;
  private stopped = false;

  private constructor(
    private readonly options: RelayServerOptions,
    private readonly pool: WorkerPool,
  ) {
    // ws closes a socket (1009) whose message passes closeAboveBytes; smaller oversize ones get an error.
    this.websockets = new WebSocketServer({ noServer: true, maxPayload: options.limits.closeAboveBytes, perMessageDeflate: false });
    this.rooms = new RoomDirectory({ pool, mediaCodecs: ROUTER_MEDIA_CODECS, spillLoad: options.spillLoad });
    // Every router is made from the same codecs, so all share these capabilities.
    this.routerCapabilities = ortc.generateRouterRtpCapabilities(ROUTER_MEDIA_CODECS);
    this.transportOptions = {
      listenInfos: [
        {
          protocol: 'udp',
          ip: options.listenIp,
          ...(options.announcedAddress ? { announcedAddress: options.announcedAddress } : {}),
          portRange: { min: options.rtcMinPort, max: options.rtcMaxPort },
        },
      ],
      initialAvailableOutgoingBitrate: 1_000_000,
    };
    this.pingTimer = setInterval(() => {
      for (const connection of this.connections) connection.ping();
    }, options.limits.pingIntervalMs);
    this.pingTimer.unref();
    this.connectionsByUser = new Quota(options.limits.connectionsPerUser, 'relay connections for this user');
    this.connectionsByAddress = new Quota(options.limits.connectionsPerAddress, 'relay connections from this address');
    this.ingestsByUser = new Quota(options.limits.ingestsPerUser, 'streams ingested by this user');
    this.transportsByAddress = new Quota(options.limits.transportsPerAddress, 'media transports from this address');
    this.resumable = new ResumableSessions(options.limits.resumeGraceMs);
    this.roomBindings = new RoomBindings(options.limits.roomsPerRelay);
  }

  static async start(options: RelayServerOptions): Promise<RelayServer> {
    const pool = await WorkerPool.start({ size: options.workers, workerBin: options.workerBin, log: options.log });
    return new RelayServer(options, pool);
  }

  /** The gateway hands every `/relay` upgrade here. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.stopped) {
      closeAsUnavailable(request, socket, head);
      return;
    }
    const address = relayClientAddress(request, this.options.tokenSecret);
    this.websockets.handleUpgrade(request, socket, head, (websocket) => {
      let releaseAddress: () => void;
      try {
        releaseAddress = this.connectionsByAddress.take(address);
      } catch (error) {
        // Said in JSON-RPC (id null: no request is being answered), then closed.
        const { rpcCode: code, message } = error as LimitExceededError;
        // No RelayConnection listens to this socket: what it may still send (an oversized frame) errors here.
        websocket.on('error', () => websocket.terminate());
        websocket.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
        void closeWithin(websocket, 1008, message);
        return;
      }
      const connection = new RelayConnection(websocket, {
        limits: this.options.limits,
        now: this.options.now,
        authenticate: (token) => this.authenticate(token),
        openSession: (user, hooks, resumable, holder) => {
          // The user's connection slot is the session's, not the socket's: a socket whose AUTH
          // failed holds none, one that resumes a session takes none more, and a session waiting
          // for its client keeps its own.
          const releaseConnectionSlot = this.connectionsByUser.take(user);
          const session = new RelaySession({
            hooks,
            ...(resumable ? { resumeId: this.resumable.newId() } : {}),
            number: ++this.connectionNumber,
            rooms: this.rooms,
            routerCapabilities: this.routerCapabilities,
            transportOptions: this.transportOptions,
            limits: this.options.limits,
            takeIngestSlot: () => this.ingestsByUser.take(user),
            // The address that opened the session: a session resumed from another keeps counting there.
            takeTransportSlot: () => this.transportsByAddress.take(address),
            bindRoom: (roomAddress) => this.roomBindings.bind(roomAddress),
            releaseConnectionSlot,
          });
          this.resumable.add(session, user, holder);
          return session;
        },
        resumeSession: (id, user, holder) => this.resumable.take(id, user, holder),
        // A relay stopping (close, kill) keeps nothing for later.
        releaseSession: (session, holder, dropped) => this.resumable.release(session, holder, dropped && !this.stopped),
        log: this.options.log,
      });
      this.connections.add(connection);
      websocket.once('close', () => {
        this.connections.delete(connection);
        releaseAddress();
      });
    });
  }

  get workers(): types.Worker[] {
    return this.pool.workers;
  }

  /** The mediasoup objects a worker carries (WorkerPool's placement load). */
  loadOf(worker: types.Worker): number {
    return this.pool.loadOf(worker);
  }

  /** Live routers, for `router.dump()`. */
  routers(): types.Router[] {
    return this.rooms.routers();
  }

  stats(): RelayStats {
    const sessions = this.sessions().map((session) => session.stats());
    const consumerDetails = sessions.flatMap((session) => session.consumers);
    const ingestDetails = sessions.flatMap((session) => session.ingests);
    return {
      connections: this.connections.size,
      authenticated: [...this.connections].filter((connection) => connection.authenticatedUser !== undefined).length,
      workers: this.pool.workers.map((worker) => ({ pid: worker.pid, load: this.pool.loadOf(worker) })),
      rooms: this.rooms.summaries(),
      transports: ingestDetails.length + sessions.reduce((sum, session) => sum + session.consumerSessions, 0),
      producers: ingestDetails.reduce((sum, ingest) => sum + ingest.producers.length, 0),
      consumers: consumerDetails.length,
      ingestDetails,
      consumerDetails,
    };
  }

  /** The rooms its connections are bound to (a connection names its room before any router is made for it): at most roomsPerRelay. */
  roomAddresses(): string[] {
    return this.roomBindings.roomAddresses();
  }

  async dump(): Promise<RelayDump> {
    const routers = this.rooms.routers();
    return {
      workers: await Promise.all(
        this.pool.workers.map(async (worker) => ({
          pid: worker.pid,
          dump: await worker.dump(),
          routers: await Promise.all(routers.filter((router) => this.rooms.workerOfRouter(router) === worker).map((router) => router.dump())),
        })),
      ),
    };
  }

  /** Closes every connection (1001, dropped if its peer does not answer within CLOSE_GRACE_MS) and every worker. */
  async close(): Promise<void> {
    this.stop();
    await Promise.all([...this.connections].map(({ socket }) => closeWithin(socket, 1001, 'relay shutting down')));
    this.pool.close();
  }

  /** Fault injection: the relay dies as in a crash — workers SIGKILLed, sockets dropped without a close frame. */
  async kill(): Promise<void> {
    this.stop();
    for (const connection of this.connections) connection.socket.terminate();
    await this.pool.kill();
  }

  private stop(): void {
    this.stopped = true;
    clearInterval(this.pingTimer);
    this.resumable.closeAll();
  }

  /** Every live session: its socket's, or waiting for its client to resume it. */
  private sessions(): RelaySession[] {
    return [...[...this.connections].flatMap((connection) => connection.relaySession ?? []), ...this.resumable.waiting()];
  }

  private authenticate(token: string): string {
    let claims;
    try {
      claims = verifyToken(this.options.tokenSecret, token);
    } catch (error) {
      throw new NotAuthenticatedError(`AUTH refused: ${error instanceof TokenError ? error.message : 'unreadable token'}`);
    }
    if (claims.aud !== RELAY_TOKEN_AUDIENCE) throw new NotAuthenticatedError('AUTH refused: not a relay token');
    if (typeof claims.sub !== 'string' || claims.sub.length === 0) throw new NotAuthenticatedError('AUTH refused: the token names no user');
    return claims.sub;
  }
}
