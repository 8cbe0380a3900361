import type { Stanzas } from 'stanza';
import type { JingleCommands, JingleIq } from '../../protocol/commands';
import { UNCLAIMED_CALL_HOLD } from '../../protocol/constants';
import type { SessionBridge } from '../SessionBridge';
import type { CallSignaling } from './CallSignaling';

/** The most requests the session holds for a room whose call no tab has claimed (UNCLAIMED_CALL_HOLD). */
const HELD_PER_ROOM = UNCLAIMED_CALL_HOLD.sessionsPerRoom * UNCLAIMED_CALL_HOLD.requestsPerSession;

/**
 * CallSignaling over this tab's SessionBridge: one per tab, whose Jingle handler it sets. Requests
 * are dispatched to the Call of the room they come from (a tab could run several rooms' calls). A
 * call claimed ahead (`claimAhead`, while the Call that runs it is being made) keeps the requests
 * that come for it until that Call claims it, at most as many as the session holds for a room
 * (`HELD_PER_ROOM`); one past that is refused, as the session refuses it, never dropped unanswered.
 * A request for a call this tab has let go goes back to the session.
 */
export class BridgeCallSignaling implements CallSignaling {
  private readonly handlers = new Map<string, (iq: JingleIq) => void>();
  /** Requests for calls claimed ahead, by room, until their Call claims them. */
  private readonly waiting = new Map<string, JingleIq[]>();
  private readonly jingle: JingleCommands;

  constructor(private readonly bridge: Pick<SessionBridge, 'tabId' | 'actions' | 'jingleHandler'>) {
    this.jingle = bridge.actions.jingle;
    bridge.jingleHandler = (roomAddress, iq) => {
      const handler = this.handlers.get(roomAddress);
      if (handler) handler(iq);
      // The call was let go here while the session routed this to us: the session answers it.
      else void this.jingle.returnRequest(bridge.tabId, roomAddress, iq).catch(() => undefined);
    };
  }

  send(iq: Stanzas.IQ): Promise<Stanzas.IQ | undefined> {
    return this.jingle.send(iq);
  }

  /** Claims the room's call for a Call still being made (its lock is this tab's): what comes meanwhile waits for it. */
  async claimAhead(roomAddress: string): Promise<void> {
    if (this.handlers.has(roomAddress)) return;
    const waiting: JingleIq[] = [];
    this.handlers.set(roomAddress, (iq) => {
      if (waiting.length < HELD_PER_ROOM) waiting.push(iq);
      else void this.refuseForNow(iq);
    });
    this.waiting.set(roomAddress, waiting);
    await this.jingle.claimCall(this.bridge.tabId, roomAddress);
  }

  async claimCall(roomAddress: string, handler: (iq: JingleIq) => void): Promise<void> {
    const waiting = this.waiting.get(roomAddress) ?? [];
    this.waiting.delete(roomAddress);
    this.handlers.set(roomAddress, handler);
    // After the claiming Call's start has run, as requests through the session would come.
    if (waiting.length > 0) queueMicrotask(() => waiting.forEach((iq) => handler(iq)));
    await this.jingle.claimCall(this.bridge.tabId, roomAddress);
  }

  async releaseCall(roomAddress: string): Promise<void> {
    this.handlers.delete(roomAddress);
    this.waiting.delete(roomAddress);
    await this.jingle.releaseCall(this.bridge.tabId, roomAddress);
  }

  /** RFC 6120 resource-constraint, a `wait` error: its sender knows it was not taken, and may send it again. */
  private async refuseForNow(iq: JingleIq): Promise<void> {
    const error = { type: 'wait', condition: 'resource-constraint', text: `at most ${HELD_PER_ROOM} requests wait for the call being started` } as const;
    await this.jingle.send({ type: 'error', id: iq.id, to: iq.from, error }).catch(() => undefined);
  }

  /** The call was claimed ahead and no Call has claimed it since. */
  claimedAhead(roomAddress: string): boolean {
    return this.waiting.has(roomAddress);
  }
}
