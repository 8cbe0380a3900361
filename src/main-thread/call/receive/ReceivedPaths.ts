import type { createStore } from 'jotai';
import type { ConsumerProfile } from '../../../protocol/relay';
import { receivedPathsAtom, type ReceivedPath } from '../callAtoms';
import { DEFAULT_SENDER_WIDTH, type VideoSize } from './tileProfile';

type JotaiStore = ReturnType<typeof createStore>;

/** The received item as ReceivedPaths is told of it. */
export type ReceivedItem = Omit<ReceivedPath, 'frameWidth' | 'frameHeight' | 'layer' | 'framesStalled'>;

interface Entry {
  info: ReceivedPath;
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
 * ReceivedVideo tells it of items and quality requests, of the size each remote video's frames show
 * at as the page's element reports it (its `resize` event), and of cameras whose frames stall. The
 * page already decodes every frame, so the layer costs no statistics reads while a call joins or runs.
 */
export class ReceivedPaths {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: JotaiStore,
    /** The width relay senders capture at, by the config's tiers (relaySenderWidth). */
    private readonly captureWidth: () => number = () => DEFAULT_SENDER_WIDTH,
  ) {}

  add(item: ReceivedItem): void {
    const info: ReceivedPath = { ...item, frameWidth: undefined, frameHeight: undefined, layer: undefined, framesStalled: false };
    this.entries.set(item.mediaId, { info: { ...info, layer: this.layerOf(info, 0) }, widest: 0 });
    this.publish(item.mediaId);
  }

  remove(mediaId: string): void {
    if (!this.entries.delete(mediaId)) return;
    this.store.set(receivedPathsAtom, (paths) => {
      const rest = { ...paths };
      delete rest[mediaId];
      return rest;
    });
  }

  setRequestedProfile(mediaId: string, profile: ConsumerProfile): void {
    const entry = this.entries.get(mediaId);
    if (entry) this.change(entry, { requestedProfile: profile });
  }

  /** A received video shows frames of this size now; through the relay, that tells the layer arriving. */
  setFrameSize(mediaId: string, size: VideoSize): void {
    const entry = this.entries.get(mediaId);
    if (!entry || entry.info.kind !== 'video' || size.width <= 0) return;
    entry.widest = Math.max(entry.widest, size.width);
    this.change(entry, { frameWidth: size.width, frameHeight: size.height });
  }

  /** A received camera's frames stood still though it should move (a stall), or move again. */
  setFramesStalled(mediaId: string, stalled: boolean): void {
    const entry = this.entries.get(mediaId);
    if (entry) this.change(entry, { framesStalled: stalled });
  }

  /** The sender width tile needs are judged against (tileProfile). */
  senderWidth(mediaId: string): number {
    return senderWidthOf(this.entries.get(mediaId)?.widest, this.captureWidth());
  }

  dispose(): void {
    for (const mediaId of [...this.entries.keys()]) this.remove(mediaId);
  }

  /** The layer a relay video arrives at: off while paused, else judged from its last frame's width; undefined for the rest. */
  private layerOf(info: ReceivedPath, widest: number): ConsumerProfile | undefined {
    if (info.path !== 'relay' || info.kind !== 'video') return undefined;
    if (info.requestedProfile === 'off') return 'off';
    return info.frameWidth === undefined ? undefined : layerOfWidth(info.frameWidth, senderWidthOf(widest, this.captureWidth()));
  }

  /** Applies `change` with the layer derived anew from it, and publishes the item if anything differs. */
  private change(entry: Entry, change: Partial<ReceivedPath>): void {
    const changed = { ...entry.info, ...change };
    const info = { ...changed, layer: this.layerOf(changed, entry.widest) };
    if ((Object.keys(info) as Array<keyof ReceivedPath>).every((key) => info[key] === entry.info[key])) return;
    entry.info = info;
    this.publish(info.mediaId);
  }

  private publish(mediaId: string): void {
    const entry = this.entries.get(mediaId);
    if (entry) this.store.set(receivedPathsAtom, (paths) => ({ ...paths, [mediaId]: entry.info }));
  }
}
