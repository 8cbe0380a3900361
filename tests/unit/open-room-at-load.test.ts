import { createStore } from 'jotai';
import type { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ParleyTab } from '../../src/main-thread/ParleyTab';
import { openRoomAtLoad } from '../../src/ui/useOpenRoom';
import { fakeSessionPage } from '../support/fakeSessionPage';
import { until } from '../support/until';

afterEach(() => vi.unstubAllGlobals());

/** A page whose session reads what the tab sends and answers nothing. */
function pageWithSilentSession(): { calls: string[]; sessionPort: MessagePort } {
  const sessionPort = fakeSessionPage();
  const calls: string[] = [];
  sessionPort.on('message', (message: { path?: string[] }) => calls.push((message.path ?? []).join('.')));
  return { calls, sessionPort };
}

describe('Join path: a room page opens its room right behind its attach, not once the session has answered it (issue 14: the answer waits for the worker to start and for the busy page to read it)', () => {
  it('the room opened as the page loads reaches the session after the attach, while the attach is still unanswered', async () => {
    const { calls, sessionPort } = pageWithSilentSession();
    const tab = new ParleyTab(createStore());
    let answered = false;
    void tab.attached.then(() => (answered = true));

    openRoomAtLoad(tab.actions, tab.attachSent, 'standup', false);
    await until(() => calls.includes('openRoom'), 'the room’s opening at the session');
    expect(calls).toEqual(['attach', 'openRoom']);
    expect(answered).toBe(false);
    sessionPort.close();
  });
});
