import { PATH_CHANGE } from '../../protocol/clientDefaults';
import type { Clock } from '../../common/clock';
import { TypedEmitter } from '../../common/TypedEmitter';
import type { PathName } from './MediaPath';

/*
 * Continuity across a change of media path (mesh ↔ relay): one rule, with its times counted from
 * the moment the new path connects (PATH_CHANGE). The new path is up and decoding before the old
 * one stops:
 * - the receiver (DecodeWatch, used by receive/ReceivedVideo) keeps showing the old session's media
 *   until the new session decodes, or at the latest until PATH_CHANGE.decodeWaitMs have passed;
 *   once it decodes it tells the sender so, on the new session (a Jingle session-info `active`);
 * - the sender (PathHandover, used by the Call and both paths) keeps the old path running until the
 *   new one has been connected for PATH_CHANGE.graceMs and its receiver has said it decodes — on a
 *   loaded machine the first key frame may take longer than the grace — or, from a receiver that
 *   never says so, until PATH_CHANGE.decodeWaitMs have passed.
 * The tile itself (ui/call/TileVideo) only bridges its new <video> element's start-up: it shows the
 * new element at its first presented frame and has no timer of its own.
 */

export interface PathHandoverEvents {
  /** A path is now established (see PathHandover): what it replaces may go. */
  settled: [path: PathName, key: string];
}

/** One connected (path, plan key): which of its waits have passed. */
interface Connection {
  graceOver: boolean;
  decodeWaitOver: boolean;
  settled: boolean;
  readonly timers: unknown[];
}

/**
 * When each (path, plan key) connected and whether its receiver said it decodes, on the injected
 * clock: a path is *established* once it has stayed connected for the grace and its receiver has
 * said it decodes it — or, without that word, once it has stayed connected for the decode wait.
 * Switching mesh → relay ends a mesh session only once its relay consumer is established, and relay
 * → mesh removes a consumer only once the new mesh session is (SPEC §4's switch, without frozen video).
 */
export class PathHandover extends TypedEmitter<PathHandoverEvents> {
  private readonly connections = new Map<string, Connection>();
  /** Paths whose receiver said it decodes them (kept from before the sender sees them connect: the word may come first). */
  private readonly decoded = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number = PATH_CHANGE.graceMs,
    private readonly decodeWaitMs: number = PATH_CHANGE.decodeWaitMs,
  ) {
    super();
  }

  /** The path to a key connected (again): its grace and decode wait start unless they run already. */
  connected(path: PathName, key: string): void {
    const id = `${path}\n${key}`;
    if (this.connections.has(id)) return;
    // Established when a timer fires, not by comparing clock readings: a timer may fire a
    // millisecond before the wall clock says its delay has passed, and nothing would ask again.
    const entry: Connection = { graceOver: false, decodeWaitOver: false, settled: false, timers: [] };
    entry.timers.push(
      this.clock.setTimeout(() => {
        entry.graceOver = true;
        this.settle(path, key);
      }, this.graceMs),
      this.clock.setTimeout(() => {
        entry.decodeWaitOver = true;
        this.settle(path, key);
      }, this.decodeWaitMs),
    );
    this.connections.set(id, entry);
  }

  /** The receiver of the path to a key said it decodes it (its session-info `active`). */
  decoding(path: PathName, key: string): void {
    this.decoded.add(`${path}\n${key}`);
    this.settle(path, key);
  }

  /**
   * The path to a key is not connected (any more). A connection that is lost starts over, its
   * receiver's word included; before the first connection (the states on the way to it) the word
   * is kept, since it may come before the sender sees its side connect.
   */
  lost(path: PathName, key: string): void {
    const id = `${path}\n${key}`;
    const entry = this.connections.get(id);
    if (!entry) return;
    for (const timer of entry.timers) this.clock.clearTimeout(timer);
    this.connections.delete(id);
    this.decoded.delete(id);
  }

  /**
   * The path to a key is gone (its session ended, its consumer dropped): everything is forgotten,
   * the receiver's word included, which would otherwise pass to the next session of that key
   * before it decodes anything.
   */
  ended(path: PathName, key: string): void {
    this.lost(path, key);
    this.decoded.delete(`${path}\n${key}`);
  }

  established(path: PathName, key: string): boolean {
    const id = `${path}\n${key}`;
    const entry = this.connections.get(id);
    return entry !== undefined && entry.graceOver && (this.decoded.has(id) || entry.decodeWaitOver);
  }

  clear(): void {
    for (const entry of this.connections.values()) for (const timer of entry.timers) this.clock.clearTimeout(timer);
    this.connections.clear();
    this.decoded.clear();
  }

  /** Says `settled` once, when the path becomes established. */
  private settle(path: PathName, key: string): void {
    const entry = this.connections.get(`${path}\n${key}`);
    if (!entry || entry.settled || !this.established(path, key)) return;
    entry.settled = true;
    for (const timer of entry.timers) this.clock.clearTimeout(timer);
    this.emit('settled', path, key);
  }
}

/** The inbound-rtp counter that says media arrives: decoded frames for video, packets for audio. */
async function arrivedCount(receiver: RTCRtpReceiver): Promise<number> {
  let count = 0;
  (await receiver.getStats()).forEach((report: { type?: string; kind?: string; framesDecoded?: number; packetsReceived?: number }) => {
    if (report.type !== 'inbound-rtp') return;
    count += (report.kind === 'video' ? report.framesDecoded : report.packetsReceived) ?? 0;
  });
  return count;
}

/** One receiver's counter as checked: since when it has risen without a gap longer than PATH_CHANGE.frameGapMs. */
interface Arrival {
  count: number;
  lastRiseAt: number;
  steadySince: number;
}

/**
 * The receiver's side: waits until a session that takes over from another decodes steadily — its
 * video has decoded frames for PATH_CHANGE.steadyMs, never PATH_CHANGE.frameGapMs without one (or,
 * without video, its audio has had packets so) — checked every PATH_CHANGE.decodeCheckIntervalMs.
 * A new path's first frames can stop again at once (a relay's simulcast layer the sender drops
 * while its bandwidth estimate settles): shown then, the tile would freeze while the old path still
 * ran. Once the session has been connected for PATH_CHANGE.decodeWaitMs it stops waiting (its
 * predecessor may be the broken one; the sender stops that by then too). Then `ready` runs once,
 * unless `cancel` came first, saying whether the session was seen decoding (the receiver then tells
 * its sender so).
 */
export class DecodeWatch {
  private readonly poll: unknown;
  private limit: unknown;
  private checking = false;
  private done = false;
  private readonly arrivals = new Map<RTCRtpReceiver, Arrival>();

  constructor(
    private readonly clock: Clock,
    private readonly receivers: () => readonly RTCRtpReceiver[],
    private readonly ready: (decoding: boolean) => void,
  ) {
    this.poll = clock.setInterval(() => void this.check(), PATH_CHANGE.decodeCheckIntervalMs);
  }

  /** The session connected: the wait's limit starts (once). */
  connected(): void {
    if (this.done || this.limit !== undefined) return;
    this.limit = this.clock.setTimeout(() => this.finish(), PATH_CHANGE.decodeWaitMs);
  }

  cancel(): void {
    this.done = true;
    this.clock.clearInterval(this.poll);
    this.clock.clearTimeout(this.limit);
  }

  /** Ends the wait now, without having seen the session decode (its limit passed, or the old session ended: the new one is all there is). */
  finish(decoding = false): void {
    if (this.done) return;
    this.cancel();
    this.ready(decoding);
  }

  private async check(): Promise<void> {
    if (this.done || this.checking) return;
    this.checking = true;
    try {
      const receivers = this.receivers();
      const video = receivers.filter((receiver) => receiver.track.kind === 'video');
      const watched = video.length > 0 ? video : receivers;
      const steady = await Promise.all(watched.map((receiver) => this.arrivesSteadily(receiver).catch(() => false)));
      if (steady.length > 0 && steady.every(Boolean)) this.finish(true);
    } finally {
      this.checking = false;
    }
  }

  private async arrivesSteadily(receiver: RTCRtpReceiver): Promise<boolean> {
    const count = await arrivedCount(receiver);
    const now = this.clock.now();
    const arrival = this.arrivals.get(receiver);
    if (count > (arrival?.count ?? 0)) {
      const resumed = !arrival || now - arrival.lastRiseAt > PATH_CHANGE.frameGapMs;
      this.arrivals.set(receiver, { count, lastRiseAt: now, steadySince: resumed ? now : arrival.steadySince });
    }
    const latest = this.arrivals.get(receiver);
    return latest !== undefined && now - latest.lastRiseAt <= PATH_CHANGE.frameGapMs && now - latest.steadySince >= PATH_CHANGE.steadyMs;
  }
}
