import type { Connection } from '../../../src/main-thread/call/Connection';
import type { PeerMediaChange } from '../../../src/main-thread/call/peerMedia';
import type { SimulcastProfile } from '../../../src/protocol/stanzas/talkyJingle';

/** A remote media item as the test sees it, with its receiving counters. */
export interface ReceivedMedia {
  id: string;
  kind: 'audio' | 'video';
  owner: string;
  screenCapture: boolean;
  remoteDisabled: boolean;
  name: string | undefined;
  framesDecoded: number;
  packetsReceived: number;
  bytesReceived: number;
}

/** A Jingle request the engine sent, reduced to what PROTOCOL.md fixes. */
export interface SentJingle {
  action: string;
  to: string;
  contents: Array<{ name: string; senders: string | undefined }>;
}

/** What a Parley fixture page exposes as `window.callFixture`. */
export interface CallFixtureApi {
  selfAddress: string;
  roomAddress: string;
  connections(): Connection[];
  received(): Promise<ReceivedMedia[]>;
  /** Frames our camera encoded for each peer (outbound-rtp), by peer address. */
  cameraFramesEncoded(): Promise<Record<string, number>>;
  /** maxBitrate of each video sender (camera, then screen), by peer address. */
  videoMaxBitrates(): Record<string, Array<number | undefined>>;
  /** Peer facts the engine reported to the shared session, in order. */
  reports: Array<{ peerAddress: string; change: PeerMediaChange }>;
  sentJingle: SentJingle[];
  errors: string[];
  setMicrophoneMuted(muted: boolean): void;
  shareScreen(): Promise<string>;
  stopScreen(): void;
  requestProfile(mediaId: string, profile: SimulcastProfile): Promise<void>;
  leaveCall(): Promise<void>;
}

/** What a plain StanzaJS page (an independent client) exposes as `window.plainClient`. */
export interface PlainClientApi {
  occupantAddress: string;
  /** Offers our camera and microphone to a peer in a one-way session of our own making. */
  offerTo(peerAddress: string): Promise<string>;
  /** Ends the sessions offered to us as failed-transport, as a responder whose ICE failed would; returns their sids. */
  failIncoming(): string[];
  /** The session-initiate XML we sent. */
  sentInitiates: string[];
}

declare global {
  interface Window {
    callFixture?: CallFixtureApi;
    plainClient?: PlainClientApi;
    fixtureError?: string;
  }
}
