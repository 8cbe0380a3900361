import type { Clock } from '../../common/clock';
import { TypedEmitter } from '../../common/TypedEmitter';
import { SEND_LOSS } from '../../protocol/clientDefaults';

export interface SendLossWatchEvents {
  /** Whether what we send as video is losing on the way now (said when it changes). */
  changed: [losing: boolean];
}

/** One RTP stream as last read: packets we sent, those its receiver reported lost, and the congestion control's target. */
interface Counters {
  readonly sent: number;
  readonly lost: number;
  readonly targetBitrate: number | undefined;
}

/**
 * Whether the video this tab sends reaches its receivers. Every `SEND_LOSS.checkIntervalMs` it reads
 * the video senders the paths name (mesh sessions and the relay ingest, connected): the receivers'
 * own reports (RTCP receiver reports: `remote-inbound-rtp` beside our `outbound-rtp`) say what share
 * was lost, and the congestion control's target (`targetBitrate`) whether anything gets through at
 * all — a receiver that gets none of a stream's packets cannot count them lost. `SEND_LOSS.checks`
 * reads in a row decide, so that one burst does not tell the person anything. Only the call's own
 * video: a receiver's stall (receive/CamerasByFrames) is its tile's to say.
 */
export class SendLossWatch extends TypedEmitter<SendLossWatchEvents> {
  private readonly timer: unknown;
  private readonly counters = new Map<string, Counters>();
  private losing = false;
  /** Reads in a row that point the other way than `losing`. */
  private against = 0;
  private reading = false;

  constructor(
    private readonly clock: Clock,
    private readonly senders: () => readonly RTCRtpSender[],
  ) {
    super();
    this.timer = clock.setInterval(() => void this.read(), SEND_LOSS.checkIntervalMs);
  }

  stop(): void {
    this.clock.clearInterval(this.timer);
    this.counters.clear();
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const reports = await Promise.all(this.senders().map((sender) => sender.getStats().catch(() => undefined)));
      this.judge(sentSince(this.counters, reports));
    } finally {
      this.reading = false;
    }
  }

  private judge(sent: SentSince | undefined): void {
    if (sent === undefined) {
      // No video goes any more (the camera turned off, the call left): nothing of it is lost.
      if (this.losing) this.change();
      return;
    }
    const bad = sent.lostFraction >= SEND_LOSS.noticeAtFraction || sent.starved;
    const good = sent.lostFraction < SEND_LOSS.clearBelowFraction && !sent.starved;
    const against = this.losing ? good : bad;
    this.against = against ? this.against + 1 : 0;
    if (this.against >= SEND_LOSS.checks) this.change();
  }

  private change(): void {
    this.against = 0;
    this.losing = !this.losing;
    this.emit('changed', this.losing);
  }
}

/** What a read says of the video sent since the one before. */
interface SentSince {
  /** The share of the packets sent that the receivers' reports say were lost. */
  readonly lostFraction: number;
  /** Every stream that sent has the congestion control's target down at `SEND_LOSS.starvedAtBps` or less. */
  readonly starved: boolean;
}

/**
 * What the video sent since the counters were last read did, over every RTP stream of `reports`
 * (each simulcast layer is one), or undefined when fewer than `SEND_LOSS.minPacketsSent` went.
 * Updates `counters` to the reports' (streams no longer reported are forgotten).
 */
function sentSince(counters: Map<string, Counters>, reports: ReadonlyArray<RTCStatsReport | undefined>): SentSince | undefined {
  const now = new Map<string, Counters>();
  for (const report of reports) {
    if (!report) continue;
    const lostBySsrc = new Map<number, number>();
    report.forEach((stats: { type?: string; ssrc?: number; packetsLost?: number }) => {
      if (stats.type === 'remote-inbound-rtp' && stats.ssrc !== undefined) lostBySsrc.set(stats.ssrc, stats.packetsLost ?? 0);
    });
    report.forEach((stats: { type?: string; id?: string; ssrc?: number; packetsSent?: number; targetBitrate?: number }) => {
      if (stats.type !== 'outbound-rtp' || stats.ssrc === undefined || stats.id === undefined) return;
      now.set(`${stats.id}\n${stats.ssrc}`, { sent: stats.packetsSent ?? 0, lost: lostBySsrc.get(stats.ssrc) ?? 0, targetBitrate: stats.targetBitrate });
    });
  }
  let sent = 0;
  let lost = 0;
  let starved = true;
  for (const [key, current] of now) {
    const before = counters.get(key);
    if (!before || current.sent <= before.sent) continue;
    sent += current.sent - before.sent;
    lost += Math.max(0, current.lost - before.lost);
    if (current.targetBitrate === undefined || current.targetBitrate > SEND_LOSS.starvedAtBps) starved = false;
  }
  counters.clear();
  for (const [key, current] of now) counters.set(key, current);
  return sent >= SEND_LOSS.minPacketsSent ? { lostFraction: Math.min(1, lost / sent), starved } : undefined;
}
