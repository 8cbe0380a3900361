import { LIMITS } from '../../protocol/constants';
import type { Stanzas } from 'stanza';
import type { Room } from '../../protocol/entities';
import { joinRefusedError } from '../../protocol/joinRefused';

/** The SPEC §3 Room flags that say why a join was refused. */
type JoinRefusal = 'banned' | 'passwordRequired' | 'roomFull' | 'roomNotStarted';

export type JoinFailure = Pick<Room, 'roomState' | 'joined' | 'error' | JoinRefusal>;

/**
 * A failed join's room state. Every refusal flag is set afresh, the one `refusal` names true and the
 * others false, as SimpleWebRTC 1.30.3's reducer does: an earlier refusal's flag (say roomFull) must
 * not describe a later, different failure.
 */
export function joinFailure(roomState: Room['roomState'], error: string, refusal?: JoinRefusal): JoinFailure {
  return {
    roomState,
    joined: false,
    error,
    banned: refusal === 'banned',
    passwordRequired: refusal === 'passwordRequired',
    roomFull: refusal === 'roomFull',
    roomNotStarted: refusal === 'roomNotStarted',
  };
}

/**
 * SPEC §4 room state and §8 join failures, from the error presence that answers a join:
 * forbidden → banned, not-authorized → password required, service-unavailable → room full,
 * recipient-unavailable → waiting (room not started), anything else → failed.
 */
export function joinErrorChange(presence: Stanzas.Presence): JoinFailure {
  const condition = typeof presence.error?.condition === 'string' ? presence.error.condition.slice(0, LIMITS.reasonLength) : 'unknown';
  const text = typeof presence.error?.text === 'string' ? presence.error.text.slice(0, LIMITS.reasonLength) : undefined;
  const error = joinRefusedError(condition, text);
  switch (condition) {
    case 'forbidden':
      return joinFailure('banned', error, 'banned');
    case 'not-authorized':
      return joinFailure('password-required', error, 'passwordRequired');
    case 'service-unavailable':
      return joinFailure('failed', error, 'roomFull');
    case 'recipient-unavailable':
      return joinFailure('waiting', error, 'roomNotStarted');
    default:
      return joinFailure('failed', error);
  }
}
