import { describe, expect, it, vi } from 'vitest';
import type { DesktopNotice } from '../../src/main-thread/alerts/desktopNotifications';
import { NoticeHold } from '../../src/main-thread/alerts/NoticeHold';
import { roomSeen, showRoomSeen, type PageVisibility } from '../../src/main-thread/alerts/roomSeen';
import { MESSAGE_NOTICE_HOLD_MS } from '../../src/protocol/clientDefaults';
import { FakeWebLocks } from '../support/fakeWebLocks';
import { ManualClock } from '../support/ManualClock';

const ROOM = 'standup@muc.localhost';
const notice: DesktopNotice = { title: 'Bob in standup', body: 'are you there?', tag: `parley-message:${ROOM}` };
const attentionNotice: DesktopNotice = { title: 'Bob asks for your attention', body: 'in standup', tag: `parley-attention:${ROOM}` };

/** A tab's page whose visibility the test sets (`see`, `hide`), telling its listeners as a document does. */
class FakePage implements PageVisibility {
  private readonly listeners = new Set<() => void>();
  constructor(public visibilityState: DocumentVisibilityState) {}
  addEventListener(_type: 'visibilitychange', listener: () => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'visibilitychange', listener: () => void): void {
    this.listeners.delete(listener);
  }
  see(): void {
    this.visibilityState = 'visible';
    for (const listener of this.listeners) listener();
  }
  hide(): void {
    this.visibilityState = 'hidden';
    for (const listener of this.listeners) listener();
  }
}

/** Web Locks granted and let go (their promise chains run). */
const locksSettled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A hold of the room's notices of one kind, as RoomAlerts makes them; `news.on` is what `stillNews` reads, the room seen nowhere unless `seen` says. */
function held({ waitMs = MESSAGE_NOTICE_HOLD_MS, seen = async () => false }: { waitMs?: number; seen?: () => Promise<boolean> } = {}) {
  const clock = new ManualClock();
  const shown: DesktopNotice[] = [];
  const close = vi.fn();
  const news = { on: false };
  const hold = new NoticeHold({
    clock,
    waitMs,
    stillNews: () => news.on,
    roomSeen: seen,
    show: (shownNotice) => {
      shown.push(shownNotice);
      return { close };
    },
  });
  return { hold, clock, shown, close, news };
}

describe(`A message's desktop notification waits ${MESSAGE_NOTICE_HOLD_MS} ms and is dropped if a visible chat (the pop-out) read it meanwhile (issue 15)`, () => {
  it('a message still unread once the wait is over is notified then, not before', async () => {
    const { hold, clock, shown, news } = held();
    news.on = true;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS - 1);
    expect(shown).toEqual([]);
    await clock.advance(1);
    expect(shown).toEqual([notice]);
  });

  it('a message marked read meanwhile (the room’s unread count back to 0) is not notified', async () => {
    const { hold, clock, shown, news } = held();
    news.on = true;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS / 2);
    news.on = false;
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([]);
  });

  it('a message read meanwhile stays dropped though a newer one is unread when the wait is over', async () => {
    const { hold, clock, shown, news } = held();
    news.on = true;
    hold.hold(notice);
    news.on = false;
    hold.over();
    news.on = true;
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
    const { hold, clock, shown, news } = held();
    news.on = true;
    hold.hold(notice);
    hold.dispose();
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([]);
  });

  it('a notice shown is closed once the room is read: it would only say what the person has seen', async () => {
    const { hold, clock, shown, close, news } = held();
    news.on = true;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([notice]);
    expect(close).not.toHaveBeenCalled();
    news.on = false;
    hold.over();
    hold.over();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('a notice shown is closed when the tab lets the room’s alerts go', async () => {
    const { hold, clock, close, news } = held();
    news.on = true;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    hold.dispose();
    expect(close).toHaveBeenCalledTimes(1);
  });
});

describe('No desktop notification, of a message or of an attention request, while a tab of the room is seen (the pop-out chat shows the message, or the attention banner): the alerting tab, hidden, learns it from the visible tabs’ locks', () => {
  it('an attention request while the room’s pop-out chat is visible is not notified; once nothing of the room is seen, the next one is', async () => {
    const locks = new FakeWebLocks();
    const roomTab = new FakePage('hidden');
    const popout = new FakePage('visible');
    showRoomSeen(ROOM, roomTab, locks);
    const stopPopout = showRoomSeen(ROOM, popout, locks);
    const { hold, clock, shown, news } = held({ waitMs: 0, seen: () => roomSeen(ROOM, locks) });
    await locksSettled();
    news.on = true;
    hold.hold(attentionNotice);
    await clock.advance(0);
    expect(shown).toEqual([]);

    popout.hide();
    await locksSettled();
    hold.hold(attentionNotice);
    await clock.advance(0);
    expect(shown).toEqual([attentionNotice]);
    stopPopout();
  });

  it('a message unread once the wait is over is not notified while another tab of the room is seen', async () => {
    const { hold, clock, shown, news } = held({ seen: async () => true });
    news.on = true;
    hold.hold(notice);
    await clock.advance(MESSAGE_NOTICE_HOLD_MS);
    expect(shown).toEqual([]);
  });

  it('an attention request over before the look at the room’s tabs ends is not notified', async () => {
    let answer!: (seen: boolean) => void;
    const { hold, clock, shown, news } = held({ waitMs: 0, seen: () => new Promise((resolve) => (answer = resolve)) });
    news.on = true;
    hold.hold(attentionNotice);
    await clock.advance(0);
    news.on = false;
    hold.over();
    answer(false);
    await clock.advance(0);
    expect(shown).toEqual([]);
  });

  it('a look at the room’s tabs that fails finds nobody: the request is notified', async () => {
    const { hold, clock, shown, news } = held({ waitMs: 0, seen: () => Promise.reject(new Error('no locks')) });
    news.on = true;
    hold.hold(attentionNotice);
    await clock.advance(0);
    expect(shown).toEqual([attentionNotice]);
  });

  it('a room is seen only through its own tabs, and no longer once they are hidden or closed', async () => {
    const locks = new FakeWebLocks();
    const page = new FakePage('visible');
    const stop = showRoomSeen(ROOM, page, locks);
    await locksSettled();
    expect(await roomSeen(ROOM, locks)).toBe(true);
    expect(await roomSeen('standup2@muc.localhost', locks)).toBe(false);
    page.hide();
    await locksSettled();
    expect(await roomSeen(ROOM, locks)).toBe(false);
    page.see();
    await locksSettled();
    expect(await roomSeen(ROOM, locks)).toBe(true);
    stop();
    await locksSettled();
    expect(await roomSeen(ROOM, locks)).toBe(false);
  });
});
