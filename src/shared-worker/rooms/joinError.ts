import { LIMITS } from '../../protocol/constants';
import type { Stanzas } from 'stanza';
import type { Room } from '../../protocol/entities';

export type JoinErrorChange = Pick<Room, 'roomState' | 'joined' | 'error'> & Partial<Pick<Room, 'banned' | 'passwordRequired' | 'roomFull' | 'roomNotStarted'>>;

/**
 * SPEC §4 room state and §8 join failures, from the error presence that answers a join:
 * forbidden → banned, not-authorized → password required, service-unavailable → room full,
 * recipient-unavailable → waiting (room not started), anything else → failed.
 */
export function joinErrorChange(presence: Stanzas.Presence): JoinErrorChange {
  const condition = typeof presence.error?.condition === 'string' ? presence.error.condition.slice(0, LIMITS.reasonLength) : 'unknown';
  const text = typeof presence.error?.text === 'string' ? presence.error.text.slice(0, LIMITS.reasonLength) : undefined;
  const error = `join refused: ${condition}${text ? ` (${text})` : ''}`;
  switch (condition) {
    case 'forbidden':
      return { roomState: 'banned', joined: false, banned: true, error };
    case 'not-authorized':
      return { roomState: 'password-required', joined: false, passwordRequired: true, error };
    case 'service-unavailable':
      return { roomState: 'failed', joined: false, roomFull: true, error };
    case 'recipient-unavailable':
      return { roomState: 'waiting', joined: false, roomNotStarted: true, error };
    default:
      return { roomState: 'failed', joined: false, error };
  }
}
