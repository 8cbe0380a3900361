import type { Stanzas } from 'stanza';
import { BUSY_RECOMPUTE_AFTER_MS } from '../../protocol/clientDefaults';
import { SESSION_TERMINATION } from '../../protocol/constants';

/** What a session's end means for its peer (SPEC §4 Session termination). */
export interface TerminationOutcome {
  /** The reason is an error condition: the peer is flagged sessionFailed and the error logged. */
  readonly failed: boolean;
  /** Failed sessions: when the peer's sessions are recomputed (a new one started). */
  readonly recomputeAfterMs: number | undefined;
}

/**
 * success and gone end a session normally; every other condition is an error (no reason counts as
 * success). `unanswered`: a session we initiated ended before the peer accepted it. StanzaJS ends
 * such a session as `gone` when the peer answers one of its requests with unknown-session (a peer
 * that declined has forgotten it): that stands for the peer's refusal and waits like one, else a
 * new session would start at once, again and again.
 */
export function terminationOutcome(reason: Pick<Stanzas.JingleReason, 'condition'> | undefined, unanswered = false): TerminationOutcome {
  const condition = reason?.condition ?? 'success';
  if (condition === 'success' || (condition === 'gone' && !unanswered)) return { failed: false, recomputeAfterMs: undefined };
  return { failed: true, recomputeAfterMs: recomputeDelayOf(condition) };
}

/**
 * SPEC §4: how long after a session failed with `condition` its peer's sessions are recomputed;
 * `busy` (an offer its receiver refused to wait, JingleLink) longer: BUSY_RECOMPUTE_AFTER_MS.
 */
export function recomputeDelayOf(condition: string): number {
  if (condition === 'busy') return BUSY_RECOMPUTE_AFTER_MS;
  return condition === 'failed-transport' ? SESSION_TERMINATION.recomputeAfterFailedTransportMs : SESSION_TERMINATION.recomputeAfterOtherErrorMs;
}

/** The part of a session (StanzaJS's ICESession) that says whether its connection is down. */
export interface ConnectionStanding {
  readonly connectionState: string;
  /** Our ICE restart (StanzaJS's restartIce) that the receiver has not answered yet. */
  readonly restartingIce: boolean;
}

/**
 * A session down that may yet come back, ended as failed-transport when it lasts 5 s: disconnected
 * or interrupted (SPEC §4), and — given the same 5 s — ours whose ICE failed and is being restarted
 * (`failed`, then checking an unanswered restart): its receiver's session-terminate may be lost, and
 * nothing else would end it. A receiver's `failed` ends at once (endsAtOnce).
 */
export function isInterrupted(session: ConnectionStanding): boolean {
  const { connectionState } = session;
  return connectionState === 'disconnected' || connectionState === 'interrupted' || connectionState === 'failed' || (session.restartingIce && connectionState !== 'connected');
}

/** A responder whose ICE failed ends at once, so that the initiator (which alone restarts) starts again. */
export function endsAtOnce(connectionState: string, isInitiator: boolean): boolean {
  return connectionState === 'failed' && !isInitiator;
}
