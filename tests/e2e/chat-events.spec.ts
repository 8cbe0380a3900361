import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type Page } from '@playwright/test';
import { TEST_CHROMIUM_ARGS } from '../../playwright.config';
import { chatLog, chatOption, expect, expectJoined, joinFromHome, messageBox, openPanel, participantEntry, recordTones, say, test, typingIndicator, uniqueRoomName } from './rooms-people';
import { LIGHT_DIRECT_SERVERS } from './call-ui-people';

// The room and its chat, whose pages show a camera preview (LIGHT_DIRECT_SERVERS).
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

// Issue 15 in the browser: event lines, clickable links, the real-time text toggle, and a desktop
// notification for a tab in the background. Every person is a browser context of their own.

test.describe('Event lines: who joined and who left shows in the chat, and the people already there do not (issue 15)', () => {
  test('Alice sees Bob join and leave; Bob, arriving, sees no line for Alice', async ({ people }) => {
    const room = uniqueRoomName('lines');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    await expect(chatLog(alice.page)).toContainText('Bob joined');
    await expect(participantEntry(bob.page, 'Alice')).toBeVisible();
    await expect(chatLog(bob.page)).not.toContainText('joined');

    await bob.page.getByRole('button', { name: 'Leave' }).click();
    await expect(chatLog(alice.page)).toContainText('Bob left');
  });
});

test.describe('Links in chat: http(s) addresses are links that open in a new tab, and nothing else is (issue 15)', () => {
  test("a link in Bob's message is clickable in Alice's chat, with target _blank and rel noopener noreferrer", async ({ people }) => {
    const room = uniqueRoomName('links');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    await say(bob.page, 'Notes at https://example.org/notes?id=7. Not this: javascript:alert(1) <b>bold</b>');

    const log = chatLog(alice.page);
    await expect(log).toContainText('Not this: javascript:alert(1) <b>bold</b>');
    const link = log.getByRole('link', { name: 'https://example.org/notes?id=7' });
    await expect(link).toHaveAttribute('href', 'https://example.org/notes?id=7');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(log.getByRole('link')).toHaveCount(1);
    await expect(log.locator('b')).toHaveCount(0);
  });
});

test.describe('Real-time text, disclosed: the composer says others see your typing live, and the toggle stops it (issue 15)', () => {
  test("with 'Show my typing live' off, Bob sees that Alice types but not what, and the draft he was shown goes", async ({ people }) => {
    const room = uniqueRoomName('rtt');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const input = messageBox(alice.page);
    const toggle = await chatOption(alice.page, 'Show my typing live');
    const bobsTyping = typingIndicator(bob.page);

    await expect(toggle).toBeChecked();
    await expect(input).toHaveAccessibleDescription(/Others see what you type as you type\./);
    await input.pressSequentially('first draft');
    await expect(bobsTyping).toContainText('first draft');

    await toggle.uncheck();
    await expect(input).toHaveAccessibleDescription(/Others see only that you are typing/);
    // The draft Bob was shown is taken back (under load Alice may have paused past 10 s by now, and then
    // the whole Typing region goes with it: counted, not read, so both are right).
    await expect(bobsTyping.getByText('first draft')).toHaveCount(0);
    await input.fill('');
    await input.pressSequentially('kept to myself');
    await expect(bobsTyping).toContainText('Alice is typing…');
    await expect(bobsTyping.getByText('kept to myself')).toHaveCount(0);
    await input.press('Enter');
    await expect(chatLog(bob.page)).toContainText('kept to myself');

    // A preference: the next tab of Alice's browser starts with it off too.
    const second = await alice.context.newPage();
    await second.goto(alice.page.url());
    await expectJoined(second);
    await expect(await chatOption(second, 'Show my typing live')).not.toBeChecked();
  });
});

/**
 * Playwright's own pages all count as visible (it turns on DevTools focus emulation for each), so this
 * person runs in a Chromium of their own that Playwright joins over CDP without its defaults: a second
 * tab brought to the front of the same window really hides the first (`visibilityState` 'hidden').
 */
async function ownChromium(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  // In the test's output folder, which Playwright empties before each run (Chromium's helpers may still write as it stops).
  const profile = test.info().outputPath('chromium-profile');
  const process: ChildProcess = spawn(
    '/usr/bin/chromium',
    ['--headless=new', ...TEST_CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    process.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /DevTools listening on (ws:\S+)/.exec(output);
      if (found) resolve(found[1] as string);
    });
    process.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${output}`)));
  });
  // `noDefaults` (Playwright's option for browsers it did not start): no focus emulation on the default context's pages.
  const options = { timeout: 30_000, noDefaults: true };
  const browser = await chromium.connectOverCDP(endpoint, options);
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => {});
      const exited = new Promise((resolve) => process.once('exit', resolve));
      if (process.exitCode === null) process.kill();
      await exited;
    },
  };
}

/**
 * Records every notification the page constructs, and the tags of those it closes (RecordingNotification,
 * a named stand-in around the real constructor: headless Chromium draws no notification a test could
 * see, so the page's own calls are what is observed; the real Notification is still created and closed).
 */
function recordNotifications(): void {
  const Real = window.Notification;
  const shown: Array<{ title: string; body: string; tag: string }> = [];
  const closed: string[] = [];
  Object.assign(window, { shownNotifications: shown, closedNotifications: closed });
  class RecordingNotification extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      shown.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
    }

    override close(): void {
      closed.push(this.tag);
      super.close();
    }
  }
  window.Notification = RecordingNotification;
}

/** Alice in her own Chromium (ownChromium), notifications allowed and recorded, in the room with its chat open. */
async function aliceWithNotifications(browser: Browser, appUrl: string, room: string) {
  const context = browser.contexts()[0]!;
  await context.grantPermissions(['notifications'], { origin: new URL(appUrl).origin });
  await context.addInitScript(recordNotifications);
  const alicePage = context.pages()[0]!;
  await joinFromHome(alicePage, appUrl, room, 'Alice');
  await openPanel(alicePage, 'Chat');
  await expectJoined(alicePage);
  return { context, alicePage };
}

const shownNotifications = (page: Page) => page.evaluate(() => (window as unknown as { shownNotifications: unknown[] }).shownNotifications);
const closedNotifications = (page: Page) => page.evaluate(() => (window as unknown as { closedNotifications: string[] }).closedNotifications);

test.describe('Desktop notification: a message or an attention request while the tab is hidden notifies; while it is looked at, nothing (issue 15)', () => {
  test('Alice, her room tab in the background, is notified of Bob\'s message and of his attention request; back in her room\'s tab, both notifications are closed', async ({ people, appUrl }) => {
    const room = uniqueRoomName('notify');
    const own = await ownChromium();
    try {
      const { context, alicePage } = await aliceWithNotifications(own.browser, appUrl, room);
      const bob = await people.join(room, 'Bob');

      await say(bob.page, 'while you look');
      await expect(chatLog(alicePage)).toContainText('while you look');
      expect(await alicePage.evaluate(() => document.visibilityState)).toBe('visible');

      // Another tab in front of Alice's room: her room's tab is hidden, as when she switches tabs.
      const inFront = context.waitForEvent('page');
      await (await own.browser.newBrowserCDPSession()).send('Target.createTarget', { url: 'about:blank' });
      await inFront;
      await expect.poll(() => alicePage.evaluate(() => document.visibilityState)).toBe('hidden');

      await say(bob.page, 'are you there?');
      await expect.poll(() => shownNotifications(alicePage)).toEqual([{ title: `Bob in ${room}`, body: 'are you there?', tag: expect.stringMatching(/^parley-message:/) }]);

      await participantEntry(bob.page, 'Alice').getByRole('button', { name: 'Request attention from Alice' }).click();
      await expect.poll(() => shownNotifications(alicePage)).toContainEqual({ title: 'Bob asks for your attention', body: `in ${room}`, tag: expect.stringMatching(/^parley-attention:/) });
      expect(await closedNotifications(alicePage)).toEqual([]);

      // Back in her room's tab she sees the request and the message: neither notification is news any more.
      await alicePage.bringToFront();
      await expect.poll(() => alicePage.evaluate(() => document.visibilityState)).toBe('visible');
      await expect
        .poll(async () => (await closedNotifications(alicePage)).map((tag) => tag.split(':')[0]).sort())
        .toEqual(['parley-attention', 'parley-message']);
    } finally {
      await own.close();
    }
  });

  test('a message Alice reads in her pop-out chat, in front of her room’s tab, is not notified; once nothing shows the chat, the next one is', async ({ people, appUrl }) => {
    const room = uniqueRoomName('notify-popout');
    const own = await ownChromium();
    try {
      const { context, alicePage } = await aliceWithNotifications(own.browser, appUrl, room);
      const bob = await people.join(room, 'Bob');

      // Her pop-out chat in front: the room's tab, which notifies for the room, is hidden behind it.
      const popoutOpens = context.waitForEvent('page');
      const cdp = await own.browser.newBrowserCDPSession();
      await cdp.send('Target.createTarget', { url: `${alicePage.url()}?view=chat` });
      const popout = await popoutOpens;
      await expectJoined(popout);
      await expect.poll(() => alicePage.evaluate(() => document.visibilityState)).toBe('hidden');
      expect(await popout.evaluate(() => document.visibilityState)).toBe('visible');

      await say(bob.page, 'read in the pop-out');
      await expect(chatLog(popout)).toContainText('read in the pop-out');

      // Another tab in front of both: nobody reads the chat now.
      const inFront = context.waitForEvent('page');
      await cdp.send('Target.createTarget', { url: 'about:blank' });
      await inFront;
      await expect.poll(() => popout.evaluate(() => document.visibilityState)).toBe('hidden');
      await say(bob.page, 'nobody reads this');
      // Only this one: the message read in the pop-out, notified at once had it been, would come first.
      await expect.poll(() => shownNotifications(alicePage)).toEqual([{ title: `Bob in ${room}`, body: 'nobody reads this', tag: expect.stringMatching(/^parley-message:/) }]);
      expect(await shownNotifications(popout)).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

test.describe('Notification permission: asked once, after your first message, never on page load (issue 15)', () => {
  test('opening and joining the room asks nothing; the first message asks; later messages and a reload do not ask again', async ({ people }) => {
    const room = uniqueRoomName('permission');
    const alice = await people.join(room, 'Alice');
    // Counts the page's requests for permission (the browser's own prompt cannot be seen headless); the real request still runs.
    const countRequests = () => {
      const real = Notification.requestPermission.bind(Notification);
      (window as unknown as { permissionRequests: number }).permissionRequests = 0;
      Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
        (window as unknown as { permissionRequests: number }).permissionRequests += 1;
        return real(...args);
      };
    };
    const requests = () => alice.page.evaluate(() => (window as unknown as { permissionRequests: number }).permissionRequests);
    await alice.context.addInitScript(countRequests);
    await alice.page.reload();
    await expectJoined(alice.page);
    expect(await alice.page.evaluate(() => Notification.permission)).toBe('default');
    expect(await requests()).toBe(0);

    await say(alice.page, 'hello');
    await expect.poll(requests).toBe(1);
    await say(alice.page, 'hello again');
    expect(await requests()).toBe(1);
    await alice.page.reload();
    await expectJoined(alice.page);
    await say(alice.page, 'after a reload');
    await expect(chatLog(alice.page)).toContainText('after a reload');
    expect(await requests()).toBe(0);
  });
});

test.describe('Sounds: off until the person turns them on; then a tone for a join, and for a leave once LEAVE_HOLD_MS has shown it was one (issue 15)', () => {
  test('Carol joining makes no sound; with "Sounds" on, Bob joining plays the rising join tone, Carol leaving the falling one', async ({ people }) => {
    const room = uniqueRoomName('sounds');
    const alice = await people.join(room, 'Alice');
    const notes = await recordTones(alice.page);

    const carol = await people.join(room, 'Carol');
    await expect(chatLog(alice.page)).toContainText('Carol joined');
    expect(await notes()).toEqual([]);

    await (await chatOption(alice.page, 'Sounds')).check();
    await people.join(room, 'Bob');
    await expect(chatLog(alice.page)).toContainText('Bob joined');
    await expect.poll(notes).toEqual([660, 880]);

    await carol.context.close();
    await expect(chatLog(alice.page)).toContainText('Carol left');
    await expect.poll(notes).toEqual([660, 880, 880, 660]);
  });
});
