import { atom } from 'jotai';
import type { Peer } from '../../protocol/entities';
import type { ConsumerProfile } from '../../protocol/relay';
import type { MediaKind } from '../media';
import type { Connection } from './Connection';
import type { PathName } from './MediaPath';

/**
 * SPEC §3 Connections of this tab's calls, by Jingle sid (tab-local: they name live media by id).
 * Written only by ConnectionRecords; the call tab reads them for each person's connection hint.
 */
export const connectionsAtom = atom<Readonly<Record<string, Connection>>>({});

/** How one received media item arrives. */
export interface ReceivedPath {
  readonly mediaId: string;
  readonly roomAddress: string;
  /** The sender's occupant address. */
  readonly owner: string;
  readonly kind: MediaKind;
  /** relay: the Jingle session's transport was `<ice-lite/>` (a relay consumer); else mesh. */
  readonly path: PathName;
  /** Video: the quality this tab asked the sender for (`profile` of the media item). */
  readonly requestedProfile: ConsumerProfile | undefined;
  /** Video: the size its frames show at, as the page's element reports it; undefined until a frame shows. */
  readonly frameWidth: number | undefined;
  readonly frameHeight: number | undefined;
  /**
   * Relay video: the simulcast layer arriving, judged from the frame width against the widest frame
   * this item has shown, and never less than the relay senders' capture width (the relay's high layer
   * is the sender's full width, medium half, low a quarter); undefined until a frame shows. `off`
   * while paused. Mesh: undefined.
   */
  readonly layer: ConsumerProfile | undefined;
  /**
   * Camera video: its frames have stood still for `CAMERA_STOP.stoppedAfterMs` while its sender says
   * it is on, it is asked for and its connection is up — a stall on the way (receive/CamerasByFrames),
   * which its tile tells of until frames move again.
   */
  readonly framesStalled: boolean;
}

/** Per received media item id (tab-local, like connectionsAtom): which path and, for relay video, which layer. */
export const receivedPathsAtom = atom<Readonly<Record<string, ReceivedPath>>>({});

/**
 * Per room address, the people its call still follows although the room does not list them now:
 * the connection was lost, or we are back and they are not yet (call/RejoinHold), or theirs was
 * replaced (call/DepartureHold). Their tiles stay, and the Participants list keeps them.
 */
export const heldPeersAtom = atom<Readonly<Record<string, readonly Peer[]>>>({});
