import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import type { MediaItems } from '../media';
import { AudioOutputs, type AudioOutputSettings } from './AudioOutputs';
import { ElementPlayback } from './ElementPlayback';
import type { TileNeed, VideoSize } from '../call/receive/tileProfile';
import { followFrameSize } from './followFrameSize';
import { RemoteTileNeeds, type TileObservers } from './RemoteTileNeeds';

export interface MediaElementsOptions {
  readonly media: MediaItems;
  /** The peers' volume limits and the preferences, read when outputs are (re)applied. */
  readonly outputSettings: () => AudioOutputSettings;
  readonly logger: Logger;
  /** The autoplay policy holds playback back (true) until a gesture lets it play (false). */
  readonly onPlaybackBlocked: (blocked: boolean) => void;
  /** What a remote video's tile needs changed: in sight or not, its size, enlarged or not. */
  readonly onTileNeed: (itemId: string, need: TileNeed) => void;
  /** A remote video's element shows frames of a new size (through the relay: another layer). */
  readonly onFrameSize: (itemId: string, size: VideoSize) => void;
  /** The browser's observers in a tab; without them every remote video asks for its best. */
  readonly tileObservers: TileObservers | undefined;
  /** Times how long a tile has needed less before it says so (TILE_SHRINK_REPORT_DELAY_MS). */
  readonly clock: Clock;
}

/**
 * The page's <video> and <audio> elements playing media items: each gets a stream of its item's
 * one track; audio plays at its peer's volume on the chosen output; what a remote video's tile
 * needs (in sight, size, enlarged) decides the quality asked of its sender, and the size its frames
 * show at tells which quality arrives; playback autoplay held back is remembered for a gesture.
 */
export class MediaElements {
  private readonly playback: ElementPlayback;
  private readonly outputs: AudioOutputs;
  private readonly tileNeeds: RemoteTileNeeds;

  constructor(private readonly options: MediaElementsOptions) {
    this.playback = new ElementPlayback(options.onPlaybackBlocked);
    this.outputs = new AudioOutputs(options.outputSettings, options.logger);
    this.tileNeeds = new RemoteTileNeeds(options.onTileNeed, options.tileObservers, options.clock);
  }

  /** Plays an item's video, muted and inline; returns the detach. */
  attachVideo(itemId: string, element: HTMLVideoElement): () => void {
    const track = this.options.media.getTrack(itemId);
    const item = this.options.media.get(itemId);
    if (!track || !item) return () => undefined;
    element.muted = true;
    element.playsInline = true;
    element.autoplay = true;
    element.srcObject = new MediaStream([track]);
    this.playback.play(element);
    const unobserve = item.source === 'remote' ? this.tileNeeds.observe(itemId, element) : () => undefined;
    const unfollow = item.source === 'remote' ? followFrameSize(element, (size) => this.options.onFrameSize(itemId, size)) : () => undefined;
    return () => {
      unobserve();
      unfollow();
      this.playback.forget(element);
      element.srcObject = null;
    };
  }

  /** Plays a remote audio item at its peer's volume on the chosen output; returns the detach. */
  attachAudio(itemId: string, element: HTMLAudioElement): () => void {
    const track = this.options.media.getTrack(itemId);
    const item = this.options.media.get(itemId);
    if (!track || item?.source !== 'remote') return () => undefined;
    element.autoplay = true;
    element.srcObject = new MediaStream([track]);
    const removeOutput = this.outputs.add(element, item.owner);
    this.playback.play(element);
    return () => {
      removeOutput();
      this.playback.forget(element);
      element.srcObject = null;
    };
  }

  /** The video item of the tile shown large in the stage, or none. */
  setEnlargedVideo(itemId: string | undefined): void {
    this.tileNeeds.setEnlarged(itemId);
  }

  /** A volume limit or the output preference changed. */
  refreshOutputs(): void {
    this.outputs.refresh();
  }

  /** You set how loud you hear that person (AudioOutputs.setLimit). */
  setPeerVolume(peerAddress: string, volumeLimit: number): void {
    this.outputs.setLimit(peerAddress, volumeLimit);
  }

  /** The device list changed: a chosen speaker that was not plugged in, or was unplugged, is asked for again once listed (AudioOutputs). */
  retryUnavailableOutputs(listedOutputs: readonly string[]): void {
    this.outputs.retryUnavailable(listedOutputs);
  }

  /** Plays what autoplay held back; call it from a user gesture. */
  resumePlayback(): void {
    this.playback.resume();
  }

  dispose(): void {
    this.tileNeeds.dispose();
  }
}
