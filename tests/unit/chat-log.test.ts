import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import type { ChatMessage, RoomEvent } from '../../src/protocol/entities';
import { ChatLog } from '../../src/ui/ChatLog';
import { TabContext } from '../../src/ui/tabContext';

const time = Date.UTC(2026, 10, 26, 14, 5);
const message = { id: 'm1', roomAddress: 'room@rooms.example', senderAddress: 'room@rooms.example/bob', displayName: 'Bob', direction: 'incoming', body: 'hello there', time, acked: true } as ChatMessage;
const joined = { id: 'e1', roomAddress: 'room@rooms.example', kind: 'joined', peerAddress: 'room@rooms.example/alice', displayName: 'Alice', time } as RoomEvent;

/** A message group reads the tab's actions (its Retry button); rendering to markup calls none. */
const tab = { actions: {} } as ParleyTab;

const logOf = (shown: boolean) =>
  renderToStaticMarkup(
    createElement(TabContext, { value: tab }, createElement(ChatLog, { messages: [message], events: [joined], editableId: undefined, onEdit: () => {}, emptyText: 'No messages yet.', shown })),
  );

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
