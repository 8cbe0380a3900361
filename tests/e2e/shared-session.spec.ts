import { expect, test } from './fixtures';

test.describe('Tabs share one signalling session (DESIGN: a SharedWorker owns the single XMPP websocket)', () => {
  test('two tabs of one browser both show connected over exactly one XMPP session', async ({ context, parley, appUrl }) => {
    const before = (await parley.xmpp.stats()).clientSessions;
    const first = await context.newPage();
    await first.goto(appUrl);
    await expect(first.getByRole('status', { name: 'Connection' })).toHaveText('connected');
    const second = await context.newPage();
    await second.goto(appUrl);
    await expect(second.getByRole('status', { name: 'Connection' })).toHaveText('connected');

    expect((await parley.xmpp.stats()).clientSessions - before).toBe(1);
    await expect(first.locator('html')).toHaveAttribute('data-analysis-worker', 'ready');
  });

  test('a second browser is a second session', async ({ browser, parley, appUrl }) => {
    const before = (await parley.xmpp.stats()).clientSessions;
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    for (const context of contexts) {
      const page = await context.newPage();
      await page.goto(appUrl);
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('connected');
    }
    expect((await parley.xmpp.stats()).clientSessions - before).toBe(2);
    await Promise.all(contexts.map((context) => context.close()));
  });
});
