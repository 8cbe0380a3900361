import type { Stanzas } from 'stanza';
import type { SimulcastProfile } from '../../protocol/stanzas/talkyJingle';
import type { MediaItem, MediaItems } from '../media';
import { describeTracks, type MediaDescription } from './descriptionInfo';
import type { PlannedSession, ShareableMedia } from './sessionPlan';

/** The two ways a stream reaches a peer (DESIGN "Media paths"). */
export type PathName = 'mesh' | 'relay';

/** One (remote peer, shared local stream) delivery, whichever path carries it. */
export interface Delivery extends PlannedSession {
  /** The receiver's sid (Peer.id): the relay names the receiving peer by it (CREATE_CONSUMER's peerId). */
  readonly peerId: string;
  /**
   * A session to the receiver may start (or start anew) now: the room lists them, so signalling
   * reaches them — an offer made while the chat server is down, or to someone held through an
   * outage who is not back yet, would never be answered (issue 13) — and no failed session holds
   * them back (SPEC §4's recompute delay). Otherwise the running one is left as it is.
   */
  readonly startable: boolean;
}

/**
 * One way of carrying this tab's shared streams to the people of the call: the mesh (one-way Jingle
 * sessions, call/mesh/) or the relay (ingest and consumers, call/relay/). The Call decides, for
 * each delivery, which path carries it (pathPlan); the paths never know of each other.
 *
 * Both paths also do, inside, what every delivery needs: describe its tracks (names and screen
 * marks, `describeDelivery`), honour the receiver's quality request (`qualityRequestOf`: the mesh
 * pauses or resumes its video, the relay picks the simulcast layer) and report to the one
 * ConnectionRecords writer.
 */
export interface MediaPath {
  readonly name: PathName;
  /** Publishes the shared local streams while `wanted` (the relay connects and ingests them; the mesh needs nothing). */
  publish(streams: ReadonlyMap<string, readonly ShareableMedia[]>, wanted: boolean): void;
  /** The path can carry this stream now (the mesh always can; the relay once its ingest is connected). */
  canCarry(streamKey: string): boolean;
  /** Carries exactly these deliveries from now on: new ones start, changed ones follow, the rest end. */
  deliver(deliveries: readonly Delivery[]): void;
  /** A delivery of this plan key runs (or starts) on this path. */
  carries(key: string): boolean;
  /** …and is established (PathChange's PathHandover: connected for the grace, its receiver decoding): what it replaces may stop. */
  established(key: string): boolean;
  /** SPEC §4: a local item was muted or unmuted: tell the receivers of every delivery that sends it. */
  mute(item: MediaItem, muted: boolean): void;
  /**
   * Issue 13: these people are reachable again after an outage, and what they may have missed is
   * said again: on each answered delivery to them its names, screen marks and mute state; a
   * delivery they never answered (its offer or their answer lost in the outage) is offered anew.
   */
  catchUp(peerAddresses: ReadonlySet<string>): void;
  /** SPEC §9: the budget of each sent video. */
  setMaxBitrate(bitrate: number): void;
  /** The senders of the video this path sends now, over connections that are up: their receivers' reports say what arrives (SendLossWatch). */
  videoSenders(): RTCRtpSender[];
  /** Something the choice of paths depends on changed (a connection, an ingest, a held delivery released). */
  on(event: 'changed', listener: () => void): () => void;
  close(): Promise<void>;
}

/** PROTOCOL.md: a delivery's names and screen marks, as description-info contents (empty when there is nothing to say). */
export function describeDelivery(media: MediaItems, sent: readonly ShareableMedia[]): Stanzas.JingleContent[] {
  return describeTracks(
    sent.map((item) => ({
      kind: item.kind,
      trackId: media.getTrack(item.id)?.id ?? item.id,
      name: media.get(item.id)?.name,
      screenCapture: item.screenCapture,
    })),
  );
}

/** The receiver's request for our video's quality in a description-info, if it makes one (PROTOCOL.md simulcast profile). */
export function qualityRequestOf(descriptions: readonly MediaDescription[]): SimulcastProfile | undefined {
  return descriptions.find((description) => description.kind === 'video' && description.profile !== undefined)?.profile;
}
