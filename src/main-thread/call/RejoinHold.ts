import type { Clock } from '../../common/clock';
import type { Peer, Room } from '../../protocol/entities';
import { awaitingRejoin } from '../../protocol/awaitingRejoin';
import { REJOIN_GRACE_MS } from '../../protocol/clientDefaults';

/**
 * Issue 13 "a chat server restart is not a call outage". When the session loses its connection,
 * SPEC §4 clears every peer and interrupts the room, but the media between the people of the call
 * does not go through the XMPP server and keeps flowing. So while the room waits for its rejoin the
 * call keeps following the people it had; once back, a person not back yet is kept for
 * REJOIN_GRACE_MS, their record taking over as soon as their presence arrives. A held person whose
 * sessions with us have all ended (they really went away, or came back under another address
 * after a reload) is let go at once.
 */
export class RejoinHold {
  /** The others of the room as last followed while it was joined. */
  private last: readonly Peer[] = [];
  /** The people kept although the room does not list them now, by address. */
  private readonly held = new Map<string, Peer>();
  /** The held people who had a session with us when the connection was lost. */
  private readonly inTouchWhenHeld = new Set<string>();
  private waiting = false;
  private expiry: unknown;

  constructor(
    private readonly clock: Clock,
    /** The grace ended: the held people are dropped, so the call follows the room again. */
    private readonly released: () => void,
  ) {}

  /**
   * The people the call follows now: the room's, and those held. `returned`: the held people the
   * room lists again (at our rejoin, or theirs after it) — reachable again, they are told what they
   * may have missed while signalling was down (Call, `MediaPath.catchUp`).
   */
  follow(room: Room | undefined, peers: readonly Peer[], callJoined: boolean, inTouch: (address: string) => boolean): { peers: readonly Peer[]; inRoom: boolean; returned: readonly string[] } {
    if (!room || !callJoined || (!room.joined && !awaitingRejoin(room))) {
      this.clear();
      this.last = [];
      return { peers, inRoom: room?.joined === true, returned: [] };
    }
    if (!room.joined) {
      if (!this.waiting) {
        this.waiting = true;
        this.cancelExpiry();
        for (const peer of this.last) {
          this.held.set(peer.address, peer);
          if (inTouch(peer.address)) this.inTouchWhenHeld.add(peer.address);
        }
      }
      this.letGoOutOfTouch(inTouch);
      return { peers: [...this.held.values()], inRoom: true, returned: [] };
    }
    if (this.waiting) {
      this.waiting = false;
      this.expiry = this.clock.setTimeout(() => {
        this.expiry = undefined;
        this.held.clear();
        this.inTouchWhenHeld.clear();
        this.released();
      }, REJOIN_GRACE_MS);
    }
    const returned = peers.filter((peer) => this.letGo(peer.address)).map((peer) => peer.address);
    this.letGoOutOfTouch(inTouch);
    if (this.held.size === 0) this.cancelExpiry();
    this.last = peers;
    return { peers: [...peers, ...this.held.values()], inRoom: true, returned };
  }

  /** The people followed although the room does not list them now. */
  heldPeers(): readonly Peer[] {
    return [...this.held.values()];
  }

  clear(): void {
    this.waiting = false;
    this.held.clear();
    this.inTouchWhenHeld.clear();
    this.cancelExpiry();
  }

  private letGoOutOfTouch(inTouch: (address: string) => boolean): void {
    for (const address of [...this.held.keys()]) if (this.inTouchWhenHeld.has(address) && !inTouch(address)) this.letGo(address);
  }

  /** No longer held; false when they were not. */
  private letGo(address: string): boolean {
    this.inTouchWhenHeld.delete(address);
    return this.held.delete(address);
  }

  private cancelExpiry(): void {
    if (this.expiry === undefined) return;
    this.clock.clearTimeout(this.expiry);
    this.expiry = undefined;
  }
}
