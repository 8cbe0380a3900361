import { describe, expect, it } from 'vitest';
import type { DesktopNotice } from '../../src/main-thread/alerts/desktopNotifications';
import { MessageNoticeHold } from '../../src/main-thread/alerts/MessageNoticeHold';
import { MESSAGE_NOTICE_HOLD_MS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';

const notice: DesktopNotice = { title: 'Bob in standup', body: 'are you there?', tag: 'parley-message:standup@muc.localhost' };

function held(): { hold: MessageNoticeHold; clock: ManualClock; shown: DesktopNotice[]; room: { unreadCount: number } } {
  const clock = new ManualClock();
  const shown: DesktopNotice[] = [];
  const room = { unreadCount: 0 };
  const hold = new MessageNoticeHold({ clock, unreadCount: () => room.unreadCount, show: (shownNotice) => shown.push(shownNotice) });
  return { hold, clock, shown, room };
}

describe(`A message's desktop notification waits ${MESSAGE_NOTICE_HOLD_MS} ms and is dropped if a visible chat (the pop-out) read it meanwhile (issue 15)`, () => {
  it('a message still unread once the wait is over is notified then, not before', async () => {
    const { hold, clock, shown, room } = held();
    room.unreadCount = 1;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS - 1);
    expect(shown).toEqual([]);
    await clock.advance(1);
    expect(shown).toEqual([notice]);
  });

  it('a message marked read meanwhile (the room’s unread count back to 0) is not notified', async () => {
    const { hold, clock, shown, room } = held();
    room.unreadCount = 1;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS / 2);
    room.unreadCount = 0;
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([]);
  });

  it('a message read meanwhile stays dropped though a newer one is unread when the wait is over', async () => {
    const { hold, clock, shown, room } = held();
    room.unreadCount = 1;
    hold.hold(notice);
    room.unreadCount = 0;
    hold.read();
    room.unreadCount = 1;
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([]);
  });

  it('a message read before this tab looked (its unread count 0 already) is not notified', async () => {
    const { hold, clock, shown } = held();
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([]);
  });

  it('what waits is dropped when the tab lets the room’s alerts go', async () => {
    const { hold, clock, shown, room } = held();
    room.unreadCount = 1;
    hold.hold(notice);
    hold.dispose();
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([]);
  });
});
