import * as JID from 'stanza/JID.js';
import { LIMITS } from './constants';
import { ValidationError } from './errors';

/** Validated XMPP addresses from the wire or a tab: each reader returns undefined for anything malformed. */

function parse(value: unknown): JID.ParsedJID | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > LIMITS.addressLength) return undefined;
  try {
    const jid = JID.parse(value);
    // A domain never holds '@' or '/'; StanzaJS leaves such leftovers in place rather than refusing them.
    return jid.domain && !/[@/]/.test(jid.domain) ? jid : undefined;
  } catch {
    return undefined; // stringprep refused a code point
  }
}

/** A room: `local@domain`, no resource. */
export function parseRoomAddress(value: unknown): string | undefined {
  const jid = parse(value);
  return jid && jid.local && !jid.resource ? jid.bare : undefined;
}

/** An occupant: `room@domain/nick`. */
export function parseOccupantAddress(value: unknown): { room: string; nick: string; full: string } | undefined {
  const jid = parse(value);
  return jid && jid.local && jid.resource ? { room: jid.bare, nick: jid.resource, full: jid.full } : undefined;
}

/** A person's real address as a room shows it to moderators: `local@domain[/resource]`. */
export function parseUserAddress(value: unknown): string | undefined {
  const jid = parse(value);
  return jid && jid.local ? jid.full : undefined;
}

/** The bare form of an address already validated. */
export function bareAddress(address: string): string {
  return JID.toBare(address);
}

/** A room address a tab passed to a command; `what` names it in the error. */
export function expectRoomAddress(value: unknown, what = 'roomAddress'): string {
  const address = parseRoomAddress(value);
  if (!address) throw new ValidationError(`${what} must be a room address (room@service)`);
  return address;
}
