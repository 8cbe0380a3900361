// A tab killed outright (its renderer process SIGKILLed: no pagehide, no unmount, nothing on its
// port) takes its chat draft with it: the others see the real-time text go and the person no longer
// typing, while the room stays with the person's other tabs, and a draft one of those wrote stays.
// Real Prosody, real Chromium; the session learns only that the tab's liveness Web Lock was let go.
import type { Page } from '@playwright/test';
import { TAB_LOCK_PREFIX } from '../../src/protocol/tabs';
import { LIGHT_DIRECT_SERVERS } from './call-ui-people';
import { killRenderer, RENDERER_PER_TAB_LAUNCH } from './renderer-kill';
import { expect, expectJoined, messageBox, participantEntry, test, typingIndicator, uniqueRoomName } from './rooms-people';

// The room and its chat, whose pages show a camera preview (LIGHT_DIRECT_SERVERS); a renderer per tab.
test.use({ parleySettings: LIGHT_DIRECT_SERVERS, launchOptions: RENDERER_PER_TAB_LAUNCH });

/** How many tabs' liveness locks (src/protocol/tabs.ts tabLockName) are held in the page's origin, and how many requests for one wait (the session's, one per tab). */
function tabLocks(page: Page): Promise<{ held: number; pending: number }> {
  return page.evaluate(async (prefix) => {
    const { held = [], pending = [] } = await navigator.locks.query();
    const count = (locks: LockInfo[]) => locks.filter((lock) => lock.name?.startsWith(prefix)).length;
    return { held: count(held), pending: count(pending) };
  }, TAB_LOCK_PREFIX);
}

/** From now on the page notes whether its typing indicator ever stops showing a draft that begins with `draft` (`draftEverLost`). */
async function watchDraftShown(page: Page, draft: string): Promise<void> {
  await page.evaluate((shown) => {
    const watch = window as Window & { draftEverLost?: boolean };
    watch.draftEverLost = false;
    const check = () => {
      if (!document.querySelector('[aria-label="Typing"] .typing-draft')?.textContent?.startsWith(shown)) watch.draftEverLost = true;
    };
    check();
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, draft);
}

function draftEverLost(page: Page): Promise<boolean | undefined> {
  return page.evaluate(() => (window as Window & { draftEverLost?: boolean }).draftEverLost);
}

test.describe('A tab killed outright takes its chat draft with it; a draft another tab of the room wrote stays (SPEC §4 chat state, §9 real-time text)', () => {
  test('Alice’s second room tab and her pop-out chat each type; the second tab is killed and Bob keeps the pop-out’s draft; the pop-out is killed and Bob sees the draft go, Alice still in the room', async ({ people }) => {
    // Three tabs and a second person, two renderers found and killed: on two busy cores, past the usual 120 s.
    test.setTimeout(180_000);
    const room = uniqueRoomName('draft-killed');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const typing = typingIndicator(bob.page);
    // Alice's first tab started her shared worker, which runs in its renderer: it is never killed.
    const secondTab = await alice.context.newPage();
    await secondTab.goto(alice.page.url());
    await expectJoined(secondTab);
    const [popout] = await Promise.all([alice.context.waitForEvent('page'), alice.page.getByRole('button', { name: 'Pop out chat' }).click()]);
    await expect(popout).toHaveURL(/\?view=chat$/);
    await expectJoined(popout);
    await expect.poll(() => tabLocks(alice.page)).toEqual({ held: 3, pending: 3 });

    await test.step('her second tab types, then her pop-out: Bob sees the pop-out’s draft', async () => {
      await messageBox(secondTab).pressSequentially('from the second tab');
      await expect(typing).toContainText('from the second tab');
      await messageBox(popout).pressSequentially('from the pop-out');
      await expect(typing).toContainText('Alice is typing…');
      await expect(typing.locator('.typing-draft')).toHaveText('from the pop-out');
    });

    await test.step('the second tab is killed: the session lets it go, and Bob keeps seeing the pop-out’s draft throughout', async () => {
      await watchDraftShown(bob.page, 'from the pop-out');
      await killRenderer(secondTab);
      // The session's request for the killed tab's lock was granted (and let go at once): it has detached that tab.
      await expect.poll(() => tabLocks(alice.page)).toEqual({ held: 2, pending: 2 });
      // Typed after that: whatever the session sent as it detached the tab reached Bob before this edit.
      await messageBox(popout).pressSequentially(', still');
      await expect(typing.locator('.typing-draft')).toHaveText('from the pop-out, still');
      expect(await draftEverLost(bob.page), 'the pop-out’s draft stayed on Bob’s screen').toBe(false);
      await expect(typing).toContainText('Alice is typing…');
    });

    await test.step('the pop-out is killed: Bob sees the draft go and Alice no longer typing; Alice is still in the room', async () => {
      await killRenderer(popout);
      await expect(typing).toBeHidden();
      await expect(bob.page.getByText('from the pop-out, still')).toHaveCount(0);
      await expect(participantEntry(bob.page, 'Alice')).toBeVisible();
      await expectJoined(alice.page);
    });

    await test.step('her first tab types on: Bob sees it, a new draft', async () => {
      await messageBox(alice.page).pressSequentially('still here');
      await expect(typing.locator('.typing-draft')).toHaveText('still here');
    });
  });
});
