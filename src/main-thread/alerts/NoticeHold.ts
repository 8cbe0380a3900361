import type { Clock } from '../../common/clock';
import { PendingTimeouts } from '../../common/PendingTimeouts';
import type { DesktopNotice, ShownNotice } from './desktopNotifications';

export interface NoticeHoldOptions {
  readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** How long a notice waits before it is shown (a message's: MESSAGE_NOTICE_HOLD_MS). */
  readonly waitMs: number;
  /** What the notice says is still new: the room has unread messages, a request for attention still holds. */
  readonly stillNews: () => boolean;
  /** A tab showing the room is seen now (roomSeen): the person sees there what the notice would say. */
  readonly roomSeen: () => Promise<boolean>;
  /** Shows the notice; what it returns is closed once its news is over (undefined: none shown). */
  readonly show: (notice: DesktopNotice) => ShownNotice | undefined;
}

/**
 * A room's desktop notification of one kind (its messages, or its attention requests) waits
 * `waitMs`, and is shown only if what it says is still news then and no tab showing the room is
 * seen. The tab that notifies is the one holding the room's alert lock (roomAlertSeat), usually the
 * room's tab, hidden behind the room's pop-out chat; the person looking at the pop-out sees the
 * message (which marks it read meanwhile) or the attention banner there, and needs no notice.
 * A notice shown is closed once its news is over (`over()`): it would only say what the person has seen.
 */
export class NoticeHold {
  private readonly waiting: PendingTimeouts;
  /** The notice on the screen: one per room and kind, each newer one replacing it (the same tag). */
  private shown: ShownNotice | undefined;
  /** Counts `over()` and `dispose()`: a notice whose look at the room's tabs outlived one is dropped. */
  private overs = 0;

  constructor(private readonly options: NoticeHoldOptions) {
    this.waiting = new PendingTimeouts(options.clock);
  }

  hold(notice: DesktopNotice): void {
    const { stillNews, roomSeen, show } = this.options;
    // Over already: a hidden tab hears of its news late (its effects wait for a frame it does not draw).
    if (!stillNews()) return;
    const overs = this.overs;
    this.waiting.after(this.options.waitMs, () => {
      if (!stillNews()) return;
      // A look that fails finds nobody: better a notice too many than an attention request missed.
      void roomSeen()
        .catch(() => false)
        .then((seen) => {
          if (!seen && this.overs === overs && stillNews()) this.shown = show(notice) ?? this.shown;
        });
    });
  }

  /**
   * Its news is over (the room was read, the request ended, this tab was seen): what waits is dropped,
   * though newer news comes before the wait is over; what was shown is closed.
   */
  over(): void {
    this.dispose();
  }

  /** Drops what waits and closes what was shown (the room's alerts go from this tab, or the page goes). */
  dispose(): void {
    this.overs += 1;
    this.waiting.clear();
    this.shown?.close();
    this.shown = undefined;
  }
}
