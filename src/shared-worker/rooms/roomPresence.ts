import { displayNameOrDefault } from '../../protocol/displayName';
import type { Stanzas } from 'stanza';
import type { CallRecord } from '../../protocol/entities';

export interface RoomPresenceInput {
  /** Our occupant address: room@muc/nick. */
  occupant: string;
  /** SPEC §3 preferences.displayName, sent as `<nick>` (XEP-0172). */
  displayName: string;
  /** The room's call record: `<conf media>` while joined to the call (PROTOCOL.md). */
  call: CallRecord | undefined;
  /** Present for the join itself: the MUC `<x>` with the password; a rejoin asks for the history since a time. */
  join?: { password: string | undefined; historySince?: number | undefined };
}

/**
 * The one place every presence to a room is built (join, rejoin, call and name changes), so that
 * each carries the whole current state: a later presence replaces the earlier one in the room.
 */
export function buildRoomPresence(input: RoomPresenceInput): Stanzas.Presence {
  const nick = displayNameOrDefault(input.displayName);
  const presence: Stanzas.Presence = { to: input.occupant, nick };
  if (input.join) {
    const { password, historySince } = input.join;
    presence.muc = {
      type: 'join',
      ...(password ? { password } : {}),
      ...(historySince !== undefined ? { history: { since: new Date(historySince) } } : {}),
    };
  }
  if (input.call?.joined) presence.mmucConf = { media: input.call.requestingMedia };
  return presence;
}

/** What a room sees of a presence, to skip sending one that changes nothing. */
export function roomPresenceKey(presence: Stanzas.Presence): string {
  return JSON.stringify([presence.to, presence.nick, presence.mmucConf?.media ?? null, presence.mmucConf !== undefined]);
}
