import { createStore } from 'jotai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import { heldPeersAtom } from '../../src/main-thread/call/callAtoms';
import { heldLeaveIdsAtomFamily, sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { ChatMessage, RoomEvent } from '../../src/protocol/entities';
import { initialSessionState } from '../../src/protocol/session-state';
import { newCallRecord } from '../../src/shared-worker/rooms/callRecord';
import { ChatLog } from '../../src/ui/ChatLog';
import { formatDay } from '../../src/ui/formatTime';
import { TabContext } from '../../src/ui/tabContext';
import { peer } from './callTab-fakes';

const time = Date.UTC(2026, 10, 26, 14, 5);
const message = { id: 'm1', roomAddress: 'room@rooms.example', senderAddress: 'room@rooms.example/bob', displayName: 'Bob', direction: 'incoming', body: 'hello there', time, acked: true } as ChatMessage;
const joined = { id: 'e1', roomAddress: 'room@rooms.example', kind: 'joined', peerAddress: 'room@rooms.example/alice', displayName: 'Alice', time } as RoomEvent;

/** A message group reads the tab's actions (its Retry button); rendering to markup calls none. */
const tab = { actions: {} } as ParleyTab;

/**
 * The log as ChatPanel renders it from a tab's store: the room's event lines, and the people a call
 * still keeps (this tab's own, DepartureHold's heldPeersAtom, or the one another tab runs, from the
 * call record), whose unsettled leaves come from heldLeaveIdsAtomFamily.
 */
function logOf(shown: boolean, events: readonly RoomEvent[] = [joined], heldAddresses: readonly string[] = [], heldBy: 'this tab' | 'another tab' = 'this tab'): string {
  const store = createStore();
  const roomEvents = Object.fromEntries(events.map((event) => [event.id, event]));
  // Another tab's call (a pop-out chat has none) is known by what it reported to the session.
  const calls = heldBy === 'another tab' ? { [joined.roomAddress]: { ...newCallRecord(joined.roomAddress), joined: true, heldPeers: heldAddresses.map((address) => peer(address)) } } : {};
  store.set(sessionStateAtom, { ...initialSessionState(), roomEvents, calls });
  if (heldBy === 'this tab') store.set(heldPeersAtom, { [joined.roomAddress]: heldAddresses.map((address) => peer(address)) });
  const heldLeaveIds = store.get(heldLeaveIdsAtomFamily(joined.roomAddress));
  return renderToStaticMarkup(
    createElement(TabContext, { value: tab }, createElement(ChatLog, { messages: [message], events, heldLeaveIds, editableId: undefined, onEdit: () => {}, onReplyPrivately: () => {}, selfAddress: undefined, mentionsYou: () => false, newFrom: undefined, emptyText: 'No messages yet.', shown })),
  );
}

/** One of Alice's lines, a minute after `joined` per step. */
const aliceEvent = (id: string, kind: 'joined' | 'left', step: number) => ({ ...joined, id, kind, time: time + step * 60_000 }) as RoomEvent;

describe('Chat log: a closed chat panel renders no lines, and opening it shows them all (issue 14, the join path: no time formatted for nobody while the first offer is answered)', () => {
  it('closed, the log is there but empty; shown, it holds the message and the event line with their times', () => {
    const closed = logOf(false);
    expect(closed).toContain('role="log"');
    expect(closed).not.toContain('hello there');
    expect(closed).not.toContain('Alice joined');
    expect(closed).not.toContain('<time');

    const open = logOf(true);
    expect(open).toContain('hello there');
    expect(open).toContain('Alice joined');
    expect(open).toContain(`datetime="${new Date(time).toISOString()}"`);
  });
});

describe('Chat log: a log of several days says where each begins, as a heading (a room’s history)', () => {
  it('puts the day of Alice’s arrival two days before Bob’s message before her line, and his day before his message; a log of one day has none', () => {
    const twoDaysBefore = time - 2 * 86_400_000;
    const html = logOf(true, [{ ...joined, time: twoDaysBefore }]);
    const [arrivalDay, messageDay] = [formatDay(twoDaysBefore), formatDay(time)];
    expect(html).toContain(`<h3 class="chat-day">${arrivalDay}</h3><p class="chat-event chat-event-joined">`);
    expect(html).toContain(`<h3 class="chat-day">${messageDay}</h3><article class="message-group incoming">`);
    expect(logOf(true, [joined])).not.toContain('chat-day');
  });
});

describe('Chat log: a leave the call has not settled reads as a reconnection, as the person\'s tile does (DepartureHold; issue 15 event lines)', () => {
  it('says Alice is reconnecting while the call keeps her, and that she left once it lets her go', () => {
    const events = [joined, aliceEvent('e2', 'left', 1)];
    const held = logOf(true, events, [joined.peerAddress!]);
    expect(held).toContain('Alice is reconnecting…');
    expect(held).not.toContain('Alice left');

    const settled = logOf(true, events, []);
    expect(settled).toContain('Alice left');
    expect(settled).not.toContain('reconnecting');
  });

  it('keeps an earlier leave of hers a leave: only her latest line, when it is a leave, may be a reconnection', () => {
    const address = joined.peerAddress!;
    const backSince = logOf(true, [aliceEvent('e1', 'left', 1), aliceEvent('e2', 'joined', 2)], [address]);
    expect(backSince).toContain('Alice left');
    expect(backSince).not.toContain('reconnecting');

    const leftAgain = logOf(true, [aliceEvent('e1', 'left', 1), aliceEvent('e2', 'joined', 2), aliceEvent('e3', 'left', 3)], [address]);
    expect(leftAgain.match(/Alice left/g)).toHaveLength(1);
    expect(leftAgain.indexOf('Alice left')).toBeLessThan(leftAgain.indexOf('Alice is reconnecting…'));
  });

  it('in a tab without the call (a pop-out chat), reads the people the call\'s tab reported it keeps', () => {
    const events = [joined, aliceEvent('e2', 'left', 1)];
    const popOut = logOf(true, events, [joined.peerAddress!], 'another tab');
    expect(popOut).toContain('Alice is reconnecting…');
    expect(popOut).not.toContain('Alice left');
    expect(logOf(true, events, [], 'another tab')).toContain('Alice left');
  });

  it('leaves everyone else\'s lines as they are', () => {
    const bobLeft = { ...joined, id: 'b1', kind: 'left', displayName: 'Bob', peerAddress: 'room@rooms.example/bob', time: time + 60_000 } as RoomEvent;
    const log = logOf(true, [aliceEvent('e1', 'left', 1), bobLeft], ['room@rooms.example/bob']);
    expect(log).toContain('Alice left');
    expect(log).toContain('Bob is reconnecting…');
  });
});
