import type { Stanzas } from 'stanza';
import type { SessionManager } from 'stanza/jingle';
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
    try {
      const answer = await this.signaling.send(iq);
      if (iq.type === 'set' && answer) this.manager.process({ ...answer, jingle: { ...answer.jingle, sid } });
      return true;
    } catch (error) {
      // A timeout answer has no sender: the manager could not attribute it, so it is only logged.
      if (isIq(error) && error.from) this.manager.process({ ...error, jingle: { ...(error.jingle ?? iq.jingle), sid } });
      else this.logger.error(new JingleSendError(iq.jingle?.action, isIq(error) ? error.error?.condition : error).message);
      return false;
    }
  }
}
