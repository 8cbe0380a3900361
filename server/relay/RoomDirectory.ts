import type { types } from 'mediasoup';
import { MediaError } from './errors';
import type { WorkerPool } from './WorkerPool';

export interface RoomDirectoryOptions {
  pool: WorkerPool;
  mediaCodecs: types.RouterRtpCodecCapability[];
  /** A room grows onto another worker once its routers' workers each carry this load. */
  spillLoad: number;
}

/** A room's key: a named room, or the provisional room of a connection not yet bound to one. */
export type RoomKey = `room:${string}` | `connection:${number}`;

export interface RoomSummary {
  key: RoomKey;
  routerIds: string[];
}

/**
 * Routers per room, placed on workers by load (DESIGN.md "Media paths"). A room starts with one
 * router on the least-loaded worker; when every worker it uses carries `spillLoad`, the next
 * transport goes to a new router on the least-loaded worker, and producers reach it through
 * `router.pipeToRouter`. A router closes with its last relay transport; a room ends with its last
 * router.
 */
export class RoomDirectory {
  private readonly rooms = new Map<RoomKey, Set<types.Router>>();
  private readonly roomOf = new Map<types.Router, RoomKey>();
  private readonly workerOf = new Map<types.Router, types.Worker>();
  /** Relay transports on each router, plus placements in progress. */
  private readonly holds = new Map<types.Router, number>();
  private readonly creating = new Map<string, Promise<types.Router>>();
  /** Producer → routers it is piped to (or being piped to). */
  private readonly pipes = new Map<string, Map<types.Router, Promise<void>>>();

  constructor(private readonly options: RoomDirectoryOptions) {}

  /**
   * Creates a transport with `create` on a router of the room, preferring `preferred` (where the
   * producers it will consume live) while its worker has room. The router is held until the
   * transport closes.
   */
  async placeTransport<T extends types.Transport>(
    key: RoomKey,
    preferred: types.Router | undefined,
    create: (router: types.Router) => Promise<T>,
  ): Promise<{ router: types.Router; transport: T }> {
    const router = await this.chooseAndHoldRouter(key, preferred);
    let transport: T;
    try {
      transport = await create(router);
    } catch (error) {
      this.hold(router, -1);
      throw error;
    }
    transport.observer.once('close', () => this.hold(router, -1));
    return { router, transport };
  }

  /** Makes `producer` (living on `from`) consumable on `to`; a no-op when they are the same router. */
  async pipe(producer: types.Producer, from: types.Router, to: types.Router): Promise<void> {
    if (from === to) return;
    let targets = this.pipes.get(producer.id);
    if (!targets) {
      targets = new Map();
      this.pipes.set(producer.id, targets);
      producer.observer.once('close', () => this.pipes.delete(producer.id));
    }
    let piping = targets.get(to);
    if (!piping) {
      // keepId: the pipe producer on `to` has the producer's id, so consumers there name it the same way.
      piping = from.pipeToRouter({ producerId: producer.id, router: to, keepId: true }).then(() => undefined);
      targets.set(to, piping);
      piping.catch(() => targets.delete(to));
    }
    await piping;
  }

  /** Binds a provisional room to a named one: its routers join the named room's. */
  merge(from: RoomKey, into: RoomKey): void {
    const routers = this.rooms.get(from);
    if (!routers || from === into) return;
    this.rooms.delete(from);
    const target = this.rooms.get(into) ?? new Set();
    for (const router of routers) {
      target.add(router);
      this.roomOf.set(router, into);
    }
    this.rooms.set(into, target);
  }

  summaries(): RoomSummary[] {
    return [...this.rooms].map(([key, routers]) => ({ key, routerIds: [...routers].map((router) => router.id) }));
  }

  routers(): types.Router[] {
    return [...this.roomOf.keys()];
  }

  workerOfRouter(router: types.Router): types.Worker | undefined {
    return this.workerOf.get(router);
  }

  /** Picks the router (holding it at once, so that it cannot close under the caller). */
  private async chooseAndHoldRouter(key: RoomKey, preferred: types.Router | undefined): Promise<types.Router> {
    const router = this.existingRouter(key, preferred) ?? (await this.newRouter(key));
    if (router.closed) throw new MediaError('the media router closed; try again');
    this.hold(router, 1);
    return router;
  }

  private existingRouter(key: RoomKey, preferred: types.Router | undefined): types.Router | undefined {
    const { pool, spillLoad } = this.options;
    const load = (router: types.Router): number => pool.loadOf(this.workerOf.get(router)!);
    const routers = [...(this.rooms.get(key) ?? [])].filter((router) => !router.closed);
    if (preferred && routers.includes(preferred) && load(preferred) < spillLoad) return preferred;
    const best = routers.reduce<types.Router | undefined>((a, b) => (!a || load(b) < load(a) ? b : a), undefined);
    if (best && load(best) < spillLoad) return best;
    const worker = pool.leastLoaded();
    const onWorker = routers.find((router) => this.workerOf.get(router) === worker);
    if (onWorker) return onWorker;
    // Growing onto another worker only pays when it carries less than the room's best router.
    if (best && (!worker || load(best) <= pool.loadOf(worker))) return best;
    return undefined;
  }

  /** A new router for the room on the least-loaded worker; concurrent callers share one. */
  private newRouter(key: RoomKey): Promise<types.Router> {
    const worker = this.options.pool.leastLoaded();
    if (!worker) return Promise.reject(new MediaError('no media worker is running'));
    const creationKey = `${key}\n${worker.pid}`;
    let creating = this.creating.get(creationKey);
    if (!creating) {
      creating = worker.createRouter({ mediaCodecs: this.options.mediaCodecs }).then((router) => {
        // Looked up now, not before the await: the room may have been created or merged meanwhile.
        const routers = this.rooms.get(key) ?? new Set();
        routers.add(router);
        this.rooms.set(key, routers);
        this.roomOf.set(router, key);
        this.workerOf.set(router, worker);
        this.holds.set(router, 0);
        router.observer.once('close', () => this.forget(router));
        return router;
      });
      this.creating.set(creationKey, creating);
      void creating.finally(() => this.creating.delete(creationKey)).catch(() => undefined);
    }
    return creating;
  }

  private hold(router: types.Router, delta: number): void {
    // A router already forgotten (closed with its worker) has nothing left to count.
    if (!this.holds.has(router)) return;
    const holds = this.holds.get(router)! + delta;
    this.holds.set(router, holds);
    if (holds <= 0 && !router.closed) router.close();
  }

  private forget(router: types.Router): void {
    const key = this.roomOf.get(router);
    this.roomOf.delete(router);
    this.workerOf.delete(router);
    this.holds.delete(router);
    for (const targets of this.pipes.values()) targets.delete(router);
    if (!key) return;
    const routers = this.rooms.get(key);
    routers?.delete(router);
    if (routers?.size === 0) this.rooms.delete(key);
  }
}
