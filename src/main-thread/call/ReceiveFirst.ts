import type { Clock } from '../../common/clock';
import type { Peer } from '../../protocol/entities';
import { RECEIVE_FIRST } from '../../protocol/clientDefaults';

/** How a peer's session to us stands, as the Call's sessions show it. */
export type TheirSession = 'none' | 'pending' | 'connected';

/**
 * Issue 14, the join path: someone who joins a call connects the sessions of the people already in
 * it before offering their own to them. Made at once, our offer to a person is built, sent and
 * answered while their session to us is being answered and connected, on both pages and on the
 * cores they share, and the video we came for comes later (docs/performance.md, "A newcomer
 * receives first"). So our session to a person in the call who was in the room before us (their
 * presence came before our self-presence) waits until theirs to us is connected: at most
 * RECEIVE_FIRST.maxWaitMs after we entered the call, which is all a person who sends nothing (and
 * so never offers) waits for ours. Whoever came later waits for nobody, so of two people at most
 * one waits for the other.
 */
export class ReceiveFirst {
  private phase: 'out' | 'waiting' | 'over' = 'out';
  private timer: unknown;
  /** People we no longer wait for: their session to us connected, or came and went. */
  private readonly settled = new Set<string>();
  /** People whose session to us we have seen under way. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly clock: Clock,
    /** The wait is over for everyone: the call recomputes. */
    private readonly expired: () => void,
  ) {}

  /**
   * Whom our sessions wait for, now. `inCall`: we are in the call; `roomJoinedAt`: when our
   * self-presence came; `theirSession`: how each peer's session to us stands.
   */
  awaited(inCall: boolean, roomJoinedAt: number | undefined, peers: readonly Peer[], theirSession: (address: string) => TheirSession): ReadonlySet<string> {
    if (!inCall || roomJoinedAt === undefined) {
      this.reset();
      return new Set();
    }
    if (this.phase === 'out') {
      this.phase = 'waiting';
      this.timer = this.clock.setTimeout(() => {
        this.phase = 'over';
        this.expired();
      }, RECEIVE_FIRST.maxWaitMs);
    }
    const awaited = new Set<string>();
    if (this.phase === 'over') return awaited;
    for (const peer of peers) {
      if (!peer.joinedCall || peer.joinedRoomAt > roomJoinedAt || this.settled.has(peer.address)) continue;
      const session = theirSession(peer.address);
      if (session === 'connected' || (session === 'none' && this.seen.has(peer.address))) {
        this.settled.add(peer.address);
        continue;
      }
      if (session === 'pending') this.seen.add(peer.address);
      awaited.add(peer.address);
    }
    return awaited;
  }

  /** Out of the call, or closed: whoever enters next waits afresh. */
  reset(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.phase = 'out';
    this.settled.clear();
    this.seen.clear();
  }
}
