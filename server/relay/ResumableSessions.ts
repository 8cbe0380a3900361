import { randomBytes } from 'node:crypto';
import { NotFoundError } from './errors';
import type { RelaySession } from './RelaySession';

/** The socket that holds a session: it is dropped when a new socket takes the session over. */
export interface SessionHolder {
  handOver(): void;
}

interface Entry {
  readonly session: RelaySession;
  readonly user: string;
  holder: SessionHolder | undefined;
  expiry: NodeJS.Timeout | undefined;
}

/**
 * The relay's resumable sessions (src/protocol/relay.ts, "a connection that outlives its socket"):
 * one whose socket dropped waits `graceMs` for an AUTH `resume` by the same user before it closes.
 * The id is random and unguessable: with the user's token it is what takes a session over.
 */
export class ResumableSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly graceMs: number) {}

  /** A new id for a resumable session. */
  newId(): string {
    return randomBytes(18).toString('base64url');
  }

  add(session: RelaySession, user: string, holder: SessionHolder): void {
    if (session.resumeId === undefined) return;
    this.entries.set(session.resumeId, { session, user, holder, expiry: undefined });
  }

  /**
   * `holder`'s socket closed. `dropped` (no close frame) keeps a resumable session for its client;
   * otherwise the session ends. A session another socket has taken over is that socket's.
   */
  release(session: RelaySession, holder: SessionHolder, dropped: boolean): void {
    const entry = session.resumeId === undefined ? undefined : this.entries.get(session.resumeId);
    if (entry && entry.holder !== holder) return;
    if (!entry || !dropped || session.isClosed) {
      if (entry) this.forget(entry);
      session.close();
      return;
    }
    entry.holder = undefined;
    session.detach();
    entry.expiry = setTimeout(() => {
      this.forget(entry);
      session.close();
    }, this.graceMs);
    entry.expiry.unref();
  }

  /**
   * AUTH `resume`: the session goes to `holder`. Its old socket, if the relay still takes it for
   * open (the client noticed the fault first), is dropped.
   */
  take(id: string, user: string, holder: SessionHolder): RelaySession {
    const entry = this.entries.get(id);
    if (!entry || entry.user !== user || entry.session.isClosed) {
      throw new NotFoundError(`no relay session to resume: it ended (a clean close, or no new socket within ${this.graceMs / 1000} s)`);
    }
    clearTimeout(entry.expiry);
    entry.expiry = undefined;
    const previous = entry.holder;
    entry.holder = holder;
    previous?.handOver();
    return entry.session;
  }

  /** Sessions no socket holds now, for the relay's stats. */
  waiting(): RelaySession[] {
    return [...this.entries.values()].filter((entry) => entry.holder === undefined && !entry.session.isClosed).map((entry) => entry.session);
  }

  /** The relay stops: every waiting session closes. */
  closeAll(): void {
    for (const entry of [...this.entries.values()]) {
      this.forget(entry);
      if (entry.holder === undefined) entry.session.close();
    }
  }

  private forget(entry: Entry): void {
    clearTimeout(entry.expiry);
    if (entry.session.resumeId !== undefined) this.entries.delete(entry.session.resumeId);
  }
}
