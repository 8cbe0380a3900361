import { VOLUME } from '../../src/protocol/constants';
import type { Peer } from '../../src/protocol/entities';

/**
 * SPEC §3 Peer fields that presence does not carry, at the spec's defaults: what every peer fresh
 * from presence has. Written out from the spec rather than imported from peerFromPresence, so that
 * tests hold the implementation to the spec.
 */
export const PEER_DEFAULTS = {
  speaking: false,
  lastSpokeAt: undefined,
  muted: false,
  chatState: 'active',
  requestingAttention: false,
  realTimeText: '',
  rtt: undefined,
  volume: 0,
  volumeLimit: VOLUME.peerLimitDefault,
  hasActiveCamera: false,
  hasActiveMicrophone: false,
  hasActiveScreenCapture: false,
  sessionFailed: false,
} as const satisfies Partial<Peer>;
