import { JID } from 'stanza';
import { bareAddress, parseUserAddress } from '../../protocol/addresses';
import { LIMITS } from '../../protocol/constants';
import type { BannedPerson } from '../../protocol/entities';
import { isRecord } from '../../protocol/validate';

/** Display names by bare real address; the oldest go first once the ban list's bound is reached. */
export class KnownNames {
  private readonly byAddress = new Map<string, string>();

  remember(userAddress: string, displayName: string): void {
    this.byAddress.delete(userAddress);
    this.byAddress.set(userAddress, displayName);
    if (this.byAddress.size > LIMITS.banListEntries) this.byAddress.delete(this.byAddress.keys().next().value as string);
  }

  /** The name this session saw, else the address's localpart (a guest's is an opaque id, but it is what there is). */
  nameOf(userAddress: string): string {
    return this.byAddress.get(userAddress) ?? JID.unescapeLocal(JID.getLocal(userAddress) ?? userAddress);
  }
}

/**
 * The outcasts of a muc#admin affiliation list answer (StanzaJS `IQ & { muc: MUCUserList }`),
 * validated: entries without a valid address are skipped, duplicates kept once, at most
 * LIMITS.banListEntries.
 */
export function banListOf(answer: unknown, names: KnownNames): BannedPerson[] {
  const muc = isRecord(answer) ? answer.muc : undefined;
  const users: unknown[] = isRecord(muc) && Array.isArray(muc.users) ? muc.users : [];
  const bans = new Map<string, BannedPerson>();
  for (const user of users) {
    if (bans.size >= LIMITS.banListEntries) break;
    if (!isRecord(user) || user.affiliation !== 'outcast') continue;
    const address = parseUserAddress(user.jid);
    if (!address) continue;
    const userAddress = bareAddress(address);
    const reason = typeof user.reason === 'string' && user.reason ? user.reason.slice(0, LIMITS.reasonLength) : undefined;
    bans.set(userAddress, { userAddress, displayName: names.nameOf(userAddress), reason });
  }
  return [...bans.values()];
}

/** The error condition of a refused request ('forbidden' for a non-owner), for ModerationRefusedError. */
export function refusalCondition(error: unknown): string {
  const condition = isRecord(error) && isRecord(error.error) ? error.error.condition : undefined;
  return typeof condition === 'string' ? condition.slice(0, LIMITS.reasonLength) : 'no answer';
}
