import type { createStore } from 'jotai';
import type { ConsumerProfile } from '../../protocol/relay';
import type { Clock } from '../../common/clock';
import { receivedPathsAtom, type ReceivedPath } from './relayAtoms';
import { DEFAULT_SENDER_WIDTH } from './tileProfile';

type JotaiStore = ReturnType<typeof createStore>;

/** How often relay video receivers are measured (getStats per item). */
export const LAYER_POLL_INTERVAL_MS = 1_000;

/** The received item as ReceivedPaths is told of it. */
export type ReceivedItem = Omit<ReceivedPath, 'frameWidth' | 'frameHeight' | 'layer'>;

interface Entry {
  info: ReceivedPath;
  readonly receiver: () => RTCRtpReceiver | undefined;
  /** The widest frame this item has shown. */
  widest: number;
}

/**
 * The sender's full width as far as this receiver can tell: the widest frame seen, and never less
 * than the tier every relay sender captures at (`captureWidth`, relaySenderWidth), since the first
 * frames through the relay are often its low layer while bandwidth estimation ramps up.
 */
export function senderWidthOf(widest: number | undefined, captureWidth: number = DEFAULT_SENDER_WIDTH): number {
  return Math.max(widest ?? 0, captureWidth);
}

/** The relay layer a frame width is (high = the sender's width, medium half of it, low a quarter). */
export function layerOfWidth(frameWidth: number, senderWidth: number): Exclude<ConsumerProfile, 'off'> {
  const ratio = senderWidth / frameWidth;
  if (ratio >= 3) return 'low';
  if (ratio >= 1.5) return 'medium';
  return 'high';
}

/**
 * Which path each received item arrives on, and for relay video which layer (receivedPathsAtom):
 * the engine tells it of items and quality requests; relay videos are measured from their
 * receivers' inbound-rtp frame size every LAYER_POLL_INTERVAL_MS while there are any.
 */
export class ReceivedPaths {
  private readonly entries = new Map<string, Entry>();
  private timer: unknown;
  private polling = false;

  constructor(
    private readonly store: JotaiStore,
    private readonly clock: Clock,
    /** The width relay senders capture at, by the config's tiers (relaySenderWidth). */
    private readonly captureWidth: () => number = () => DEFAULT_SENDER_WIDTH,
  ) {}

  add(item: ReceivedItem, receiver: () => RTCRtpReceiver | undefined): void {
    const layer = item.path === 'relay' && item.kind === 'video' ? (item.requestedProfile === 'off' ? 'off' : undefined) : undefined;
    this.entries.set(item.mediaId, { info: { ...item, frameWidth: undefined, frameHeight: undefined, layer }, receiver, widest: 0 });
    this.publish(item.mediaId);
    this.followPolling();
  }

  remove(mediaId: string): void {
    if (!this.entries.delete(mediaId)) return;
    this.store.set(receivedPathsAtom, (paths) => {
      const rest = { ...paths };
      delete rest[mediaId];
      return rest;
    });
    this.followPolling();
  }

  setRequestedProfile(mediaId: string, profile: ConsumerProfile): void {
    const entry = this.entries.get(mediaId);
    if (!entry || entry.info.requestedProfile === profile) return;
    entry.info = { ...entry.info, requestedProfile: profile, ...(profile === 'off' && entry.info.path === 'relay' ? { layer: 'off' as const } : {}) };
    this.publish(mediaId);
  }

  /** The sender width tile needs are judged against (tileProfile). */
  senderWidth(mediaId: string): number {
    return senderWidthOf(this.entries.get(mediaId)?.widest, this.captureWidth());
  }

  dispose(): void {
    this.clock.clearInterval(this.timer);
    this.timer = undefined;
    for (const mediaId of [...this.entries.keys()]) this.remove(mediaId);
  }

  private publish(mediaId: string): void {
    const entry = this.entries.get(mediaId);
    if (entry) this.store.set(receivedPathsAtom, (paths) => ({ ...paths, [mediaId]: entry.info }));
  }

  private measured(): Entry[] {
    return [...this.entries.values()].filter((entry) => entry.info.path === 'relay' && entry.info.kind === 'video');
  }

  private followPolling(): void {
    const wanted = this.measured().length > 0;
    if (wanted && this.timer === undefined) this.timer = this.clock.setInterval(() => void this.poll(), LAYER_POLL_INTERVAL_MS);
    else if (!wanted && this.timer !== undefined) {
      this.clock.clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const entry of this.measured()) await this.measure(entry);
    } finally {
      this.polling = false;
    }
  }

  private async measure(entry: Entry): Promise<void> {
    const receiver = entry.receiver();
    if (!receiver) return;
    let size: { width: number; height: number } | undefined;
    try {
      (await receiver.getStats()).forEach((report: { type?: string; frameWidth?: number; frameHeight?: number }) => {
        if (report.type === 'inbound-rtp' && report.frameWidth) size = { width: report.frameWidth, height: report.frameHeight ?? 0 };
      });
    } catch {
      // The session closed meanwhile: nothing to measure.
      return;
    }
    if (!size || this.entries.get(entry.info.mediaId) !== entry) return;
    entry.widest = Math.max(entry.widest, size.width);
    const layer = entry.info.requestedProfile === 'off' ? 'off' : layerOfWidth(size.width, senderWidthOf(entry.widest, this.captureWidth()));
    const { frameWidth, frameHeight } = entry.info;
    if (frameWidth === size.width && frameHeight === size.height && entry.info.layer === layer) return;
    entry.info = { ...entry.info, frameWidth: size.width, frameHeight: size.height, layer };
    this.publish(entry.info.mediaId);
  }
}
