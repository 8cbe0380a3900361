import { atom } from 'jotai';

/**
 * How this tab's own media leaves in a room's call:
 * - mesh: the relay is not wanted (too few peers, or no sfuServer in the config);
 * - connecting: wanted, and the relay connection or an ingest is being set up (mesh meanwhile);
 * - relay: at least one shared stream is ingested and goes to peers through the relay;
 * - unavailable: wanted but the relay cannot be reached, or did not take a stream we share (mesh meanwhile, retrying).
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
