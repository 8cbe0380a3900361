import type { Stanzas } from 'stanza';
import type { RoomEventKind } from '../../protocol/entities';
import { hasStatus, MUC_STATUS } from '../rooms/mucStatus';

/** Who is in a room besides us: occupant address → display name. */
export type Roster = ReadonlyMap<string, string>;

/** A line the roster's change says, before it has an id and a time. */
export interface RosterEvent {
  kind: Extract<RoomEventKind, 'joined' | 'left'>;
  address: string;
  displayName: string;
}

/**
 * What a rejoin (after a reconnect) says: the people who came while we were away joined, the ones
 * who went meanwhile left; everyone still there says nothing, so a reconnect does not repeat the
 * whole room as new arrivals.
 */
export function rejoinEvents(before: Roster, after: Roster): RosterEvent[] {
  const left = [...before].filter(([address]) => !after.has(address)).map(([address, displayName]) => ({ kind: 'left' as const, address, displayName }));
  const joined = [...after].filter(([address]) => !before.has(address)).map(([address, displayName]) => ({ kind: 'joined' as const, address, displayName }));
  return [...left, ...joined];
}

/**
 * Why another occupant's unavailable presence took them out of the room (XEP-0045 status codes):
 * banned (301, Parley's kick), kicked (307), or simply left; undefined for a nick change (303),
 * where the same person comes straight back under the new nick.
 */
export function departureOf(info: Stanzas.MUCInfo | undefined): Extract<RoomEventKind, 'left' | 'kicked' | 'banned'> | undefined {
  if (hasStatus(info, MUC_STATUS.nickChanged)) return undefined;
  if (hasStatus(info, MUC_STATUS.banned)) return 'banned';
  if (hasStatus(info, MUC_STATUS.kicked)) return 'kicked';
  return 'left';
}
