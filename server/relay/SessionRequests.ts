import type { RelayRequestId, RelayResponse } from '../../src/protocol/relay';

/** What becomes of a request by its id: it runs, it is running already, or it was answered (with this answer). */
export type Admission = { readonly run: true } | { readonly run: false; readonly answer?: RelayResponse };

/**
 * A resumable session's requests by id (src/protocol/relay.ts, "asked again"): its client sends
 * the requests its dropped socket left unanswered again on the socket that resumed the session,
 * and each is answered once — from the answers kept (the latest `kept`), when it was answered
 * meanwhile; by its own answer still to come, when it is running.
 */
export class SessionRequests {
  private readonly running = new Set<RelayRequestId>();
  private readonly answered = new Map<RelayRequestId, RelayResponse>();

  constructor(private readonly kept: number) {}

  admit(id: RelayRequestId): Admission {
    const answer = this.answered.get(id);
    if (answer !== undefined) return { run: false, answer };
    if (this.running.has(id)) return { run: false };
    this.running.add(id);
    return { run: true };
  }

  settle(id: RelayRequestId, answer: RelayResponse): void {
    this.running.delete(id);
    this.answered.set(id, answer);
    // A Map iterates in insertion order: the first key is the oldest answer.
    if (this.answered.size > this.kept) this.answered.delete(this.answered.keys().next().value!);
  }
}
