import { JID } from 'stanza';
import { CHAT_LIMITS } from './limits';

/** Validated XMPP addresses from the wire or a tab: each reader returns undefined for anything malformed. */

function parse(value: unknown): JID.ParsedJID | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > CHAT_LIMITS.addressLength) return undefined;
  try {
    const jid = JID.parse(value);
    // A domain never holds '@' or '/'; StanzaJS leaves such leftovers in place rather than refusing them.
    return jid.local && jid.domain && !/[@/]/.test(jid.domain) ? jid : undefined;
  } catch {
    return undefined; // stringprep refused a code point
  }
}

/** A room: `local@domain`, no resource. */
export function parseRoomAddress(value: unknown): string | undefined {
  const jid = parse(value);
  return jid && !jid.resource ? jid.bare : undefined;
}

/** An occupant: `room@domain/nick`. */
export function parseOccupantAddress(value: unknown): { room: string; full: string } | undefined {
  const jid = parse(value);
  return jid && jid.resource ? { room: jid.bare, full: jid.full } : undefined;
}
