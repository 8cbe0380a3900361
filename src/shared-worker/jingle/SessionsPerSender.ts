import type { Stanzas } from 'stanza';
import { LIMITS } from '../../protocol/constants';

/**
 * The Jingle sessions each sender (an occupant address) has begun with us and not ended, as this
 * worker sees their requests pass, so that no sender has more than LIMITS.jingleSessionsPerSender
 * at once: each one the call's tab accepts costs it an RTCPeerConnection. A session-initiate sent
 * again under a sid already begun (routed again, or a relay consumer made anew under its id) is the
 * same session. A sender who leaves the room takes theirs with them (the tab ends them unsaid). One
 * the tab answered with an error still counts until it ends: StanzaJS keeps such a session, and its
 * connection, until then.
 */
export class SessionsPerSender {
  private readonly begun = new Map<string, Set<string>>();

  /** A request from `sender`: false for a session-initiate past their limit, which must be refused. */
  admit(sender: string, jingle: Stanzas.Jingle): boolean {
    if (jingle.action === 'session-terminate') this.ended(sender, jingle.sid);
    if (jingle.action !== 'session-initiate') return true;
    const sids = this.begun.get(sender) ?? new Set<string>();
    if (sids.has(jingle.sid)) return true;
    if (sids.size >= LIMITS.jingleSessionsPerSender) return false;
    sids.add(jingle.sid);
    this.begun.set(sender, sids);
    return true;
  }

  /** The session `sid` with `peer` is over (a session-terminate either way). */
  ended(peer: string, sid: string): void {
    const sids = this.begun.get(peer);
    sids?.delete(sid);
    if (sids?.size === 0) this.begun.delete(peer);
  }

  /** The sender left the room: their sessions ended with their occupant. */
  senderGone(peer: string): void {
    this.begun.delete(peer);
  }

  /** The connection is gone, and with it every peer (SPEC §4): whoever offers on the next one is counted afresh. */
  clear(): void {
    this.begun.clear();
  }
}
