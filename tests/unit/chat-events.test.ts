import type { Stanzas } from 'stanza';
import { describe, expect, it, vi } from 'vitest';
import { DEPARTURE_HOLD, LEAVE_HOLD_MS, NICKNAME_CHANGE_WITHIN_MS } from '../../src/protocol/clientDefaults';
import { LIMITS } from '../../src/protocol/constants';
import type { ChatMessage, RoomEvent } from '../../src/protocol/entities';
import { RoomArrivals } from '../../src/main-thread/alerts/RoomArrivals';
import { RoomEventLog } from '../../src/shared-worker/roomEvents/RoomEventLog';
import { departureOf, rejoinEvents } from '../../src/shared-worker/roomEvents/rosterEvents';
import { StateStore } from '../../src/shared-worker/StateStore';
import { chatTimeline, firstUnreadId, type ChatTimelineItem } from '../../src/ui/chatTimeline';
import { formatDay, startOfNextDay } from '../../src/ui/formatTime';
import { followDays } from '../../src/ui/useToday';
import { groupChatMessages } from '../../src/ui/groupChatMessages';
import { RoomAnnouncements } from '../../src/ui/RoomAnnouncements';
import { roomEventText, unannouncedEvents } from '../../src/ui/roomEventText';
import { ManualClock } from '../support/ManualClock';

const ROOM = 'room@rooms.parley.localhost';
const roster = (...names: string[]) => new Map(names.map((name) => [`${ROOM}/${name.toLowerCase()}`, name]));
const lines = (store: StateStore) => Object.values(store.state.roomEvents).map((event) => [event.kind, event.displayName]);
const status = (...statusCodes: string[]) => ({ statusCodes }) as Stanzas.MUCInfo;

describe('Event lines from the room roster: a rejoin says only what changed meanwhile, a nick change is no departure (issue 15)', () => {
  it('a rejoin after a reconnect names who left and who came while we were away, and nobody who stayed', () => {
    expect(rejoinEvents(roster('Ann', 'Bob', 'Cy'), roster('Bob', 'Cy', 'Dee'))).toEqual([
      { kind: 'left', address: `${ROOM}/ann`, displayName: 'Ann' },
      { kind: 'joined', address: `${ROOM}/dee`, displayName: 'Dee' },
    ]);
    expect(rejoinEvents(roster('Ann', 'Bob'), roster('Ann', 'Bob'))).toEqual([]);
  });

  it('an unavailable presence says why the person went: banned (301), kicked (307), left; a nick change (303) says nothing', () => {
    expect(departureOf(status('301'))).toBe('banned');
    expect(departureOf(status('307'))).toBe('kicked');
    expect(departureOf(undefined)).toBe('left');
    expect(departureOf(status('303'))).toBeUndefined();
  });
});

describe(`RoomEventLog: a nickname change (status 303, then the new address within NICKNAME_CHANGE_WITHIN_MS, ${NICKNAME_CHANGE_WITHIN_MS} ms) is said as a rename, never as an arrival (beyond the spec)`, () => {
  const peer = (nick: string, displayName = nick) => ({ address: `${ROOM}/${nick}`, displayName, userAddress: undefined });

  it('a plain client renamed reads "dave is now known as david"; renamed with its name unchanged, nothing is said', () => {
    const store = new StateStore();
    const events = new RoomEventLog(store, new ManualClock());
    events.renamed(ROOM, peer('dave'), `${ROOM}/david`);
    events.arrived(ROOM, peer('david'));
    expect(Object.values(store.state.roomEvents).map((event) => [event.kind, event.formerName, event.formerAddress, event.displayName, event.peerAddress, roomEventText(event)])).toEqual([
      ['renamed', 'dave', `${ROOM}/dave`, 'david', `${ROOM}/david`, 'dave is now known as david'],
    ]);
    // Its <nick> names it still: the nickname changed, the name did not.
    events.renamed(ROOM, peer('david', 'Dave'), `${ROOM}/dave2`);
    events.arrived(ROOM, peer('dave2', 'Dave'));
    expect(lines(store)).toEqual([['renamed', 'david']]);
  });

  it('a presence at the new address after the window, or at another address, or in a room left meanwhile, is an arrival', async () => {
    const store = new StateStore();
    const clock = new ManualClock();
    const events = new RoomEventLog(store, clock);
    events.renamed(ROOM, peer('dave'), `${ROOM}/david`);
    events.arrived(ROOM, peer('eve'));
    await clock.advance(NICKNAME_CHANGE_WITHIN_MS + 1);
    events.arrived(ROOM, peer('david'));
    events.renamed(ROOM, peer('david'), `${ROOM}/dan`);
    events.forget(ROOM);
    events.arrived(ROOM, peer('dan'));
    expect(lines(store)).toEqual([
      ['joined', 'eve'],
      ['joined', 'david'],
      ['joined', 'dan'],
    ]);
  });
});

describe('RoomEventLog: event lines live in the state of record, once for every tab, bounded per room (issue 15)', () => {
  it('a first join says nothing of the people already there; a rejoin compares with the roster at the drop', () => {
    const store = new StateStore();
    const events = new RoomEventLog(store, new ManualClock());
    events.joined(ROOM, roster('Ann', 'Bob'));
    expect(lines(store)).toEqual([]);

    events.interrupted(ROOM, roster('Ann', 'Bob'));
    // Dropped again while rejoining (part of the roster seen): the first roster stays the reference.
    events.interrupted(ROOM, roster('Ann'));
    events.joined(ROOM, roster('Bob', 'Cy'));
    expect(lines(store)).toEqual([
      ['left', 'Ann'],
      ['joined', 'Cy'],
    ]);
    // Each line about a person names their occupant address too (the call's DepartureHold reads a plain leave by it).
    expect(Object.values(store.state.roomEvents).map((event) => event.peerAddress)).toEqual([`${ROOM}/ann`, `${ROOM}/cy`]);

    // Once rejoined, the next join is a first join again unless the connection drops.
    events.joined(ROOM, roster('Zed'));
    expect(lines(store)).toHaveLength(2);
  });

  it('a room left (or that put us out) has no rejoin to compare with', () => {
    const store = new StateStore();
    const events = new RoomEventLog(store, new ManualClock());
    events.interrupted(ROOM, roster('Ann'));
    events.forget(ROOM);
    events.joined(ROOM, roster('Bob'));
    expect(lines(store)).toEqual([]);
  });

  it(`keeps the last ${LIMITS.roomEventsPerRoom} lines of a room, the oldest going first, and each line's time`, async () => {
    const store = new StateStore();
    const clock = new ManualClock();
    const events = new RoomEventLog(store, clock);
    events.add('other@rooms.parley.localhost', 'locked', undefined);
    for (let index = 0; index < LIMITS.roomEventsPerRoom + 5; index += 1) {
      events.add(ROOM, 'joined', { address: `${ROOM}/person${index}`, displayName: `person ${index}` });
      await clock.advance(1_000);
    }
    const ofRoom = Object.values(store.state.roomEvents).filter((event) => event.roomAddress === ROOM);
    expect(ofRoom).toHaveLength(LIMITS.roomEventsPerRoom);
    expect(ofRoom[0]).toMatchObject({ displayName: 'person 5', time: 5_000 });
    expect(Object.values(store.state.roomEvents).filter((event) => event.roomAddress !== ROOM)).toHaveLength(1);
  });
});

describe('RoomEventLog: someone whose connection was replaced, back at the same address within DEPARTURE_HOLD.graceMs, reconnected — they neither left nor joined (issue 13)', () => {
  const bob = { address: `${ROOM}/bob`, displayName: 'Bob', userAddress: undefined };

  it('the leave is said at once; their return within the grace takes its line\'s place with one that they reconnected, and says no arrival', async () => {
    const store = new StateStore();
    const clock = new ManualClock();
    const events = new RoomEventLog(store, clock);
    events.left(ROOM, bob);
    expect(lines(store)).toEqual([['left', 'Bob']]);
    await clock.advance(DEPARTURE_HOLD.graceMs);
    events.arrived(ROOM, bob);
    expect(lines(store)).toEqual([['reconnected', 'Bob']]);
    expect(Object.values(store.state.roomEvents)[0]).toMatchObject({ peerAddress: bob.address, time: DEPARTURE_HOLD.graceMs });
    // Their next leave and a later arrival are the ordinary lines again.
    events.left(ROOM, bob);
    await clock.advance(DEPARTURE_HOLD.graceMs + 1);
    events.arrived(ROOM, bob);
    expect(lines(store)).toEqual([
      ['reconnected', 'Bob'],
      ['left', 'Bob'],
      ['joined', 'Bob'],
    ]);
  });

  it('someone else at that address (the room shows its moderators a different user), a room left meanwhile, or a kick is no reconnection; the same user on a new connection is', () => {
    const store = new StateStore();
    const events = new RoomEventLog(store, new ManualClock());
    events.left(ROOM, { ...bob, userAddress: 'bob@parley.localhost/1' });
    events.arrived(ROOM, { ...bob, userAddress: 'mallory@parley.localhost/1' });
    events.left(ROOM, { ...bob, userAddress: 'bob@parley.localhost/1' });
    // The same user on a new connection (its own resource) is back.
    events.arrived(ROOM, { ...bob, userAddress: 'bob@parley.localhost/2' });
    events.left(ROOM, bob);
    events.forget(ROOM);
    events.arrived(ROOM, bob);
    events.add(ROOM, 'kicked', bob);
    events.arrived(ROOM, bob);
    expect(lines(store)).toEqual([
      ['left', 'Bob'],
      ['joined', 'Bob'],
      ['reconnected', 'Bob'],
      ['left', 'Bob'],
      ['joined', 'Bob'],
      ['kicked', 'Bob'],
      ['joined', 'Bob'],
    ]);
  });

  it('a reconnection neither chimes nor notifies, and a screen reader hears it in plain words', () => {
    const arrivals = new RoomArrivals('standup');
    arrivals.look([], [event('e1', 1, 'left')]);
    expect(arrivals.look([], [event('e2', 2, 'reconnected')])).toEqual({ tone: undefined, departures: [], notices: [] });
    expect(unannouncedEvents(new Set(['e1']), [event('e2', 2, 'reconnected')]).map(roomEventText)).toEqual(['Bob reconnected']);
  });

  it('a removal says the reason its moderator gave, and reads as before with none (Parley’s kick gives none)', () => {
    expect(roomEventText({ ...event('e1', 1, 'kicked'), reason: 'spamming links' })).toBe('Bob was removed from the room (“spamming links”)');
    expect(roomEventText({ ...event('e2', 2, 'banned'), reason: 'spamming links' })).toBe('Bob was removed and banned from the room (“spamming links”)');
    expect(roomEventText(event('e3', 3, 'kicked'))).toBe('Bob was removed from the room');
  });
});

function message(id: string, time: number, sender = 'Ann', direction: ChatMessage['direction'] = 'incoming'): ChatMessage {
  return {
    id,
    stanzaId: id,
    body: `text ${id}`,
    direction,
    displayName: sender,
    senderAddress: `${ROOM}/${sender.toLowerCase()}`,
    roomAddress: ROOM,
    time,
    editedTime: undefined,
    replace: undefined,
    acked: true,
    customerData: undefined,
  };
}

/** A timeline item in words: an event line's id, a group's message ids, or a day mark and its time. */
function itemWords(item: ChatTimelineItem): string {
  if (item.kind === 'event') return item.event.id;
  if (item.kind === 'day') return `day ${item.time}`;
  if (item.kind === 'new') return 'new';
  return item.group.messages.map((one) => one.id).join('+');
}

function event(id: string, time: number, kind: RoomEvent['kind'] = 'joined', displayName = 'Bob'): RoomEvent {
  return { id, roomAddress: ROOM, kind, displayName, peerAddress: `${ROOM}/${displayName.toLowerCase()}`, time };
}

describe('Chat timeline: event lines sit between the messages in time order and break a sender\'s group (issue 15)', () => {
  it('interleaves groups and lines by time', () => {
    const items = chatTimeline([message('m1', 1_000), message('m2', 2_000), message('m3', 4_000)], [event('e0', 500), event('e1', 3_000), event('e2', 9_000)]);
    expect(items.map(itemWords)).toEqual(['e0', 'm1+m2', 'e1', 'm3', 'e2']);
  });
});

describe('Chat timeline: the messages you had not seen start after a line of their own', () => {
  it('finds the first of the last unread messages from others, passing over yours; the line breaks its sender’s group there', () => {
    const mine = (id: string, time: number) => ({ ...message(id, time), direction: 'outgoing' }) as ChatMessage;
    const messages = [message('m1', 1_000), message('m2', 2_000), mine('o1', 2_500), message('m3', 3_000)];
    expect(firstUnreadId(messages, 2)).toBe('m2');
    expect(firstUnreadId(messages, 1)).toBe('m3');
    expect(firstUnreadId(messages, 0)).toBeUndefined();
    expect(firstUnreadId(messages, 9)).toBe('m1');
    expect(chatTimeline([message('m1', 1_000), message('m2', 2_000)], [], 'm2').map(itemWords)).toEqual(['m1', 'new', 'm2']);
    expect(chatTimeline([message('m1', 1_000), message('m2', 2_000)], []).map(itemWords)).toEqual(['m1+m2']);
  });
});

describe('Chat timeline: a log of several days (a room’s history) says where each day begins, and no group crosses midnight', () => {
  const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, day, hour, minute).getTime();

  it('marks the first item of each day, a group broken at midnight; a log of one day has no marks', () => {
    const items = chatTimeline([message('m1', at(24, 23, 58)), message('m2', at(25, 0, 1)), message('m3', at(26, 9))], [event('e1', at(24, 22)), event('e2', at(26, 8))]);
    expect(items.map(itemWords)).toEqual([`day ${at(24, 22)}`, 'e1', 'm1', `day ${at(25, 0, 1)}`, 'm2', `day ${at(26, 8)}`, 'e2', 'm3']);
    expect(chatTimeline([message('m1', at(25, 0, 1)), message('m2', at(25, 23, 59))], [event('e1', at(25, 12))]).map(itemWords)).toEqual(['m1', 'e1', 'm2']);
  });

  it('names a day "Today", "Yesterday", else by its weekday and date, with the year when it is not this one', () => {
    const now = at(26, 9, 30);
    expect(formatDay(at(26, 0, 0), now)).toBe('Today');
    expect(formatDay(at(25, 23, 59), now)).toBe('Yesterday');
    expect(formatDay(at(23, 12), now)).toBe(new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric' }).format(at(23, 12)));
    const lastYear = new Date(2025, 11, 31, 12).getTime();
    expect(formatDay(lastYear, now)).toBe(new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(lastYear));
  });

  it('a log left open overnight names its days anew as midnight passes: "Today" becomes "Yesterday" by itself', () => {
    vi.useFakeTimers({ now: at(26, 23, 59) });
    try {
      const days: number[] = [];
      const stop = followDays((today) => days.push(today));
      expect(days).toEqual([at(26, 0)]);
      vi.advanceTimersByTime(59_000);
      expect(days, 'nothing before midnight').toHaveLength(1);
      vi.advanceTimersByTime(2_000);
      expect(days).toEqual([at(26, 0), at(27, 0)]);
      expect(formatDay(at(26, 12), days.at(-1))).toBe('Yesterday');
      vi.advanceTimersByTime(86_400_000);
      expect(days).toEqual([at(26, 0), at(27, 0), at(28, 0)]);
      stop();
      vi.advanceTimersByTime(2 * 86_400_000);
      expect(days, 'stopped, it follows no more').toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the next midnight is the calendar’s, on a day with a daylight-saving change too', () => {
    for (const month of [2, 9]) {
      for (let day = 1; day <= 31; day += 1) {
        const noon = new Date(2026, month, day, 12).getTime();
        const next = new Date(startOfNextDay(noon));
        expect([next.getDate(), next.getHours(), next.getMinutes()]).toEqual([new Date(2026, month, day + 1).getDate(), 0, 0]);
      }
    }
  });
});

describe('SPEC §9 chat grouping window: "Chat grouping window 300 s by default"', () => {
  /** The ids of each group's messages, group by group, at the default window. */
  const grouped = (messages: readonly ChatMessage[]): string[][] => groupChatMessages(messages).map((group) => group.messages.map(({ id }) => id));

  it('one sender 299.999 s after the group’s first message stays in its group', () => {
    expect(grouped([message('first', 1_000), message('second', 1_000 + 299_999)])).toEqual([['first', 'second']]);
  });

  it('one sender 300.001 s after the group’s first message starts a new group', () => {
    expect(grouped([message('first', 1_000), message('second', 1_000 + 300_001)])).toEqual([['first'], ['second']]);
  });

  it('the window runs from the group’s first message, not from the one before: messages every 200 s start a new group at 400 s', () => {
    expect(grouped([message('a', 0), message('b', 200_000), message('c', 400_000)])).toEqual([['a', 'b'], ['c']]);
  });

  it('one sender under a new name (renamed) starts a new group, as SimpleWebRTC 1.30.3 groups', () => {
    const renamed = { ...message('second', 2_000), displayName: 'Annie' };
    expect(grouped([message('first', 1_000), renamed])).toEqual([['first'], ['second']]);
  });
});

describe('Room arrivals: what plays a tone or notifies is what others did since the last look, never what was there (issue 15)', () => {
  it('the first look only learns; then one tone for the most important arrival and one notice per kind', () => {
    const arrivals = new RoomArrivals('standup');
    expect(arrivals.look([message('m1', 1)], [event('e1', 1)])).toEqual({ tone: undefined, departures: [], notices: [] });
    expect(arrivals.look([message('m1', 1)], [event('e1', 1)])).toEqual({ tone: undefined, departures: [], notices: [] });

    // A plain leave's tone waits (LeaveHold); a kick's does not.
    expect(arrivals.look([message('m1', 1)], [event('e1', 1), event('e2', 2, 'left')])).toEqual({ tone: undefined, departures: ['e2'], notices: [] });
    expect(arrivals.look([message('m1', 1)], [event('e1', 1), event('e2', 2, 'left'), event('e2k', 2, 'kicked', 'Dee')])).toMatchObject({ tone: 'left', departures: [] });
    const batch = arrivals.look([message('m1', 1), message('m2', 3), message('m3', 4, 'Cy')], [event('e1', 1), event('e2', 2, 'left'), event('e3', 5, 'attention', 'Cy')]);
    expect(batch.tone).toBe('attention');
    expect(batch.notices).toEqual([
      { title: '2 new messages in standup', body: 'Cy: text m3', tag: `parley-message:${ROOM}` },
      { title: 'Cy asks for your attention', body: 'in standup', tag: `parley-attention:${ROOM}` },
    ]);
  });

  it('entering a room is not news: the history its join brings after the first look neither chimes nor notifies', () => {
    const arrivals = new RoomArrivals('standup');
    // First looked at while the room is still joining, before it has any message.
    arrivals.look([], []);
    // Joined at 1 000; the room's history, said before, follows.
    expect(arrivals.look([message('h1', 100), message('h2', 200, 'Cy')], [], 1_000)).toEqual({ tone: undefined, departures: [], notices: [] });
    expect(arrivals.look([message('h1', 100), message('h2', 200, 'Cy'), message('m1', 1_500)], [], 1_000)).toMatchObject({ tone: 'message', notices: [{ title: 'Ann in standup' }] });
  });

  it('a rejoin after a lost connection chimes for what was said meanwhile, not for the older history it replays', () => {
    const arrivals = new RoomArrivals('standup');
    arrivals.look([message('m1', 1_500)], [], 1_000);
    // Rejoined at 9 000: the history from before the first join, and a message said during the outage.
    const rejoined = arrivals.look([message('h0', 500), message('m1', 1_500), message('away', 5_000, 'Cy')], [], 9_000);
    expect(rejoined).toMatchObject({ tone: 'message', notices: [{ title: 'Cy in standup', body: 'text away' }] });
  });

  it('your own messages and lock changes neither chime nor notify', () => {
    const arrivals = new RoomArrivals('standup');
    arrivals.look([], []);
    expect(arrivals.look([message('mine', 1, 'Me', 'outgoing')], [event('e1', 1, 'locked')])).toEqual({ tone: undefined, departures: [], notices: [] });
    expect(arrivals.look([message('mine', 1, 'Me', 'outgoing'), message('m2', 2)], []).notices).toEqual([
      { title: 'Ann in standup', body: 'text m2', tag: `parley-message:${ROOM}` },
    ]);
  });
});

describe('Room announcements: a screen reader hears each new event line once, nothing that was there, no attention request twice (issue 15)', () => {
  const event = (id: string, kind: RoomEvent['kind'], displayName?: string): RoomEvent => ({ id, roomAddress: ROOM, kind, displayName, peerAddress: displayName && `${ROOM}/${displayName.toLowerCase()}`, time: 0 });
  const before = [event('1', 'joined', 'Ann')];
  const after = [...before, event('2', 'left', 'Bob'), event('3', 'attention', 'Cy'), event('4', 'locked')];

  it('the first look announces nothing: the lines shown when the page opened are no news', () => {
    expect(unannouncedEvents(undefined, after)).toEqual([]);
  });

  it('later looks announce only the lines that arrived since, in plain words, leaving attention requests to their alert', () => {
    const news = unannouncedEvents(new Set(before.map((line) => line.id)), after);
    expect(news.map(roomEventText)).toEqual(['Bob left', 'The room was locked with a password']);
    expect(unannouncedEvents(new Set(after.map((line) => line.id)), after)).toEqual([]);
  });
});

describe(`Room announcements of a leave wait LEAVE_HOLD_MS (${LEAVE_HOLD_MS} ms): a connection the server replaced is said as "reconnected", never "left" first; the chat's own log speaks while it is open (issue 13)`, () => {
  const event = (id: string, kind: RoomEvent['kind'], displayName?: string): RoomEvent => ({ id, roomAddress: ROOM, kind, displayName, peerAddress: displayName && `${ROOM}/${displayName.toLowerCase()}`, time: 0 });

  function announcer(): { clock: ManualClock; said: string[]; chat: { open: boolean }; show: (events: RoomEvent[]) => void } {
    const clock = new ManualClock();
    const said: string[] = [];
    const chat = { open: false };
    let shown: RoomEvent[] = [];
    const announcements = new RoomAnnouncements({
      clock,
      stillShown: (eventId) => shown.some((line) => line.id === eventId),
      stillHeld: () => false,
      chatShown: () => chat.open,
      say: (text) => said.push(text),
    });
    const show = (events: RoomEvent[]) => {
      shown = events;
      announcements.look(events);
    };
    show([event('1', 'joined', 'Ann')]);
    return { clock, said, chat, show };
  }

  it('a leave is said once the hold is over, if its line is still there; a join or a kick at once', async () => {
    const { clock, said, show } = announcer();
    show([event('1', 'joined', 'Ann'), event('2', 'left', 'Bob'), event('3', 'kicked', 'Cy'), event('4', 'joined', 'Dee')]);
    expect(said).toEqual(['Cy was removed from the room. Dee joined.']);
    await clock.advance(LEAVE_HOLD_MS - 1);
    expect(said).toHaveLength(1);
    await clock.advance(1);
    expect(said).toEqual(['Cy was removed from the room. Dee joined.', 'Bob left.']);
  });

  it('a leave whose line gave way to "reconnected" within the hold: only the return is said', async () => {
    const { clock, said, show } = announcer();
    show([event('1', 'joined', 'Ann'), event('2', 'left', 'Bob')]);
    await clock.advance(LEAVE_HOLD_MS / 2);
    show([event('1', 'joined', 'Ann'), event('3', 'reconnected', 'Bob')]);
    await clock.advance(LEAVE_HOLD_MS);
    expect(said).toEqual(['Bob reconnected.']);
  });

  it('while the chat is open its log reads the lines: nothing is said here, a leave held from before included', async () => {
    const { clock, said, chat, show } = announcer();
    show([event('1', 'joined', 'Ann'), event('2', 'left', 'Bob')]);
    chat.open = true;
    show([event('1', 'joined', 'Ann'), event('2', 'left', 'Bob'), event('3', 'joined', 'Cy')]);
    await clock.advance(LEAVE_HOLD_MS);
    expect(said).toEqual([]);
  });
});
