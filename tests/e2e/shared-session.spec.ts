import { test as base, expect } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';

/**
 * Session counts are read from the XMPP server, so this file runs its own servers: sessions other
 * tests leave behind (resumable for a few seconds) would otherwise move the count.
 */
const test = base.extend<object, { ownParley: RunningParley }>({
  ownParley: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const parley = await startTestParley();
      await use(parley);
      await parley.stop();
    },
    { scope: 'worker', timeout: 30_000 },
  ],
});
test.describe.configure({ mode: 'serial' });

test.describe('Tabs share one signalling session (DESIGN: a SharedWorker owns the single XMPP websocket)', () => {
  test('two tabs of one browser both show connected over exactly one XMPP session', async ({ browser, ownParley }) => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await first.goto(ownParley.url);
    await expect(first.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    const second = await context.newPage();
    await second.goto(ownParley.url);
    await expect(second.getByRole('status', { name: 'Connection' })).toHaveText('Connected');

    expect((await ownParley.xmpp.stats()).clientSessions).toBe(1);
    await expect(first.locator('html')).toHaveAttribute('data-analysis-worker', 'ready');
    await context.close();
  });

  test('a second browser is a second session', async ({ browser, ownParley }) => {
    // The first test's session may still be resumable for a few seconds after its browser closed.
    await expect.poll(async () => (await ownParley.xmpp.stats()).clientSessions, { timeout: 20_000 }).toBe(0);
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    for (const context of contexts) {
      const page = await context.newPage();
      await page.goto(ownParley.url);
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    }
    expect((await ownParley.xmpp.stats()).clientSessions).toBe(2);
    await Promise.all(contexts.map((context) => context.close()));
  });
});
