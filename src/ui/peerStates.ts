import type { Peer } from '../protocol/entities';

/**
 * A peer's states in words, in the order a participant entry reads them (DESIGN "Run contract":
 * "owner", "muted", "speaking", "sharing screen"; plus "you" for yourself, and "in call" for
 * whoever is in the room's call, since a room also holds people who only chat).
 */
export function peerStates(peer: Peer): string[] {
  const states: string[] = [];
  if (peer.isSelf) states.push('you');
  if (peer.affiliation === 'owner') states.push('owner');
  if (peer.joinedCall) states.push('in call');
  if (peer.muted) states.push('muted');
  if (peer.speaking) states.push('speaking');
  if (peer.hasActiveScreenCapture) states.push('sharing screen');
  if (peer.requestingAttention) states.push('asking for attention');
  return states;
}
