import type { RequestingMedia } from '../../protocol/entities';
import type { MediaKind } from '../media';

/** A shared local item as the plan needs it. */
export interface ShareableMedia {
  readonly id: string;
  readonly kind: MediaKind;
  readonly streamId: string;
  readonly screenCapture: boolean;
}

/** A remote peer as the plan needs it (SPEC §3 Peer). */
export interface CallPeer {
  readonly address: string;
  readonly joinedCall: boolean;
  readonly requestingMedia: RequestingMedia;
}

/** One outgoing one-way session: to one peer, carrying one local stream's items (at most one per kind). */
export interface PlannedSession {
  /** `peerAddress` + stream key: identifies the session across recomputations. */
  readonly key: string;
  readonly peerAddress: string;
  readonly streamKey: string;
  readonly media: readonly ShareableMedia[];
}

export interface SessionPlanInput {
  /** This tab is in the call (CallRecord.joined, room joined). */
  readonly inCall: boolean;
  /** The room's other peers. */
  readonly peers: readonly CallPeer[];
  /** Shared local items, oldest first. */
  readonly shared: readonly ShareableMedia[];
}

/** Camera and microphone travel together; each screen capture (with any audio of its own) apart. */
export const USER_STREAM_KEY = 'user';

/**
 * PROTOCOL.md: camera and microphone share one session, a screen share has its own. A screen's
 * stream is keyed by its stream id, so audio captured with the screen travels with it.
 */
export function groupIntoStreams(shared: readonly ShareableMedia[]): Map<string, ShareableMedia[]> {
  const screenStreams = new Set(shared.filter((item) => item.screenCapture).map((item) => item.streamId));
  const groups = new Map<string, ShareableMedia[]>();
  for (const item of shared) {
    const key = screenStreams.has(item.streamId) ? `screen:${item.streamId}` : USER_STREAM_KEY;
    // One item per kind (a Connection sends one audio and one video): the newest wins, since a
    // replacement is shared before the item it replaces is gone.
    const group = (groups.get(key) ?? []).filter((other) => other.kind !== item.kind);
    groups.set(key, [...group, item]);
  }
  return groups;
}

export function sessionKey(peerAddress: string, streamKey: string): string {
  return `${peerAddress}\n${streamKey}`;
}

/**
 * A peer receives from us when it is in the call and asks for media; audio-only peers get our voice
 * only: a screen's sound without its screen could not be told from a microphone on the wire.
 */
function mediaFor(peer: CallPeer, stream: readonly ShareableMedia[]): ShareableMedia[] {
  if (!peer.joinedCall || peer.requestingMedia === 'none') return [];
  return peer.requestingMedia === 'audio' ? stream.filter((item) => item.kind === 'audio' && !item.screenCapture) : [...stream];
}

/**
 * The outgoing sessions this tab should have (PROTOCOL.md one-way sessions): one per (remote peer in
 * the call asking for media, shared local stream with something that peer takes), none while this
 * tab is out of the call. Whether one may start now is the Call's to say (Delivery.startable).
 */
export function planOutgoingSessions(input: SessionPlanInput): PlannedSession[] {
  if (!input.inCall) return [];
  const streams = groupIntoStreams(input.shared);
  const planned: PlannedSession[] = [];
  for (const peer of input.peers) {
    for (const [streamKey, stream] of streams) {
      const media = mediaFor(peer, stream);
      if (media.length > 0) planned.push({ key: sessionKey(peer.address, streamKey), peerAddress: peer.address, streamKey, media });
    }
  }
  return planned;
}

/** How a running session follows a changed plan. */
export type SessionUpdate =
  | { readonly type: 'keep' }
  /** Same kinds, other items (a new camera): swap tracks on the senders, no renegotiation. */
  | { readonly type: 'replace'; readonly media: readonly ShareableMedia[] }
  /** A kind added or dropped: StanzaJS rejects content-add, so the session is ended and started anew. */
  | { readonly type: 'restart' };

export function compareSessionMedia(current: readonly ShareableMedia[], planned: readonly ShareableMedia[]): SessionUpdate {
  const kinds = (media: readonly ShareableMedia[]) =>
    media
      .map((item) => item.kind)
      .sort()
      .join();
  if (kinds(current) !== kinds(planned)) return { type: 'restart' };
  const changed = planned.filter((item) => !current.some((other) => other.id === item.id));
  return changed.length === 0 ? { type: 'keep' } : { type: 'replace', media: changed };
}

/**
 * SPEC §9 inputs for the video budget: the peers our video goes to, and the local videos we share
 * (counted once per stream whether or not every peer takes it).
 */
export function videoSendCounts(planned: readonly PlannedSession[], shared: readonly ShareableMedia[]): { videoReceivingPeers: number; sharedVideoStreams: number } {
  const receivers = new Set(planned.filter((session) => session.media.some((item) => item.kind === 'video')).map((session) => session.peerAddress));
  return { videoReceivingPeers: receivers.size, sharedVideoStreams: shared.filter((item) => item.kind === 'video').length };
}
