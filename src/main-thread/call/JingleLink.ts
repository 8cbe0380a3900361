import type { Stanzas } from 'stanza';
import { JingleAction, JingleReasonCondition } from 'stanza/Constants';
import type { Session, SessionManager } from 'stanza/jingle';
import type { JingleIq } from '../../protocol/commands';
import type { Logger } from '../../common/logger';
import type { CallSignaling } from './CallSignaling';
import { JingleSendError } from './errors';

/** What SessionManager emits as 'send': a request, or our answer (no jingle element) to one. */
type OutgoingIq = Stanzas.IQ & { jingle?: Stanzas.Jingle };

function isIq(value: unknown): value is OutgoingIq {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

/**
 * The wiring that StanzaJS's jingle plugin does inside a client, split across threads: requests the
 * worker routes to this tab go into the SessionManager; what it sends goes to the worker, and the
 * peer's answer (or error) comes back into the manager with the session id, as the plugin does.
 */
export class JingleLink {
  /** Each request's outcome, by the Jingle payload its session sent (`delivered`). */
  private readonly outcomes = new WeakMap<object, Promise<boolean>>();

  constructor(
    private readonly manager: SessionManager,
    private readonly signaling: CallSignaling,
    private readonly logger: Logger,
  ) {
    manager.on('send', (iq: OutgoingIq) => {
      const outcome = this.forward(iq);
      if (iq.jingle) this.outcomes.set(iq.jingle, outcome);
    });
  }

  /**
   * Whether a request a session sent (its Jingle payload, the object the session passed to `send`)
   * reached its peer: true once answered, false when it could not go (signalling down) or the peer
   * answered with an error; undefined for a payload never sent.
   */
  delivered(request: object): Promise<boolean> | undefined {
    return this.outcomes.get(request);
  }

  receive(iq: JingleIq): void {
    this.manager.process(iq);
  }

  private async forward(iq: OutgoingIq): Promise<boolean> {
    const sid = iq.jingle?.sid ?? '';
    // The session that sends it: by the time the answer comes, another may have taken its sid (a relay consumer made anew under its id).
    const sender = this.manager.sessions[sid];
    try {
      const answer = await this.signaling.send(iq);
      if (iq.type === 'set' && answer) this.manager.process({ ...answer, jingle: { ...answer.jingle, sid } });
      return true;
    } catch (error) {
      const answer = isIq(error) ? error : undefined;
      // A timeout answer has no sender: the manager could not attribute it, so it is only logged.
      if (answer?.from) this.manager.process({ ...answer, jingle: { ...(answer.jingle ?? iq.jingle), sid } });
      else this.logger.error(new JingleSendError(iq.jingle?.action, answer ? answer.error?.condition : error).message);
      if (answer && sender && iq.jingle?.action === JingleAction.SessionInitiate) this.endUnanswered(sender, answer.error);
      return false;
    }
  }

  /**
   * An offer refused or timed out leaves StanzaJS's session pending for good (its manager ends one
   * only on unknown-session or tie-break), and the plan starts no other while it is: it ends as a
   * failure, to be offered anew after SPEC §4's hold. Said to the peer, which may hold it all the
   * same (a StanzaJS receiver that could not apply the offer answers general-error and keeps it; a
   * request that timed out may have arrived). Not after a lost connection (no answer at all): the
   * catch-up after the outage offers anew what was never answered (MeshPath.catchUp).
   */
  private endUnanswered(session: Session, error: Stanzas.StanzaError | undefined): void {
    if (this.manager.sessions[session.sid] !== session || session.state !== 'pending') return;
    session.end(unansweredReason(error));
  }
}

/**
 * The reason an unanswered offer ends with: `busy` for a refusal to wait (the receiver's session
 * worker holds as many of our sessions as it takes, JingleRouter; held back longer,
 * termination.recomputeDelayOf), `timeout` for no answer, else failed-application, as the
 * receiver ends an offer it could not take (ParleyMediaSession.onSessionInitiate).
 */
function unansweredReason(error: Stanzas.StanzaError | undefined): Stanzas.JingleReason {
  // StanzaJS's sendIQ gives up with a condition of its own, none of XMPP's.
  const said: string | undefined = error?.condition;
  if (said === 'timeout') return { condition: JingleReasonCondition.Timeout };
  const condition = error?.type === 'wait' ? JingleReasonCondition.Busy : JingleReasonCondition.FailedApplication;
  return said ? { condition, text: said } : { condition };
}
