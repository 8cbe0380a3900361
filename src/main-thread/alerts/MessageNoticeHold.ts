import type { Clock } from '../../common/clock';
import { PendingTimeouts } from '../../common/PendingTimeouts';
import { MESSAGE_NOTICE_HOLD_MS } from '../../protocol/clientDefaults';
import type { DesktopNotice, ShownNotice } from './desktopNotifications';

export interface MessageNoticeHoldOptions {
  readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** The room's unread count now (Room.unreadCount, from the session's state). */
  readonly unreadCount: () => number;
  /** Shows the notice; what it returns is closed once the room is read (undefined: none shown). */
  readonly show: (notice: DesktopNotice) => ShownNotice | undefined;
}

/**
 * A message's desktop notification waits MESSAGE_NOTICE_HOLD_MS and is shown only if the room
 * was not marked read meanwhile (its unread count 0 as the notice comes, or falling to 0, `read()`)
 * and still has unread messages then. The tab that notifies is the one holding the room's alert lock
 * (roomAlertSeat), usually the room's tab, hidden behind the room's pop-out chat; a chat shown in a
 * visible tab marks the message read meanwhile, and the person, reading it there, needs no notice.
 * A notice shown is closed once the room is read: it would only say what the person has seen.
 */
export class MessageNoticeHold {
  private readonly waiting: PendingTimeouts;
  /** The notice on the screen: one per room, each newer one replacing it (the same tag). */
  private shown: ShownNotice | undefined;

  constructor(private readonly options: MessageNoticeHoldOptions) {
    this.waiting = new PendingTimeouts(options.clock);
  }

  hold(notice: DesktopNotice): void {
    const { unreadCount, show } = this.options;
    // Read already: a hidden tab hears of its messages late (its effects wait for a frame it does not draw).
    if (unreadCount() === 0) return;
    this.waiting.after(MESSAGE_NOTICE_HOLD_MS, () => {
      if (unreadCount() > 0) this.shown = show(notice) ?? this.shown;
    });
  }

  /**
   * The room was marked read (its unread count fell to 0): what waits was read, and is dropped,
   * though newer messages make the count above 0 again before the wait is over; what was shown is closed.
   */
  read(): void {
    this.dispose();
  }

  /** Drops what waits and closes what was shown (the room's alerts go from this tab, or the page goes). */
  dispose(): void {
    this.waiting.clear();
    this.shown?.close();
    this.shown = undefined;
  }
}
