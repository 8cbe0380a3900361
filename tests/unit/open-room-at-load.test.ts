import { createStore } from 'jotai';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ParleyTab } from '../../src/main-thread/ParleyTab';
import { openRoomAtLoad } from '../../src/ui/useOpenRoom';
import { until } from '../support/until';

afterEach(() => vi.unstubAllGlobals());

/**
 * What a page's SharedWorker and Web Locks give the bridge, faked because Node has neither: the
 * worker's port is one end of a real message channel, whose other end this test reads as the
 * session would, answering nothing; every lock is granted at once.
 */
function pageWithSilentSession(): { calls: string[]; sessionPort: MessagePort } {
  const { port1: pagePort, port2: sessionPort } = new MessageChannel();
  vi.stubGlobal(
    'SharedWorker',
    class extends EventTarget {
      readonly port = pagePort;
    },
  );
  vi.stubGlobal('navigator', { locks: { request: (_name: string, granted: () => Promise<unknown>) => granted() } });
  vi.stubGlobal('window', { addEventListener: () => undefined });
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
