import type { MediaKind } from '../media';
import { OperationQueue } from '../../common/OperationQueue';
import type { Connection, SessionConnectionState, SessionState } from './Connection';
import type { PathName } from './MediaPath';
import type { ParleyMediaSession } from './ParleyMediaSession';
import type { DecodeWatch } from './PathChange';
import type { ShareableMedia } from './sessionPlan';

/** What the sender said about a kind it sends us (description-info), kept for tracks that arrive later. */
export interface ReceivedDescription {
  readonly name: string | undefined;
  readonly screenCapture: boolean;
}

/**
 * One Jingle session of the call as the Call tracks it: the StanzaJS session, the media it sends
 * or receives, and an ordered queue so that its async steps (start, track swaps, quality, bitrate,
 * mute) never interleave.
 */
export class CallSession {
  readonly queue = new OperationQueue();
  /** Outgoing: the local items sent, one per kind. */
  sent: readonly ShareableMedia[] = [];
  /** Incoming: the remote media items its tracks became, by kind. */
  readonly received = new Map<MediaKind, string>();
  readonly described = new Map<MediaKind, ReceivedDescription>();
  /** Incoming: kinds the sender has muted (applied to items that arrive after the mute). */
  readonly remoteMuted = new Set<MediaKind>();
  /** Outgoing: the peer accepted it. */
  answered = false;
  /** Incoming: we accepted it (its tracks are media items from then on). */
  accepted = false;
  /** Incoming: tracks that arrived with the offer, before the accept. */
  readonly arrived: Array<{ track: MediaStreamTrack; stream: MediaStream | undefined }> = [];
  /** We declined it: its end is no failure of the peer's. */
  declined = false;
  /** Incoming: mesh, or relay when the offer's transport was `<ice-lite/>` (a relay consumer). */
  path: PathName = 'mesh';
  /** Incoming: the sender's stream ids (a=msid) of its tracks: a session carrying the same stream takes over from this one. */
  readonly streamIds = new Set<string>();
  /** Incoming: every track it carries, kept so that its media can come back if its successor fails. */
  readonly tracks: Array<{ track: MediaStreamTrack; stream: MediaStream | undefined }> = [];
  /** Incoming: a newer session of the same stream shows its media instead (its sid). */
  supersededBy: string | undefined;
  /** Incoming: waiting for this session to decode before it takes over from its predecessors. */
  decodeWatch: DecodeWatch | undefined;

  constructor(
    readonly session: ParleyMediaSession,
    /** Outgoing: the plan key (peer + stream) this session carries. */
    readonly key: string | undefined,
  ) {}

  get sid(): string {
    return this.session.sid;
  }

  get peerAddress(): string {
    return this.session.peerID;
  }

  get sending(): boolean {
    return this.session.isInitiator;
  }

  sentOf(kind: MediaKind): ShareableMedia | undefined {
    return this.sent.find((item) => item.kind === kind);
  }

  connection(roomAddress: string): Connection {
    return {
      id: this.sid,
      peerAddress: this.peerAddress,
      roomAddress,
      connectionState: this.session.connectionState as SessionConnectionState,
      sessionState: this.session.state as SessionState,
      sendingAudioMediaId: this.sentOf('audio')?.id,
      sendingVideoMediaId: this.sentOf('video')?.id,
      receivingAudioMediaId: this.received.get('audio'),
      receivingVideoMediaId: this.received.get('video'),
      restarting: this.session.restartingIce,
    };
  }
}
