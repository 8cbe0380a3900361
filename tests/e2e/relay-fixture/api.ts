import type { Connection } from '../../../src/main-thread/call/Connection';
import type { ReceivedPath } from '../../../src/main-thread/call/callAtoms';
import type { RelayStatus } from '../../../src/main-thread/call/relay/relayAtoms';
import type { VideoSendLoad } from '../../../src/main-thread/media';
import type { TileNeed } from '../../../src/main-thread/call/receive/tileProfile';

/** A remote media item as the relay test sees it: its path and layer (the client's view) and its receiving counters. */
export interface RelayReceivedMedia {
  id: string;
  kind: 'audio' | 'video';
  owner: string;
  screenCapture: boolean;
  path: ReceivedPath['path'] | undefined;
  layer: ReceivedPath['layer'];
  framesDecoded: number;
  frameWidth: number;
  packetsReceived: number;
  bytesReceived: number;
}

/** One sample of the video a tile would show for a sender (the newest camera item from them, as callTiles picks it). */
export interface ShownFrame {
  /** performance.now() in the page. */
  at: number;
  id: string | undefined;
  path: ReceivedPath['path'] | undefined;
  framesDecoded: number;
}

/** One video encoding this page sends, as its sender's statistics give it (to say why a layer does not arrive). */
export interface SentVideoLayer {
  rid: string | undefined;
  active: boolean | undefined;
  frameWidth: number | undefined;
  framesPerSecond: number | undefined;
  qualityLimitationReason: string | undefined;
  targetBitrate: number | undefined;
  /** The bandwidth estimate of the connection it is sent on (its selected candidate pair). */
  availableOutgoingBitrate: number | undefined;
}

/** What the relay fixture page exposes as `window.relayFixture`. */
export interface RelayFixtureApi {
  selfAddress: string;
  /** The `<user sid>` (nickname): what the relay's consumer stats name as peerId. */
  selfId: string;
  roomAddress: string;
  /** Set once per page load: a reload would change it. */
  pageLoadId: string;
  /** The stream id the camera and microphone are ingested under (the relay's ingest id). */
  cameraStreamId: string;
  /** The camera's capture width. */
  cameraWidth: number;
  connections(): Connection[];
  relayStatus(): RelayStatus | undefined;
  /** What the engine last said it sends (the capture tier and the SPEC §9 budget follow it). */
  sendLoad(): VideoSendLoad | undefined;
  received(): Promise<RelayReceivedMedia[]>;
  setTileNeed(mediaId: string, need: TileNeed): Promise<void>;
  /** Starts sampling, every 200 ms, the video a tile would show for `owner`. */
  watchShownVideo(owner: string): void;
  shownVideo(owner: string): ShownFrame[];
  /** Every video encoding the page's connections send now. */
  sentVideoLayers(): Promise<SentVideoLayer[]>;
  errors: string[];
  leaveCall(): Promise<void>;
}

declare global {
  interface Window {
    relayFixture?: RelayFixtureApi;
    relayFixtureError?: string;
  }
}
