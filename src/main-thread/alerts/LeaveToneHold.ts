import type { Clock } from '../../common/clock';
import { PendingTimeouts } from '../../common/PendingTimeouts';
import { LEAVE_TONE_HOLD_MS } from '../../protocol/clientDefaults';

export interface LeaveToneHoldOptions {
  readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Whether the room's event lines still hold this one (RoomEventLog takes a leave's line back when the person is back at once). */
  readonly stillShown: (eventId: string) => boolean;
  readonly play: () => void;
}

/**
 * The tone of plain leaves waits LEAVE_TONE_HOLD_MS and plays only if one of their lines is still
 * shown then: a connection the server replaced is announced as a leave and, a moment later, a return
 * at the same address, whose line replaces the leave's ("reconnected"). Nobody left, so nothing
 * chimes. Kicks and bans are no such thing, and chime at once (RoomArrivals).
 */
export class LeaveToneHold {
  private readonly waiting: PendingTimeouts;

  constructor(private readonly options: LeaveToneHoldOptions) {
    this.waiting = new PendingTimeouts(options.clock);
  }

  hold(eventIds: readonly string[]): void {
    const { stillShown, play } = this.options;
    this.waiting.after(LEAVE_TONE_HOLD_MS, () => {
      if (eventIds.some(stillShown)) play();
    });
  }

  /** Drops what waits (the room's alerts go from this tab). */
  dispose(): void {
    this.waiting.clear();
  }
}
