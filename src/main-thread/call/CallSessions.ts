import type { Stanzas } from 'stanza';
import type { JingleReasonCondition } from 'stanza/Constants';
import type { SessionManager, Session as BaseSession } from 'stanza/jingle';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { TypedEmitter } from '../../common/TypedEmitter';
import { CallSession } from './CallSession';
import type { ConnectionRecords } from './ConnectionRecords';
import { SessionFailedError } from './errors';
import { SESSION_CONNECT_LIMIT_MS } from '../../protocol/clientDefaults';
import type { ParleyMediaSession } from './ParleyMediaSession';
import { SessionTimers } from './SessionTimers';
import { endsAtOnce, isInterrupted, terminationOutcome } from './termination';
import { errorMessage } from '../../common/errorMessage';

export interface CallSessionsOptions {
  readonly roomAddress: string;
  /** The call's SessionManager: its events about our sessions arrive here. */
  readonly manager: SessionManager;
  readonly records: ConnectionRecords;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface CallSessionsEvents {
  /** A session ended and is forgotten: whoever made it lets go of what it made (sent state, received media). */
  ended: [call: CallSession];
  /** The peer answered a session we send (session-accept applied). */
  accepted: [call: CallSession];
  /** A session's ICE state changed (its record is updated already). */
  connectionState: [call: CallSession, state: string];
  /** A session ended with an error condition (logged; its peer is held back, and flagged: SessionFailures). */
  sessionFailed: [error: SessionFailedError];
  /** The plan depends on this: a session ended, a held peer was released. */
  changed: [];
}

/**
 * The Jingle sessions (ParleyMediaSession) of the call, both ways, and their life by SPEC §4
 * Session termination: a responder whose ICE failed ends at once; one disconnected or interrupted
 * for 5 s ends as failed-transport, and so does an initiator whose ICE failed and whose restart has
 * not brought it back by then (its receiver's session-terminate may be lost), and — beyond the spec — one not connected
 * SESSION_CONNECT_LIMIT_MS after it was made; an end with an error condition is reported (`sessionFailed`:
 * the Call flags the peer, SessionFailures) and holds the peer back from new sessions for the recompute delay. Each session's Connection record
 * follows it (ConnectionRecords). The mesh path makes the sessions we send, receive/ those we receive.
 */
export class CallSessions extends TypedEmitter<CallSessionsEvents> {
  private readonly byId = new Map<string, CallSession>();
  private readonly timers: SessionTimers;
  private closed = false;
  private readonly unsubscribes: Array<() => void> = [];

  constructor(private readonly options: CallSessionsOptions) {
    super();
    this.timers = new SessionTimers(options.clock);
    const { manager } = options;
    const terminated = (session: BaseSession, reason: Stanzas.JingleReason | undefined): void => this.onTerminated(session, reason);
    const connectionState = (session: BaseSession): void => this.onConnectionState(session);
    const sessionState = (session: BaseSession): void => this.publish(this.get(session));
    const accepted = (session: BaseSession): void => this.onAccepted(session);
    manager.on('terminated', terminated);
    manager.on('accepted', accepted);
    manager.on('connectionState', connectionState);
    manager.on('sessionState', sessionState);
    this.unsubscribes.push(() => {
      manager.off('terminated', terminated);
      manager.off('accepted', accepted);
      manager.off('connectionState', connectionState);
      manager.off('sessionState', sessionState);
    });
  }

  /** Peers held back after a failure: no new session starts to them meanwhile (Delivery.startable). */
  get held(): ReadonlySet<string> {
    return this.timers.held;
  }

  register(session: ParleyMediaSession, key: string | undefined): CallSession {
    const call = new CallSession(session, key);
    this.byId.set(session.sid, call);
    this.timers.watchConnecting(call.sid, () => {
      if (!this.isCurrent(call) || call.session.connectionState === 'connected') return;
      this.options.logger.error(`session ${call.sid} with ${call.peerAddress} not connected ${SESSION_CONNECT_LIMIT_MS / 1_000} s after it was made (${call.session.connectionState}): started anew`);
      this.end(call, 'failed-transport');
    });
    return call;
  }

  /** The CallSession of a StanzaJS session: none once it has ended, nor for one whose sid another has taken. */
  get(session: BaseSession): CallSession | undefined {
    const call = this.byId.get(session.sid);
    return call?.session === session ? call : undefined;
  }

  /** The session is still this call's (not ended, not replaced). */
  isCurrent(call: CallSession): boolean {
    return this.byId.get(call.sid) === call;
  }

  all(): CallSession[] {
    return [...this.byId.values()];
  }

  /** Ends a session; one the peer never heard of (its initiate not sent yet) ends silently. */
  end(call: CallSession, reason: JingleReasonCondition): void {
    call.declined = reason === 'decline';
    call.session.end(reason, call.session.state === 'starting');
  }

  /** Runs a step on the session's queue; a failure is logged (StanzaJS has ended the session if it must). */
  run(call: CallSession, name: string, step: () => Promise<void>): Promise<void> {
    return call.queue.push(name, step).catch((error: unknown) => {
      if (this.isCurrent(call)) this.options.logger.error(`${name} on session ${call.sid} failed: ${errorMessage(error)}`);
    });
  }

  /** The session's Connection record, as it is now. */
  publish(call: CallSession | undefined): void {
    if (call && this.isCurrent(call)) this.options.records.set(call.connection(this.options.roomAddress));
  }

  /** Ends every session: the call closes. */
  close(): void {
    this.closed = true;
    for (const call of this.all()) this.end(call, 'success');
    this.timers.clear();
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
  }

  private onConnectionState(session: BaseSession): void {
    const call = this.get(session);
    if (!call) return;
    const state = session.connectionState;
    this.publish(call);
    this.emit('connectionState', call, state);
    if (state === 'connected') this.timers.stopConnecting(call.sid);
    if (isInterrupted(call.session)) {
      this.timers.watchInterrupted(call.sid, () => {
        if (this.isCurrent(call) && isInterrupted(call.session)) this.end(call, 'failed-transport');
      });
    } else {
      this.timers.stopWatching(call.sid);
    }
    if (endsAtOnce(state, session.isInitiator)) this.end(call, 'failed-transport');
  }

  private onAccepted(session: BaseSession): void {
    const call = this.get(session);
    if (!call?.sending) return;
    call.answered = true;
    this.emit('accepted', call);
  }

  private onTerminated(session: BaseSession, reason: Stanzas.JingleReason | undefined): void {
    const call = this.get(session);
    // StanzaJS may report an ended session twice (a failed start ends it again).
    if (!call) return;
    this.byId.delete(call.sid);
    call.queue.close();
    this.timers.stopWatching(call.sid);
    this.timers.stopConnecting(call.sid);
    this.options.records.remove(call.sid);
    this.emit('ended', call);
    const outcome = terminationOutcome(reason, call.sending && !call.answered);
    // Our own decline is no failure of the peer's.
    if (outcome.failed && outcome.recomputeAfterMs !== undefined && !this.closed && !call.declined) {
      const error = new SessionFailedError(call.sid, call.peerAddress, reason?.condition ?? 'unknown', reason?.text, !call.sending);
      this.options.logger.error(error.message);
      this.timers.hold(call.peerAddress, outcome.recomputeAfterMs, () => this.emit('changed'));
      this.emit('sessionFailed', error);
    }
    this.emit('changed');
  }
}
