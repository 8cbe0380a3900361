import { describe, expect, it, vi } from 'vitest';
import type { DesktopNotice } from '../../src/main-thread/alerts/desktopNotifications';
import { MessageNoticeHold } from '../../src/main-thread/alerts/MessageNoticeHold';
import { MESSAGE_NOTICE_HOLD_MS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';

const notice: DesktopNotice = { title: 'Bob in standup', body: 'are you there?', tag: 'parley-message:standup@muc.localhost' };

function held() {
  const clock = new ManualClock();
  const shown: DesktopNotice[] = [];
  const close = vi.fn();
  const room = { unreadCount: 0 };
  const hold = new MessageNoticeHold({
    clock,
    unreadCount: () => room.unreadCount,
    show: (shownNotice) => {
      shown.push(shownNotice);
      return { close };
    },
  });
  return { hold, clock, shown, close, room };
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

  it('a notice shown is closed once the room is read: it would only say what the person has seen', async () => {
    const { hold, clock, shown, close, room } = held();
    room.unreadCount = 1;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([notice]);
    expect(close).not.toHaveBeenCalled();
    room.unreadCount = 0;
    hold.read();
    hold.read();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('a notice shown is closed when the tab lets the room’s alerts go', async () => {
    const { hold, clock, close, room } = held();
    room.unreadCount = 1;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    hold.dispose();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
