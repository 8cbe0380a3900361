import type { Clock } from '../../common/clock';
import type { JingleIq } from '../../protocol/commands';
import { UNCLAIMED_CALL_HOLD } from '../../protocol/constants';

interface HeldRoom {
  /** In the order they came. */
  readonly requests: JingleIq[];
  /** How many of them each session (sender and sid) has. */
  readonly perSession: Map<string, number>;
  readonly timer: unknown;
}

/**
 * Jingle requests for a call this session has joined that no tab runs yet, held per room in the
 * order they came, bounded by session (UNCLAIMED_CALL_HOLD). The room's presence says we are in the call as soon as we join it, so a peer's
 * offer can arrive before the tab that joined has claimed the call: declining it would cost the
 * peer an error and SPEC §4's 2 s before it offers again.
 */
export class UnclaimedCallRequests {
  private readonly rooms = new Map<string, HeldRoom>();

  constructor(
    private readonly clock: Clock,
    /** No tab claimed the room's call in time: its requests, oldest first. */
    private readonly expired: (requests: readonly JingleIq[]) => void,
  ) {}

  /**
   * Holds a request until the room's call is claimed; false when its session already has
   * UNCLAIMED_CALL_HOLD.requestsPerSession held, or it would be a session past the room's
   * sessionsPerRoom. Sessions are counted by any request, not only by their offer: a request can
   * belong to one whose offer went to a tab (a request given back as its tab let the call go).
   */
  hold(roomAddress: string, iq: JingleIq): boolean {
    const held = this.rooms.get(roomAddress) ?? this.open(roomAddress);
    const session = `${iq.from ?? ''}\n${iq.jingle.sid}`;
    const ofSession = held.perSession.get(session) ?? 0;
    if (ofSession >= UNCLAIMED_CALL_HOLD.requestsPerSession) return false;
    if (ofSession === 0 && held.perSession.size >= UNCLAIMED_CALL_HOLD.sessionsPerRoom) return false;
    held.perSession.set(session, ofSession + 1);
    held.requests.push(iq);
    return true;
  }

  /** The room's call was claimed: its held requests, oldest first (none are held after). */
  take(roomAddress: string): readonly JingleIq[] {
    const held = this.rooms.get(roomAddress);
    if (!held) return [];
    this.rooms.delete(roomAddress);
    this.clock.clearTimeout(held.timer);
    return held.requests;
  }

  /** The connection they came on is gone: nobody is left to answer them. */
  clear(): void {
    for (const held of this.rooms.values()) this.clock.clearTimeout(held.timer);
    this.rooms.clear();
  }

  private open(roomAddress: string): HeldRoom {
    const held: HeldRoom = {
      requests: [],
      perSession: new Map(),
      timer: this.clock.setTimeout(() => {
        if (this.rooms.get(roomAddress) !== held) return;
        this.rooms.delete(roomAddress);
        this.expired(held.requests);
      }, UNCLAIMED_CALL_HOLD.timeoutMs),
    };
    this.rooms.set(roomAddress, held);
    return held;
  }
}
