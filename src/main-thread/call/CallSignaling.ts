import type { Stanzas } from 'stanza';
import type { JingleIq } from '../../protocol/commands';

/** What a Call needs from the shared session: the Jingle path and call ownership for its room. */
export interface CallSignaling {
  /** Sends a Jingle request (resolves with the peer's answer, rejects with its error IQ) or an answer to one. */
  send(iq: Stanzas.IQ): Promise<Stanzas.IQ | undefined>;
  /** Routes the room's Jingle requests to `handler` (this tab) from now on. */
  claimCall(roomAddress: string, handler: (iq: JingleIq) => void): Promise<void>;
  releaseCall(roomAddress: string): Promise<void>;
}
