import type { Clock } from '../../common/clock';
import { PendingTimeouts } from '../../common/PendingTimeouts';
import { DEPARTURE_HOLD, LEAVE_HOLD_MS } from '../../protocol/clientDefaults';

export interface LeaveHoldOptions {
  readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Whether the room's event lines still hold this one (RoomEventLog takes a leave's line back when the person is back at once). */
  readonly stillShown: (eventId: string) => boolean;
  /** Whether the call still keeps the person of this line (call/DepartureHold: their media still reaches us), so that their leave may yet be a reconnection. */
  readonly stillHeld: (eventId: string) => boolean;
}

/**
 * What a plain leave sets off — its tone (RoomAlerts), its words to a screen reader (RoomAnnouncer) —
 * waits LEAVE_HOLD_MS and happens only for the lines still shown then: a connection the server
 * replaced is announced as a leave and, a moment later, a return at the same address, whose line
 * replaces the leave's ("reconnected"). Nobody left, so nothing is said of a leave. A person the
 * call still keeps (their media still arriving) is waited for as long as it keeps them, at most
 * DEPARTURE_HOLD.graceMs: a return slowed by a busy machine or a long reconnect then says nothing
 * of a leave either, and a leave that was one is said as their tile goes. Kicks and bans are no
 * such thing, and are not held.
 */
export class LeaveHold {
  private readonly waiting: PendingTimeouts;

  constructor(private readonly options: LeaveHoldOptions) {
    this.waiting = new PendingTimeouts(options.clock);
  }

  /** `then` gets the leaves' lines still shown once the hold is over, if any is; called again for lines held longer. */
  hold(eventIds: readonly string[], then: (shown: readonly string[]) => void): void {
    const heldAtMost = DEPARTURE_HOLD.graceMs - LEAVE_HOLD_MS;
    this.waiting.after(LEAVE_HOLD_MS, () => this.settle(eventIds, then, heldAtMost));
  }

  private settle(eventIds: readonly string[], then: (shown: readonly string[]) => void, heldForMs: number): void {
    const shown = eventIds.filter(this.options.stillShown);
    const held = heldForMs > 0 ? shown.filter(this.options.stillHeld) : [];
    const left = shown.filter((eventId) => !held.includes(eventId));
    if (left.length > 0) then(left);
    if (held.length > 0) this.waiting.after(DEPARTURE_HOLD.checkIntervalMs, () => this.settle(held, then, heldForMs - DEPARTURE_HOLD.checkIntervalMs));
  }

  /** Drops what waits (the room's view goes from this tab). */
  dispose(): void {
    this.waiting.clear();
  }
}
