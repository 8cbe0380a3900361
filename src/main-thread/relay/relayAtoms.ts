import { atom } from 'jotai';
import type { ConsumerProfile } from '../../protocol/relay';
import type { MediaKind } from '../media';
import type { MediaPath } from './PathHandover';

/**
 * How this tab's own media leaves in a room's call:
 * - mesh: the relay is not wanted (too few peers, or no sfuServer in the config);
 * - connecting: wanted, and the relay connection or an ingest is being set up (mesh meanwhile);
 * - relay: at least one shared stream is ingested and goes to peers through the relay;
 * - unavailable: wanted but the relay cannot be reached (mesh meanwhile, retrying).
 */
export type RelayState = 'mesh' | 'connecting' | 'relay' | 'unavailable';

export interface RelayStatus {
  readonly roomAddress: string;
  /** SPEC §4's switch: enough peers request media (the count and its 5 s shutdown delay). */
  readonly wanted: boolean;
  readonly state: RelayState;
  /** Deliveries (peer × stream) now carried by relay consumers. */
  readonly relayedDeliveries: number;
}

/** Per room address: whether your media goes over the mesh or through the relay. */
export const relayStatusAtom = atom<Readonly<Record<string, RelayStatus>>>({});

/** How one received media item arrives. */
export interface ReceivedPath {
  readonly mediaId: string;
  readonly roomAddress: string;
  /** The sender's occupant address. */
  readonly owner: string;
  readonly kind: MediaKind;
  /** relay: the Jingle session's transport was `<ice-lite/>` (a relay consumer); else mesh. */
  readonly path: MediaPath;
  /** Video: the quality this tab asked the sender for (`profile` of the media item). */
  readonly requestedProfile: ConsumerProfile | undefined;
  /** Video: what arrives, from the receiver's statistics (inbound-rtp); undefined until measured. */
  readonly frameWidth: number | undefined;
  readonly frameHeight: number | undefined;
  /**
   * Relay video: the simulcast layer arriving, judged from the frame width against the widest frame
   * this item has shown (the relay's high layer is the sender's full width, medium half, low a
   * quarter); before a wider frame is seen, the layer asked for. `off` while paused. Mesh: undefined.
   */
  readonly layer: ConsumerProfile | undefined;
}

/** Per received media item id (tab-local, like connectionsAtom): which path and, for relay video, which layer. */
export const receivedPathsAtom = atom<Readonly<Record<string, ReceivedPath>>>({});
