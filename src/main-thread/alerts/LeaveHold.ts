import type { Clock } from '../../common/clock';
import { PendingTimeouts } from '../../common/PendingTimeouts';
import { LEAVE_HOLD_MS } from '../../protocol/clientDefaults';

export interface LeaveHoldOptions {
  readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Whether the room's event lines still hold this one (RoomEventLog takes a leave's line back when the person is back at once). */
  readonly stillShown: (eventId: string) => boolean;
}

/**
 * What a plain leave sets off — its tone (RoomAlerts), its words to a screen reader (RoomAnnouncer) —
 * waits LEAVE_HOLD_MS and happens only for the lines still shown then: a connection the server
 * replaced is announced as a leave and, a moment later, a return at the same address, whose line
 * replaces the leave's ("reconnected"). Nobody left, so nothing is said of a leave. Kicks and bans
 * are no such thing, and are not held.
 */
export class LeaveHold {
  private readonly waiting: PendingTimeouts;

  constructor(private readonly options: LeaveHoldOptions) {
    this.waiting = new PendingTimeouts(options.clock);
  }

  /** `then` gets the leaves' lines still shown once the hold is over, if any is. */
  hold(eventIds: readonly string[], then: (shown: readonly string[]) => void): void {
    this.waiting.after(LEAVE_HOLD_MS, () => {
      const shown = eventIds.filter(this.options.stillShown);
      if (shown.length > 0) then(shown);
    });
  }

  /** Drops what waits (the room's view goes from this tab). */
  dispose(): void {
    this.waiting.clear();
  }
}
