import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { CHROMIUM_EXECUTABLE, TEST_CHROMIUM_ARGS } from '../../playwright.config';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';
import { SESSION_LOCK_PREFIX } from '../../src/protocol/tabs';
import { recordShownTexts, shownTexts } from './rooms-people';

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

  test('a shared worker that dies after the tabs attached is noticed: every tab says so in plain words and offers Reload, and a reload brings the session back', async ({ browser, ownParley }) => {
    const context = await browser.newContext();
    const tabs = [await context.newPage(), await context.newPage()];
    for (const tab of tabs) {
      await tab.goto(ownParley.url);
      await expect(tab.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    }
    // While the worker lives, neither tab is told it is gone (each asked for the worker's lock as it attached).
    await expect.poll(() => sessionLockRequests(tabs[1]!)).toEqual({ held: 1, pending: 2 });
    for (const tab of tabs) await expect(tab.getByRole('button', { name: 'Reload' })).toHaveCount(0);

    // Ended as a crash or the browser would end it: no close, no message on its ports.
    const browserSession = await browser.newBrowserCDPSession();
    const { targetInfos } = await browserSession.send('Target.getTargets');
    const workers = targetInfos.filter((target) => target.type === 'shared_worker' && target.url.startsWith(new URL(ownParley.url).origin));
    expect(workers).toHaveLength(1);
    await browserSession.send('Target.closeTarget', { targetId: workers[0]!.targetId });
    await browserSession.detach();

    for (const tab of tabs) {
      await expect(tab.getByRole('alert').filter({ hasText: 'Parley stopped' })).toHaveText('Parley stopped working in this tab. Reload the page to carry on.Reload');
      await expect(tab.getByRole('button', { name: 'Reload' })).toBeVisible();
    }
    // A reload starts a new worker, which the reloaded tab is not told is gone.
    await tabs[0]!.getByRole('button', { name: 'Reload' }).click();
    await expect(tabs[0]!.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    await expect.poll(() => sessionLockRequests(tabs[0]!)).toEqual({ held: 1, pending: 1 });
    await expect(tabs[0]!.getByRole('button', { name: 'Reload' })).toHaveCount(0);
    await context.close();
  });
});

test.describe('The connection badge says what the session does from the page\'s first paint: "Connecting…" until it is up, never "Not connected" (SPEC §4 connection state)', () => {
  test('the first tab of a browser, whose worker starts with it, and a second tab, whose worker is up', async ({ browser, ownParley }) => {
    const context = await browser.newContext();
    await recordShownTexts(context, '[role="status"][aria-label="Connection"]');
    const first = await context.newPage();
    await first.goto(ownParley.url);
    await expect(first.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    const second = await context.newPage();
    await second.goto(new URL('badge-room', ownParley.url).href);
    await expect(second.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    // Before the worker's first word the tab cannot know more than that it asked to connect; a worker
    // that connects before the page's first paint (its script started by the HTML) has it say "Connected" at once.
    const withoutFirstConnecting = (texts: readonly string[]) => texts.filter((text, index) => !(text === 'Connecting…' && index === 0));
    expect(withoutFirstConnecting(await shownTexts(first))).toEqual(['Connected']);
    expect(withoutFirstConnecting(await shownTexts(second))).toEqual(['Connected']);
    await context.close();
  });
});

test.describe('A browser set not to let the site keep data refuses Parley’s shared worker: the page says so in plain words and what to change, not that part of Parley did not load', () => {
  test('Chromium whose own setting blocks site data (written into a fresh profile as its settings page would)', async ({ playwright, ownParley }) => {
    const profile = mkdtempSync(join(tmpdir(), 'parley-site-data-blocked-'));
    mkdirSync(join(profile, 'Default'));
    // Settings › Privacy › Site data: "Don't allow sites to save data on your device".
    writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }));
    const context = await playwright.chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_EXECUTABLE, args: TEST_CHROMIUM_ARGS });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(new URL('blocked-room', ownParley.url).href);
      const storage = await page.evaluate(() => {
        try {
          void window.localStorage;
          return 'allowed';
        } catch (error) {
          return error instanceof DOMException ? error.name : String(error);
        }
      });
      expect(storage, 'the browser blocks site data').toBe('SecurityError');
      await expect(page.getByRole('alert').filter({ hasText: 'keep data' })).toHaveText(
        'Your browser is set not to let this site keep data, which Parley needs. Allow site data for this site in your browser’s settings, then reload.Reload',
      );
      await expect(page.getByText('part of it did not load')).toHaveCount(0);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

/** How many shared workers' locks (src/protocol/tabs.ts sessionLockName) are held in the page's origin, and how many tabs wait for one. */
async function sessionLockRequests(page: Page): Promise<{ held: number; pending: number }> {
  return page.evaluate(async (prefix) => {
    const { held = [], pending = [] } = await navigator.locks.query();
    const count = (locks: LockInfo[]) => locks.filter((lock) => lock.name?.startsWith(prefix)).length;
    return { held: count(held), pending: count(pending) };
  }, SESSION_LOCK_PREFIX);
}
