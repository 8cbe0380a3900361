import { createStore, Provider } from 'jotai';
import type { VNode } from 'preact';
import { createElement } from 'react';
import { renderToStringAsync } from 'preact-render-to-string';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { Room } from '../../src/protocol/entities';
import { initialSessionState } from '../../src/protocol/session-state';
import { ChatPopout } from '../../src/ui/ChatPopout';
import { TabContext } from '../../src/ui/tabContext';
import { room } from './callTab-fakes';

/** Rendering to markup runs no effect: the room is not opened, and no action is called. */
const tab = { actions: {}, attachSent: new Promise<void>(() => {}) } as unknown as ParleyTab;

/** The pop-out chat of `/standup?view=chat`, while the session holds `shown` for it, once its lazy parts have loaded. */
async function popoutWith(shown: Room): Promise<string> {
  const store = createStore();
  store.set(sessionStateAtom, { ...initialSessionState(), rooms: { [shown.id]: shown } });
  const page = createElement(Provider, { store }, createElement(TabContext, { value: tab }, createElement(ChatPopout, { roomName: 'standup' })));
  // React's element types, Preact's elements: what the compat layer makes is the renderer's VNode.
  return await renderToStringAsync(page as unknown as VNode);
}

// The chat reads whether its tab is the one looked at; node has no document.
beforeEach(() => vi.stubGlobal('document', { visibilityState: 'visible' }));
afterEach(() => vi.unstubAllGlobals());

const locked = { providedName: 'standup', roomState: 'password-required', joined: false, passwordRequired: true } as const;

describe('The pop-out chat of a locked room you were never in asks for its password, as the room’s tab does (SPEC §4 password-required)', () => {
  it('a first join the room refused for its password: the chat says the room is locked, and offers the password prompt', async () => {
    const popout = await popoutWith(room({ ...locked, joinedAt: undefined }));
    expect(popout).toContain('This room is locked.');
    expect(popout).toContain('Enter the room password to join.');
    expect(popout).toContain('placeholder="Room password"');
  });

  it('a room you were in, locked while you were away: one prompt, in the room’s state above the chat, not two', async () => {
    const popout = await popoutWith(room({ ...locked, joinedAt: 1_000 }));
    expect(popout.match(/placeholder="Room password"/g)).toHaveLength(1);
    expect(popout).toContain('The room was locked while you were away — ask the owner for the password.');
  });
});
