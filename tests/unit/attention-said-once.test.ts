import { createStore, Provider } from 'jotai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { RoomEvent } from '../../src/protocol/entities';
import { initialSessionState } from '../../src/protocol/session-state';
import { AttentionAlerts } from '../../src/ui/AttentionAlerts';
import { attentionSpeakers } from '../../src/ui/attentionSpeakers';
import { ChatLog } from '../../src/ui/ChatLog';
import { TabContext } from '../../src/ui/tabContext';
import { BOB, peer, ROOM } from './callTab-fakes';

const CAROL = `${ROOM}/carol`;
/** Bob asking for your attention: his record while it holds, and the one line the chat gets for it. */
const bobAsking = peer(BOB, { displayName: 'Bob', roomAddress: ROOM, requestingAttention: true });
const bobAskedLine = { id: 'attention-1', roomAddress: ROOM, kind: 'attention', peerAddress: BOB, displayName: 'Bob', time: Date.UTC(2026, 0, 5, 9, 30) } as RoomEvent;

/** The banner as the room page shows it, the chat open or closed. */
function alertsWith(chatShown: boolean): string {
  const store = createStore();
  store.set(sessionStateAtom, { ...initialSessionState(), peers: { [BOB]: bobAsking } });
  return renderToStaticMarkup(createElement(Provider, { store }, createElement(AttentionAlerts, { roomAddress: ROOM, chatShown })));
}

/** The open chat's log holding Bob's line (a message group reads the tab's actions; rendering calls none). */
function openChatLog(): string {
  const tab = { actions: {} } as ParleyTab;
  return renderToStaticMarkup(
    createElement(TabContext, { value: tab }, createElement(ChatLog, { messages: [], events: [bobAskedLine], heldLeaveIds: new Set<string>(), editableId: undefined, onEdit: () => {}, onReplyPrivately: () => {}, selfAddress: undefined, mentionsYou: () => false, newFrom: undefined, emptyText: 'No messages yet.', shown: true })),
  );
}

describe('An attention request is said once: by the open chat’s log, or by the alert while the chat is closed, and shown in both cases (SPEC §4 attention request)', () => {
  it('the chat open: its log (a live region) holds the line, and the banner is shown but hidden from screen readers', () => {
    expect(openChatLog()).toMatch(/<div[^>]*role="log"[^>]*>.*Bob asked for your attention<\/p>/);
    const alerts = alertsWith(true);
    expect(alerts).toContain('Bob is asking for your attention.');
    expect(alerts).toMatch(/^<div role="alert" class="attention-alerts"><p aria-hidden="true" class="banner banner-attention">/);
  });

  it('the chat closed (its log renders no lines): the alert says it', () => {
    const alerts = alertsWith(false);
    expect(alerts).toContain('Bob is asking for your attention.');
    expect(alerts).toMatch(/^<div role="alert" class="attention-alerts"><p class="banner banner-attention">/);
  });

  it('who says a request is settled as it comes: opening or closing the chat while it holds does not say it again', () => {
    const cameWithChatOpen = attentionSpeakers(new Map(), [BOB], true);
    expect(cameWithChatOpen.get(BOB)).toBe('chat');
    // Closed while Bob's request holds; Carol's comes meanwhile.
    const chatClosed = attentionSpeakers(cameWithChatOpen, [BOB, CAROL], false);
    expect([...chatClosed]).toEqual([
      [BOB, 'chat'],
      [CAROL, 'alert'],
    ]);
    // Opened again: Carol's stays the alert's; once Bob's ends, his next request is settled anew.
    const reopened = attentionSpeakers(attentionSpeakers(chatClosed, [CAROL], true), [CAROL, BOB], false);
    expect([...reopened]).toEqual([
      [CAROL, 'alert'],
      [BOB, 'alert'],
    ]);
  });
});
