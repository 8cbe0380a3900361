import { parseRoomAddress } from '../../protocol/addresses';
import { LIMITS } from '../../protocol/constants';
import type { Stanzas } from 'stanza';
import type { Room } from '../../protocol/entities';
import { hasStatus, MUC_STATUS } from './mucStatus';
import { OUT_OF_ROOM } from './roomRecord';

/** Why the room sent us our own unavailable presence. */
export type SelfRemoval =
  /** PROTOCOL.md destroy: with an alternate venue (validated bare room address) and its password. */
  | { kind: 'destroyed'; alternate: string | undefined; password: string | undefined; reason: string | undefined; byYou: boolean }
  /** Status 301: our affiliation became outcast (SPEC §6 kick); `reason`: the moderator's `<item><reason>`, if they gave one. */
  | { kind: 'banned'; reason: string | undefined }
  /** Status 307: our role became none; `reason` as for a ban. */
  | { kind: 'kicked'; reason: string | undefined }
  /** Status 303: not a removal; our nick changed and the new one follows in an available presence. */
  | { kind: 'renamed' }
  /** Status 332: not about us; the room stopped running where it ran, and a join starts it again (issue 16). */
  | { kind: 'serviceShutdown' }
  /** Anything else the room did to us (membership lost, …). */
  | { kind: 'removed'; codes: string[] };

function bounded(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined;
}

/** The reason a moderator gave for a kick or ban (XEP-0045 `<item><reason>`), bounded as a destroy's is. */
export function moderatorReason(info: Stanzas.MUCInfo | undefined): string | undefined {
  return bounded(info?.reason, LIMITS.reasonLength);
}

export function selfRemovalOf(info: Stanzas.MUCInfo | undefined): SelfRemoval {
  const destroy = info?.destroy;
  if (destroy) {
    const password = typeof destroy.password === 'string' && destroy.password.length <= LIMITS.roomPasswordLength && destroy.password !== '' ? destroy.password : undefined;
    // The stanza does not say who destroyed the room: this session knows when it did (RoomModeration).
    return { kind: 'destroyed', alternate: parseRoomAddress(destroy.jid), password, reason: bounded(destroy.reason, LIMITS.reasonLength), byYou: false };
  }
  if (hasStatus(info, MUC_STATUS.nickChanged)) return { kind: 'renamed' };
  if (hasStatus(info, MUC_STATUS.serviceShutdown)) return { kind: 'serviceShutdown' };
  if (hasStatus(info, MUC_STATUS.banned)) return { kind: 'banned', reason: moderatorReason(info) };
  if (hasStatus(info, MUC_STATUS.kicked)) return { kind: 'kicked', reason: moderatorReason(info) };
  const codes = (Array.isArray(info?.statusCodes) ? info.statusCodes : []).filter((code): code is string => typeof code === 'string').slice(0, 8);
  return { kind: 'removed', codes: codes.map((code) => code.slice(0, 8)) };
}

/**
 * SPEC §4 room state after a removal other than a destroy with an alternate venue (which is
 * followed instead). A room that stopped on its server (332) put nobody out: it is joined again.
 */
export function selfRemovalChange(
  removal: Exclude<SelfRemoval, { kind: 'renamed' | 'serviceShutdown' }>,
): Pick<Room, 'roomState' | 'joined' | 'selfAddress' | 'rid' | 'error' | 'removal' | 'bans'> & Partial<Pick<Room, 'banned'>> {
  // Out of the room, an owner's ban list is no longer theirs to see.
  const out = { ...OUT_OF_ROOM, bans: undefined };
  switch (removal.kind) {
    case 'banned':
      return { ...out, roomState: 'banned', banned: true, error: `Banned from the room${givenReason(removal.reason)}`, removal: { kind: 'banned', reason: removal.reason } };
    case 'kicked':
      return { ...out, roomState: 'failed', error: `Kicked from the room${givenReason(removal.reason)}`, removal: { kind: 'kicked', reason: removal.reason } };
    case 'destroyed':
      return {
        ...out,
        roomState: 'failed',
        error: `The room was destroyed${givenReason(removal.reason)}`,
        removal: { kind: 'destroyed', reason: removal.reason, byYou: removal.byYou },
      };
    case 'removed':
      return { ...out, roomState: 'failed', error: `Removed from the room (status ${removal.codes.join(', ') || 'none'})`, removal: { kind: 'removed' } };
  }
}

/** The moderator's reason, when they gave one, after the words for what they did. */
function givenReason(reason: string | undefined): string {
  return reason ? `: ${reason}` : '';
}
