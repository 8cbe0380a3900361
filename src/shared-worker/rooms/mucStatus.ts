import type { Stanzas } from 'stanza';

/** XEP-0045 status codes Parley acts on. */
export const MUC_STATUS = {
  selfPresence: '110',
  configurationChanged: '104',
  banned: '301',
  kicked: '307',
  nickChanged: '303',
  /** The room's service went away (a shutdown, or on ejabberd the cluster node the room ran on died). */
  serviceShutdown: '332',
} as const;

/**
 * The room's `<x xmlns='…muc#user'>` of a presence or message, when it has one. StanzaJS leaves its
 * `type` unset on import: what is neither a join `<x>` nor a direct invite is the muc#user one.
 */
export function mucInfoOf(stanza: Stanzas.Presence | Stanzas.Message): Stanzas.MUCInfo | undefined {
  const muc: { type?: string } | undefined = stanza.muc;
  return muc && muc.type !== 'join' && muc.type !== 'direct-invite' ? (muc as Stanzas.MUCInfo) : undefined;
}

export function hasStatus(info: Stanzas.MUCInfo | undefined, code: string): boolean {
  return Array.isArray(info?.statusCodes) && info.statusCodes.includes(code);
}
