import type { Stanzas } from 'stanza';

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
  private readonly sessions = new Map<string, TabSession & { readonly tabId: string }>();

  /** A request of a session between `tabId` (its call's tab; none: not ours to follow) and `peer`. */
  follow(tabId: string | undefined, peer: string, jingle: Stanzas.Jingle): void {
    const key = `${peer}\n${jingle.sid}`;
    if (jingle.action === 'session-terminate') this.sessions.delete(key);
    else if (jingle.action === 'session-initiate' && tabId !== undefined) this.sessions.set(key, { tabId, peer, sid: jingle.sid });
  }

  /** The tab gave a request of this session back (it runs no call there): the session is not its to end. */
  forget(tabId: string, peer: string, sid: string): void {
    const key = `${peer}\n${sid}`;
    if (this.sessions.get(key)?.tabId === tabId) this.sessions.delete(key);
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
