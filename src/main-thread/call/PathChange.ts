import { PATH_CHANGE } from '../../protocol/clientDefaults';
import type { Clock } from '../../common/clock';
import { TypedEmitter } from '../../common/TypedEmitter';
import type { PathName } from './MediaPath';

/*
 * Continuity across a change of media path (mesh ↔ relay): one rule, one grace period
 * (PATH_CHANGE.graceMs, counted from the moment the new path connects). The new path is up and
 * decoding before the old one stops:
 * - the receiver (DecodeWatch, used by receive/ReceivedVideo) keeps showing the old session's media
 *   until the new session decodes, or at the latest until the grace has passed;
 * - the sender (PathHandover, used by the Call and both paths) keeps the old path running until the
 *   new one has been connected for the grace: it cannot see the receiver decode, and the grace is
 *   the time for the first key frame to arrive and decode.
 * The tile itself (ui/call/TileVideo) only bridges its new <video> element's start-up: it shows the
 * new element at its first presented frame and has no timer of its own.
 */

export interface PathHandoverEvents {
  /** A path has now been connected for the grace period: what it replaces may go. */
  settled: [path: PathName, key: string];
}

/**
 * When each (path, plan key) connected, on the injected clock: a path is *established* once it
 * has stayed connected for the grace. Switching mesh → relay ends a mesh session only once its
 * relay consumer is established, and relay → mesh removes a consumer only once the new mesh
 * session is (SPEC §4's switch, without frozen video).
 */
export class PathHandover extends TypedEmitter<PathHandoverEvents> {
  private readonly connections = new Map<string, { settled: boolean; readonly timer: unknown }>();

  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number = PATH_CHANGE.graceMs,
  ) {
    super();
  }

  /** The path to a key connected (again): its grace starts unless it runs already. */
  connected(path: PathName, key: string): void {
    const id = `${path}\n${key}`;
    if (this.connections.has(id)) return;
    // Established when the timer fires, not by comparing clock readings: a timer may fire a
    // millisecond before the wall clock says its delay has passed, and nothing would ask again.
    const entry = {
      settled: false,
      timer: this.clock.setTimeout(() => {
        entry.settled = true;
        this.emit('settled', path, key);
      }, this.graceMs),
    };
    this.connections.set(id, entry);
  }

  /** The path to a key is not connected (any more). */
  lost(path: PathName, key: string): void {
    const id = `${path}\n${key}`;
    const entry = this.connections.get(id);
    if (!entry) return;
    this.clock.clearTimeout(entry.timer);
    this.connections.delete(id);
  }

  established(path: PathName, key: string): boolean {
    return this.connections.get(`${path}\n${key}`)?.settled === true;
  }

  clear(): void {
    for (const entry of this.connections.values()) this.clock.clearTimeout(entry.timer);
    this.connections.clear();
  }
}

/** inbound-rtp counters that say media arrives: decoded frames for video, packets for audio. */
async function isDecoding(receiver: RTCRtpReceiver): Promise<boolean> {
  let decoding = false;
  (await receiver.getStats()).forEach((report: { type?: string; kind?: string; framesDecoded?: number; packetsReceived?: number }) => {
    if (report.type !== 'inbound-rtp') return;
    if (report.kind === 'video' ? (report.framesDecoded ?? 0) > 0 : (report.packetsReceived ?? 0) > 0) decoding = true;
  });
  return decoding;
}

/**
 * The receiver's side: waits until a session that takes over from another decodes — its video
 * has decoded a frame or, without video, its audio has packets — checked every
 * PATH_CHANGE.decodeCheckIntervalMs; once the session has been connected for the grace it stops
 * waiting (its predecessor may be the broken one). Then `ready` runs once, unless `cancel` came first.
 */
export class DecodeWatch {
  private readonly poll: unknown;
  private grace: unknown;
  private checking = false;
  private done = false;

  constructor(
    private readonly clock: Clock,
    private readonly receivers: () => readonly RTCRtpReceiver[],
    private readonly ready: () => void,
  ) {
    this.poll = clock.setInterval(() => void this.check(), PATH_CHANGE.decodeCheckIntervalMs);
  }

  /** The session connected: the grace starts (once). */
  connected(): void {
    if (this.done || this.grace !== undefined) return;
    this.grace = this.clock.setTimeout(() => this.finish(), PATH_CHANGE.graceMs);
  }

  cancel(): void {
    this.done = true;
    this.clock.clearInterval(this.poll);
    this.clock.clearTimeout(this.grace);
  }

  /** Ends the wait now (the old session ended: the new one is all there is). */
  finish(): void {
    if (this.done) return;
    this.cancel();
    this.ready();
  }

  private async check(): Promise<void> {
    if (this.done || this.checking) return;
    this.checking = true;
    try {
      const receivers = this.receivers();
      const video = receivers.filter((receiver) => receiver.track.kind === 'video');
      const watched = video.length > 0 ? video : receivers;
      const results = await Promise.all(watched.map((receiver) => isDecoding(receiver).catch(() => false)));
      if (results.length > 0 && results.every(Boolean)) this.finish();
    } finally {
      this.checking = false;
    }
  }
}
