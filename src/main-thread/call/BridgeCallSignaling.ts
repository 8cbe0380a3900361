import type { Stanzas } from 'stanza';
import type { JingleCommands, JingleIq } from '../../protocol/commands';
import type { SessionBridge } from '../SessionBridge';
import type { CallSignaling } from './CallSignaling';

/**
 * CallSignaling over this tab's SessionBridge. The bridge has one Jingle handler per tab; requests
 * are dispatched to the Call of the room they come from (a tab could run several rooms' calls).
 */
export class BridgeCallSignaling implements CallSignaling {
  private readonly handlers = new Map<string, (iq: JingleIq) => void>();
  private readonly jingle: JingleCommands;

  constructor(private readonly bridge: Pick<SessionBridge, 'tabId' | 'actions' | 'jingleHandler'>) {
    this.jingle = bridge.actions.jingle;
  }

  send(iq: Stanzas.IQ): Promise<Stanzas.IQ | undefined> {
    return this.jingle.send(iq);
  }

  async claimCall(roomAddress: string, handler: (iq: JingleIq) => void): Promise<void> {
    this.handlers.set(roomAddress, handler);
    this.bridge.jingleHandler = (roomAddress, iq) => this.handlers.get(roomAddress)?.(iq);
    await this.jingle.claimCall(this.bridge.tabId, roomAddress);
  }

  async releaseCall(roomAddress: string): Promise<void> {
    this.handlers.delete(roomAddress);
    await this.jingle.releaseCall(this.bridge.tabId, roomAddress);
  }
}
