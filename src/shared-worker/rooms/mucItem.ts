import type { Stanzas } from 'stanza';
import { parseUserAddress } from '../../protocol/addresses';
import type { RoomAffiliation, RoomRole } from '../../protocol/entities';

const ROLES: ReadonlySet<string> = new Set<RoomRole>(['moderator', 'participant', 'visitor', 'none']);
const AFFILIATIONS: ReadonlySet<string> = new Set<RoomAffiliation>(['owner', 'admin', 'member', 'outcast', 'none']);

export interface MucItem {
  role: RoomRole;
  affiliation: RoomAffiliation;
  /** The occupant's real address, when the room shows it (to moderators, with whois=moderators). */
  realAddress: string | undefined;
}

/** The `<item role affiliation jid>` of an occupant presence, validated: unknown values read as 'none'. */
export function readMucItem(info: Stanzas.MUCInfo | undefined): MucItem {
  const role = info?.role;
  const affiliation = info?.affiliation;
  return {
    role: typeof role === 'string' && ROLES.has(role) ? (role as RoomRole) : 'none',
    affiliation: typeof affiliation === 'string' && AFFILIATIONS.has(affiliation) ? (affiliation as RoomAffiliation) : 'none',
    realAddress: parseUserAddress(info?.jid),
  };
}
