import type { Clock } from '../../../common/clock';
import { CAMERA_STOP } from '../../../protocol/clientDefaults';
import type { MediaItems } from '../../media';
import type { CallSession } from '../CallSession';
import type { CallSessions } from '../CallSessions';

/** Where a watched camera's frames were last seen to move. */
interface Arrival {
  /** Frames decoded so far, as its receiver's statistics said (0 before the first). */
  readonly frames: number;
  /** When (our clock) that count was first read. */
  readonly seenAt: number;
}

/** A camera judged now, and what it is read from. */
interface Watched {
  readonly call: CallSession;
  readonly itemId: string;
  readonly track: MediaStreamTrack;
}

/**
 * While signalling cannot reach a sender (our room waits for its rejoin, or the room does not list
 * them: issue 13), their camera is shown as its frames say, as their Jingle mute or unmute would
 * show it — which cannot reach us then. A Parley sender sends no video for a camera it turns off
 * (mesh/MeshPath, relay/RelayIngest), so:
 * - a camera whose frames have not moved for `CAMERA_STOP.stoppedAfterMs` is shown off (its item
 *   `remoteDisabled`); without this its tile showed the last frame, black, until signalling was back;
 * - a camera shown off whose frames move again after such a stillness is shown on — turned on again,
 *   or turned on meanwhile after its sender's mute (before the outage) had said it was off. A
 *   SimpleWebRTC 1.30.3 sender's muted camera sends black frames from its disabled track, which never
 *   stand still that long, so its sender's mute keeps it off (and so does a Parley camera turned on
 *   again sooner than that after its mute: its unmute, once back, shows it).
 * While signalling works the sender's word says it, and frames that stop are a stall, not a camera
 * turned off: a camera its sender says is on whose frames have stood still as long is reported
 * stalled (`framesStalled`, for its tile to say so) until they move again. Judged every
 * `CAMERA_STOP.checkIntervalMs` from each receiver's statistics (frames decoded, read off the main
 * thread: a synchronization source's time is a blocking call to WebRTC's worker thread, which a
 * steady call keeps busy), only after its first frame, while the session is connected and the video
 * asked for (not `off`). What the sender says (mute, unmute), said again once back, stays the last
 * word: `forget` drops what was judged here.
 */
export class CamerasByFrames {
  private readonly arrivals = new Map<string, Arrival>();
  /** The items shown on or off here, not by their sender's word. */
  private readonly judged = new Set<string>();
  /** The items reported stalled. */
  private readonly stalled = new Set<string>();
  private readonly timer: unknown;
  private reading = false;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly media: MediaItems,
    private readonly sessions: CallSessions,
    private readonly signallingReaches: (peerAddress: string) => boolean,
    private readonly framesStalled: (itemId: string, stalled: boolean) => void,
  ) {
    this.timer = clock.setInterval(() => this.check(), CAMERA_STOP.checkIntervalMs);
  }

  /** What was judged of this video goes: its sender said whether it is muted (their word stands), or it is gone. */
  forget(itemId: string): void {
    this.judged.delete(itemId);
    this.arrivals.delete(itemId);
    this.setStalled(itemId, false);
  }

  dispose(): void {
    this.disposed = true;
    this.clock.clearInterval(this.timer);
    this.arrivals.clear();
    this.judged.clear();
    this.stalled.clear();
  }

  private check(): void {
    if (this.reading) return;
    this.reading = true;
    void this.readAndJudge().finally(() => {
      this.reading = false;
    });
  }

  private async readAndJudge(): Promise<void> {
    const watched = this.sessions.all().flatMap((call) => this.watchedOf(call) ?? []);
    const frames = await Promise.all(watched.map(({ call, track }) => call.session.framesDecodedOf(track).catch(() => undefined)));
    if (this.disposed) return;
    const now = this.clock.now();
    const read = new Set<string>();
    for (const [index, { call, itemId }] of watched.entries()) {
      // What changed while the statistics were read (the session gone, the video turned off) is judged afresh next time.
      if (this.watchedOf(call)?.itemId !== itemId) continue;
      read.add(itemId);
      const count = frames[index] ?? 0;
      const arrival = this.arrivals.get(itemId);
      if (!arrival || arrival.frames !== count) {
        this.arrivals.set(itemId, { frames: count, seenAt: now });
        if (arrival) this.moved(itemId, call, now - arrival.seenAt);
      } else if (now - arrival.seenAt >= CAMERA_STOP.stoppedAfterMs && count > 0) {
        this.stoodStill(itemId, call);
      }
    }
    // Not judged now: judged afresh from the next count read (and not a stall: not asked for, or its connection says why).
    for (const itemId of [...this.arrivals.keys()]) if (!read.has(itemId)) this.arrivals.delete(itemId);
    for (const itemId of [...this.stalled]) if (!read.has(itemId)) this.setStalled(itemId, false);
  }

  /**
   * Frames moved after standing still for `stillMs`: a camera shown off here is on again, and so is
   * one its sender said was off whose frames had stood still (a Parley sender's), while their word
   * cannot reach us.
   */
  private moved(itemId: string, call: CallSession, stillMs: number): void {
    this.setStalled(itemId, false);
    if (this.media.get(itemId)?.remoteDisabled !== true) return;
    const onAgain = this.judged.has(itemId) || (stillMs >= CAMERA_STOP.stoppedAfterMs && !this.signallingReaches(call.peerAddress));
    if (!onAgain) return;
    this.judged.add(itemId);
    this.media.update(itemId, { remoteDisabled: false });
  }

  /** Frames of a camera shown on stand still: a stall while its sender's word can reach us, else the camera is off. */
  private stoodStill(itemId: string, call: CallSession): void {
    if (this.media.get(itemId)?.remoteDisabled !== false) return;
    if (this.signallingReaches(call.peerAddress)) {
      this.setStalled(itemId, true);
      return;
    }
    this.setStalled(itemId, false);
    this.judged.add(itemId);
    this.media.update(itemId, { remoteDisabled: true });
  }

  private setStalled(itemId: string, stalled: boolean): void {
    if (this.stalled.has(itemId) === stalled) return;
    if (stalled) this.stalled.add(itemId);
    else this.stalled.delete(itemId);
    this.framesStalled(itemId, stalled);
  }

  /** The session's received camera when it is judged now: connected, accepted and current, its video a camera asked for. */
  private watchedOf(call: CallSession): Watched | undefined {
    const itemId = call.received.get('video');
    if (itemId === undefined || call.sending || !call.accepted || call.supersededBy !== undefined || call.session.connectionState !== 'connected') return undefined;
    const item = this.media.get(itemId);
    const track = this.media.getTrack(itemId);
    if (!item || !track || item.screenCapture || item.profile === 'off') return undefined;
    return { call, itemId, track };
  }
}
