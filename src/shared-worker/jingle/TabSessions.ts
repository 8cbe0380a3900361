import type { Stanzas } from 'stanza';
import { LIMITS } from '../../protocol/constants';

/**
 * Sessions with one person kept at most: theirs with us are bounded by LIMITS.jingleSessionsPerSender
 * (SessionsPerSender), and ours with them are fewer.
 */
const MAX_SESSIONS_PER_PEER = 2 * LIMITS.jingleSessionsPerSender;

/** One Jingle session a tab runs with a peer. */
export interface TabSession {
  readonly peer: string;
  readonly sid: string;
}

/**
 * The Jingle sessions each tab's call runs, as this worker sees their requests pass: begun by a
 * session-initiate either way, over with a session-terminate either way. A tab can go without
 * ending its sessions (reloaded, crashed, closed while another tab of the session stays); its
 * peers would keep them until their ICE has been silent 5 s (SPEC §4) before offering anew to the
 * tab that takes the call over, so the router ends them for it (`JingleRouter.releaseTab`).
 */
export class TabSessions {
  /** In the order they began, so the oldest of a person's go first. */
  private readonly sessions = new Map<string, TabSession & { readonly tabId: string }>();

  /**
   * A request of a session between `tabId` (its call's tab; none: not ours to follow) and `peer`.
   * A tab ends silently the sessions of someone who left (their end is theirs), so those stay here
   * until this person's sessions pass MAX_SESSIONS_PER_PEER, when the oldest is forgotten: what is
   * kept stays bounded however often people come and go.
   */
  follow(tabId: string | undefined, peer: string, jingle: Stanzas.Jingle): void {
    const key = `${peer}\n${jingle.sid}`;
    if (jingle.action === 'session-terminate') this.sessions.delete(key);
    else if (jingle.action === 'session-initiate' && tabId !== undefined) {
      this.sessions.delete(key);
      this.sessions.set(key, { tabId, peer, sid: jingle.sid });
      this.forgetOldestPast(peer);
    }
  }

  /** The tab gave a request of this session back (it runs no call there): the session is not its to end. */
  forget(tabId: string, peer: string, sid: string): void {
    const key = `${peer}\n${sid}`;
    if (this.sessions.get(key)?.tabId === tabId) this.sessions.delete(key);
  }

  private forgetOldestPast(peer: string): void {
    const keys = [...this.sessions].filter(([, session]) => session.peer === peer).map(([key]) => key);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_SESSIONS_PER_PEER))) this.sessions.delete(key);
  }

  /** The tab is gone: the sessions it left running, forgotten here. */
  takeAll(tabId: string): TabSession[] {
    const left: TabSession[] = [];
    for (const [key, session] of this.sessions) {
      if (session.tabId !== tabId) continue;
      this.sessions.delete(key);
      left.push({ peer: session.peer, sid: session.sid });
    }
    return left;
  }
}
