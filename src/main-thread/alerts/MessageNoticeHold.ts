import type { Clock } from '../../common/clock';
import { PendingTimeouts } from '../../common/PendingTimeouts';
import { MESSAGE_NOTICE_HOLD_MS } from '../../protocol/clientDefaults';
import type { DesktopNotice } from './desktopNotifications';

export interface MessageNoticeHoldOptions {
  readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** The room's unread count now (Room.unreadCount, from the session's state). */
  readonly unreadCount: () => number;
  readonly show: (notice: DesktopNotice) => void;
}

/**
 * A message's desktop notification waits MESSAGE_NOTICE_HOLD_MS and is shown only if the room
 * was not marked read meanwhile (its unread count 0 as the notice comes, or falling to 0, `read()`)
 * and still has unread messages then. The tab that notifies is the one holding the room's alert lock
 * (roomAlertSeat), usually the room's tab, hidden behind the room's pop-out chat; a chat shown in a
 * visible tab marks the message read meanwhile, and the person, reading it there, needs no notice.
 */
export class MessageNoticeHold {
  private readonly waiting: PendingTimeouts;

  constructor(private readonly options: MessageNoticeHoldOptions) {
    this.waiting = new PendingTimeouts(options.clock);
  }

  hold(notice: DesktopNotice): void {
    const { unreadCount, show } = this.options;
    // Read already: a hidden tab hears of its messages late (its effects wait for a frame it does not draw).
    if (unreadCount() === 0) return;
    this.waiting.after(MESSAGE_NOTICE_HOLD_MS, () => {
      if (unreadCount() > 0) show(notice);
    });
  }

  /**
   * The room was marked read (its unread count fell to 0): what waits was read, and is dropped,
   * though newer messages make the count above 0 again before the wait is over.
   */
  read(): void {
    this.dispose();
  }

  /** Drops what waits (the room's alerts go from this tab). */
  dispose(): void {
    this.waiting.clear();
  }
}
