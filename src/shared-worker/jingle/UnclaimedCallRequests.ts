import type { Clock } from '../../common/clock';
import type { JingleIq } from '../../protocol/commands';
import { UNCLAIMED_CALL_HOLD } from '../../protocol/constants';

interface HeldRoom {
  readonly requests: JingleIq[];
  readonly timer: unknown;
}

/**
 * Jingle requests for a call this session has joined that no tab runs yet, held per room in the
 * order they came. The room's presence says we are in the call as soon as we join it, so a peer's
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

  /** Holds a request until the room's call is claimed; false when the room already holds its limit. */
  hold(roomAddress: string, iq: JingleIq): boolean {
    const held = this.rooms.get(roomAddress) ?? this.open(roomAddress);
    if (held.requests.length >= UNCLAIMED_CALL_HOLD.requestsPerRoom) return false;
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
