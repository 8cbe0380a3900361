import { JID, type Agent, type Stanzas } from 'stanza';
import type { JingleCommands, JingleIq } from '../../protocol/commands';
import { NotConnectedError } from '../../protocol/errors';
import { LIMITS, UNCLAIMED_CALL_HOLD } from '../../protocol/constants';
import type { SessionContext, SessionDomain } from '../SessionContext';
import { stanzaIdFrom } from '../chat/bounded';
import { SessionsPerSender } from './SessionsPerSender';
import { TabSessions } from './TabSessions';
import { UnclaimedCallRequests } from './UnclaimedCallRequests';

/** Delivers an incoming Jingle request from a room to a tab; false when that tab is gone. */
export type DeliverJingle = (tabId: string, roomAddress: string, iq: JingleIq) => boolean;

/**
 * Jingle stanzas arrive here but RTCPeerConnections live in tabs: each room's call is owned by
 * exactly one tab (it claims it under a Web Lock), which runs the Jingle sessions. Requests from
 * a room go to its call owner; what the owner's sessions send goes out through this one socket.
 * Requests for a call we are in that no tab runs yet wait for the tab that claims it. The sessions
 * a tab left running when it went are ended with their peers (TabSessions), who then offer anew.
 * No sender begins more than LIMITS.jingleSessionsPerSender sessions with us at once (SessionsPerSender),
 * and a request whose sid is empty or longer than LIMITS.jingleSidLength is refused as bad-request.
 */
export class JingleRouter implements SessionDomain, JingleCommands {
  private readonly owners = new Map<string, string>();
  private readonly unclaimed: UnclaimedCallRequests;
  private readonly tabSessions = new TabSessions();
  private readonly sessionsPerSender = new SessionsPerSender();
  /** Told when the tab that ran a room's call lets it go (TabsApi, which leaves a call no tab claims). */
  onCallLetGo: (roomAddress: string) => void = () => {};

  constructor(
    private readonly context: SessionContext,
    private readonly deliver: DeliverJingle,
  ) {
    this.unclaimed = new UnclaimedCallRequests(context.clock, (requests) => {
      const client = this.context.client;
      if (client) for (const iq of requests) this.refuse(client, iq);
    });
    context.store.subscribe((message) => {
      if (message.type !== 'patches') return;
      for (const patch of message.patches) if (patch.kind === 'remove' && patch.collection === 'peers') this.sessionsPerSender.senderGone(patch.id);
    });
  }

  attachClient(client: Agent): void {
    // StanzaJS's own Jingle manager would answer in this worker, which has no RTCPeerConnection.
    client.removeAllListeners('iq:set:jingle');
    client.on('iq:set:jingle', (iq) => this.route(client, iq));
  }

  async claimCall(tabId: string, roomAddress: string): Promise<void> {
    this.owners.set(roomAddress, tabId);
    for (const iq of this.unclaimed.take(roomAddress)) {
      const client = this.context.client;
      if (this.deliver(tabId, roomAddress, iq)) this.followDelivered(tabId, iq);
      else if (client) this.refuse(client, iq);
    }
  }

  async releaseCall(tabId: string, roomAddress: string): Promise<void> {
    this.letGo(tabId, roomAddress);
  }

  disconnected(): void {
    this.unclaimed.clear();
    this.sessionsPerSender.clear();
  }

  /**
   * A tab went away: the calls it owned have no owner until another tab claims them, and the
   * sessions it left running are ended with their peers, so that they offer anew at once.
   * Returns the addresses of the rooms whose call it ran.
   */
  releaseTab(tabId: string): string[] {
    const ran = [...this.owners].filter(([, owner]) => owner === tabId).map(([room]) => room);
    for (const room of ran) this.owners.delete(room);
    const client = this.context.client;
    for (const { peer, sid } of this.tabSessions.takeAll(tabId)) {
      // Someone no longer in the room has no session to end (theirs ended as they left).
      if (this.context.store.get('peers', peer) === undefined) continue;
      this.sessionsPerSender.ended(peer, sid);
      void client
        ?.sendIQ({ to: peer, type: 'set', jingle: { action: 'session-terminate', sid, reason: { condition: 'success' } } })
        .catch(() => this.context.log.info(`terminate of ${sid}, left by a tab that went, not acknowledged`));
    }
    return ran;
  }

  async returnRequest(tabId: string, roomAddress: string, iq: JingleIq): Promise<void> {
    this.letGo(tabId, roomAddress);
    if (iq.from) this.tabSessions.forget(tabId, iq.from, iq.jingle.sid);
    const client = this.context.client;
    if (client) this.route(client, iq);
  }

  ownerOf(roomAddress: string): string | undefined {
    return this.owners.get(roomAddress);
  }

  /** Sends what a tab's Jingle session produced; for a request, resolves with the peer's answer. */
  async send(iq: Stanzas.IQ): Promise<Stanzas.IQ | undefined> {
    const client = this.context.client;
    if (!client) throw new NotConnectedError();
    if (iq.type === 'set') {
      if (iq.jingle && iq.to) {
        this.tabSessions.follow(this.owners.get(JID.toBare(iq.to)), iq.to, iq.jingle);
        if (iq.jingle.action === 'session-terminate') this.sessionsPerSender.ended(iq.to, iq.jingle.sid);
      }
      return client.sendIQ(iq);
    }
    // Answers to a request the tab processed: addressed back to whoever sent it.
    const original = { type: 'set' as const, id: iq.id, from: iq.to };
    if (iq.type === 'result') client.sendIQResult(original, iq);
    else client.sendIQError(original, iq);
    return undefined;
  }

  private route(client: Agent, iq: JingleIq): void {
    if (!iq.from) return;
    if (stanzaIdFrom(iq.jingle.sid, LIMITS.jingleSidLength) === undefined) {
      client.sendIQError(iq, { error: { type: 'modify', condition: 'bad-request', text: `a session's sid is 1 to ${LIMITS.jingleSidLength} characters` } });
      return;
    }
    if (!this.sessionsPerSender.admit(iq.from, iq.jingle)) {
      this.refuseForNow(client, iq, `at most ${LIMITS.jingleSessionsPerSender} sessions with one person at once`);
      return;
    }
    const roomAddress = JID.toBare(iq.from);
    const owner = this.owners.get(roomAddress);
    if (owner && this.deliver(owner, roomAddress, iq)) {
      this.followDelivered(owner, iq);
      return;
    }
    if (this.context.store.get('calls', roomAddress)?.joined !== true) this.refuse(client, iq);
    else if (!this.unclaimed.hold(roomAddress, iq)) {
      this.refuseForNow(client, iq, `at most ${UNCLAIMED_CALL_HOLD.sessionsPerRoom} sessions of ${UNCLAIMED_CALL_HOLD.requestsPerSession} requests each wait for the tab that runs the call`);
    }
  }

  /** Whatever the tab's reason (hung up, handing the call over, or going before it ran the call), a joined call it ran has no owner now. */
  private letGo(tabId: string, roomAddress: string): void {
    if (this.owners.get(roomAddress) !== tabId) return;
    this.owners.delete(roomAddress);
    this.onCallLetGo(roomAddress);
  }

  private followDelivered(tabId: string, iq: JingleIq): void {
    if (iq.from) this.tabSessions.follow(tabId, iq.from, iq.jingle);
  }

  /** Nobody here runs this room's call: PROTOCOL.md — a responder not in the call terminates. */
  private refuse(client: Agent, iq: JingleIq): void {
    client.sendIQResult(iq);
    if (iq.jingle.action === 'session-initiate') {
      if (iq.from) this.sessionsPerSender.ended(iq.from, iq.jingle.sid);
      void client
        .sendIQ({ to: iq.from, type: 'set', jingle: { action: 'session-terminate', sid: iq.jingle.sid, reason: { condition: 'decline' } } })
        .catch(() => this.context.log.info(`terminate of ${iq.jingle.sid} not acknowledged`));
    }
  }

  /**
   * A request past a bound: a session-initiate from a sender who already has
   * LIMITS.jingleSessionsPerSender sessions with us (more than any client has: a flood), refused
   * before it costs the tab a connection, or one past what waits for the tab that claims the call
   * (UNCLAIMED_CALL_HOLD). Never acknowledged and dropped: the sender would count on a candidate or
   * an offer nobody took. RFC 6120 resource-constraint is a `wait` error: a sender may try again.
   */
  private refuseForNow(client: Agent, iq: JingleIq, bound: string): void {
    this.context.log.info(`${iq.jingle.action} ${iq.jingle.sid} from ${iq.from} refused: ${bound}`);
    if (iq.from && iq.jingle.action === 'session-initiate') this.sessionsPerSender.ended(iq.from, iq.jingle.sid);
    client.sendIQError(iq, { error: { type: 'wait', condition: 'resource-constraint', text: bound } });
  }
}
