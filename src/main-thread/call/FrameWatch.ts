import type { Clock } from '../../common/clock';

/** How often a new session's receivers are checked for their first frames. */
export const FRAME_WATCH_INTERVAL_MS = 100;
/** A new session that shows no frames by then takes over anyway (its predecessor may be the broken one). */
export const FRAME_WATCH_LIMIT_MS = 5_000;

/** inbound-rtp counters that say media arrives: decoded frames for video, packets for audio. */
async function hasArrived(receiver: RTCRtpReceiver): Promise<boolean> {
  let arrived = false;
  (await receiver.getStats()).forEach((report: { type?: string; kind?: string; framesDecoded?: number; packetsReceived?: number }) => {
    if (report.type !== 'inbound-rtp') return;
    if (report.kind === 'video' ? (report.framesDecoded ?? 0) > 0 : (report.packetsReceived ?? 0) > 0) arrived = true;
  });
  return arrived;
}

/**
 * Waits until media arrives on a session that takes over from another (the relay switching on or
 * off): its video has decoded a frame — or, without video, its audio has packets — checked every
 * FRAME_WATCH_INTERVAL_MS, for at most FRAME_WATCH_LIMIT_MS. Then `arrived` runs once, unless
 * `cancel` came first. The receiver keeps showing the old track until then, so no tile freezes.
 */
export class FrameWatch {
  private readonly timer: unknown;
  private readonly startedAt: number;
  private checking = false;
  private done = false;

  constructor(
    private readonly clock: Clock,
    private readonly receivers: () => readonly RTCRtpReceiver[],
    private readonly arrived: () => void,
  ) {
    this.startedAt = clock.now();
    this.timer = clock.setInterval(() => void this.check(), FRAME_WATCH_INTERVAL_MS);
  }

  cancel(): void {
    this.done = true;
    this.clock.clearInterval(this.timer);
  }

  /** Ends the wait now (the old session ended: the new one is all there is). */
  finish(): void {
    if (this.done) return;
    this.cancel();
    this.arrived();
  }

  private async check(): Promise<void> {
    if (this.done || this.checking) return;
    this.checking = true;
    try {
      const receivers = this.receivers();
      const video = receivers.filter((receiver) => receiver.track.kind === 'video');
      const watched = video.length > 0 ? video : receivers;
      const results = await Promise.all(watched.map((receiver) => hasArrived(receiver).catch(() => false)));
      if (results.length > 0 && results.every(Boolean)) this.finish();
      else if (this.clock.now() - this.startedAt >= FRAME_WATCH_LIMIT_MS) this.finish();
    } finally {
      this.checking = false;
    }
  }
}
