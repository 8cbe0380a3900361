import type { Clock } from '../../../common/clock';
import { CAMERA_STOP } from '../../../protocol/clientDefaults';
import type { MediaItems } from '../../media';
import type { CallSession } from '../CallSession';
import type { CallSessions } from '../CallSessions';

/** Where a watched camera's frames were last seen to move. */
interface Arrival {
  /** The newest frame's time, as the receiver's synchronization source gives it. */
  readonly frameAt: number;
  /** When (our clock) that time was first read. */
  readonly seenAt: number;
}

/**
 * A remote camera whose frames stop while signalling cannot reach its sender (our room waits for its
 * rejoin, or the room does not list them: issue 13) is shown off — its item `remoteDisabled`, as
 * their Jingle mute would make it — until its frames arrive again. A Parley sender sends no video
 * for a camera it turns off (mesh/MeshPath, relay/RelayIngest), and its mute cannot reach us then:
 * without this its tile showed the last frame, black, until signalling was back. While signalling
 * works the sender's mute says it, and frames that stop are a stall, not a camera turned off.
 * Judged every `CAMERA_STOP.checkIntervalMs` from each receiver's synchronization source (its
 * newest frame's time: read at once, no statistics), only while the session is connected, the
 * video asked for (not `off`) and not muted by the sender's word, once a frame has arrived; a
 * camera whose frames have not moved for `CAMERA_STOP.stoppedAfterMs` is off. What the sender says
 * (mute, unmute) stays the last word: `forget` drops what was judged here.
 */
export class StoppedCameras {
  private readonly arrivals = new Map<string, Arrival>();
  /** The items shown off here, not by their sender's word. */
  private readonly stopped = new Set<string>();
  private readonly timer: unknown;

  constructor(
    private readonly clock: Clock,
    private readonly media: MediaItems,
    private readonly sessions: CallSessions,
    private readonly signallingReaches: (peerAddress: string) => boolean,
  ) {
    this.timer = clock.setInterval(() => this.check(), CAMERA_STOP.checkIntervalMs);
  }

  /** What was judged of this video goes: its sender said whether it is muted (their word stands), or it is gone. */
  forget(itemId: string): void {
    this.stopped.delete(itemId);
    this.arrivals.delete(itemId);
  }

  dispose(): void {
    this.clock.clearInterval(this.timer);
    this.arrivals.clear();
    this.stopped.clear();
  }

  private check(): void {
    const now = this.clock.now();
    const watched = new Set<string>();
    for (const call of this.sessions.all()) {
      const itemId = call.received.get('video');
      const frameAt = itemId === undefined ? undefined : this.newestFrame(call, itemId);
      if (itemId === undefined || frameAt === undefined) continue;
      watched.add(itemId);
      const arrival = this.arrivals.get(itemId);
      if (!arrival || arrival.frameAt !== frameAt) {
        this.arrivals.set(itemId, { frameAt, seenAt: now });
        if (arrival && this.stopped.delete(itemId)) this.media.update(itemId, { remoteDisabled: false });
      } else if (now - arrival.seenAt >= CAMERA_STOP.stoppedAfterMs && !this.stopped.has(itemId) && !this.signallingReaches(call.peerAddress)) {
        this.stopped.add(itemId);
        this.media.update(itemId, { remoteDisabled: true });
      }
    }
    // Not judged now: judged afresh from the next frame time read.
    for (const itemId of [...this.arrivals.keys()]) if (!watched.has(itemId)) this.arrivals.delete(itemId);
  }

  /** The newest frame's time of a received camera that is judged now; undefined when it is not, or none has arrived. */
  private newestFrame(call: CallSession, itemId: string): number | undefined {
    const item = this.media.get(itemId);
    const track = this.media.getTrack(itemId);
    if (call.sending || !call.accepted || call.supersededBy !== undefined || call.session.connectionState !== 'connected') return undefined;
    if (!item || !track || item.screenCapture || item.profile === 'off' || (item.remoteDisabled && !this.stopped.has(itemId))) return undefined;
    const sources = call.session.receiverOf(track)?.getSynchronizationSources() ?? [];
    return sources.length > 0 ? Math.max(...sources.map((source) => source.timestamp)) : undefined;
  }
}
