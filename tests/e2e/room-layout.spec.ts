import type { Locator, Page } from '@playwright/test';
import { areaOf, callButton, callRegion, joinCall, LIGHT_DIRECT_SERVERS, tile } from './call-ui-people';
import { launchSpeakingBrowser, recordSpeech } from './call-ui-speech';
import { chatLog, expect, expectJoined, joinFromHome, messageBox, openPanel, panelToggle, participants, test, uniqueRoomName, type People } from './rooms-people';
import { CROWDED_CALL } from '../../playwright.config';

// The room page's layout (issue 15 item 1): calls over mesh at light video sizes.
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const PHONE_ON_ITS_SIDE = { width: 844, height: 390 };

/** Alice's first visit to a new room in a window of `viewport`: both side panels start closed. */
async function firstVisit(people: People, label: string, viewport: { width: number; height: number }): Promise<Page> {
  const { page } = await people.enter(uniqueRoomName(label), 'Alice', { viewport });
  for (const panel of ['People', 'Chat'] as const) await expect(panelToggle(page, panel)).toHaveAttribute('aria-expanded', 'false');
  await expect(participants(page)).toBeHidden();
  await expect(chatLog(page)).toBeHidden();
  return page;
}

test.describe('Side panels: closed until the person opens them; People and Chat open and close from the header, and stay as the person left them after a reload', () => {
  test('at 1280×800 a first visit starts with both closed; opened, they stay open after a reload; closed again, they stay closed', async ({ people }) => {
    const page = await firstVisit(people, 'panels', DESKTOP);
    await expect(callButton(page, 'Join call')).toBeVisible();

    await panelToggle(page, 'People').click();
    await panelToggle(page, 'Chat').click();
    await expect(participants(page)).toBeVisible();
    await expect(chatLog(page)).toBeVisible();

    await page.reload();
    await expectJoined(page);
    await expect(panelToggle(page, 'People')).toHaveAttribute('aria-expanded', 'true');
    await expect(panelToggle(page, 'Chat')).toHaveAttribute('aria-expanded', 'true');
    await expect(participants(page)).toBeVisible();

    await panelToggle(page, 'People').click();
    await expect(participants(page)).toBeHidden();
    await page.reload();
    await expectJoined(page);
    await expect(panelToggle(page, 'People')).toHaveAttribute('aria-expanded', 'false');
    await expect(participants(page)).toBeHidden();
    await expect(panelToggle(page, 'Chat')).toHaveAttribute('aria-expanded', 'true');
  });

  test('on a phone (390×844) the call comes first: panels start closed and open over it; the header is one row; the call controls sit at the bottom', async ({ people }) => {
    const page = await firstVisit(people, 'phone', PHONE);
    await expect(callButton(page, 'Join call')).toBeInViewport();

    // One row: every header button shares the room name's line.
    const header = page.getByRole('banner');
    const tops = await header.getByRole('button').evaluateAll((buttons) => buttons.filter((button) => button.getClientRects().length > 0).map((button) => Math.round(button.getBoundingClientRect().top)));
    expect(new Set(tops).size, `header button tops ${tops.join(', ')}`).toBe(1);
    expect((await header.boundingBox())?.height).toBeLessThan(60);

    await joinCall(page);
    const hangUp = (await callButton(page, 'Hang up').boundingBox())!;
    expect(hangUp.y + hangUp.height, 'Hang up is within thumb reach: the bottom of the screen').toBeGreaterThan(PHONE.height - 90);
    await expect(callRegion(page).getByRole('group', { name: 'Call controls' })).toBeInViewport({ ratio: 1 });

    await panelToggle(page, 'Chat').click();
    await expect(chatLog(page)).toBeInViewport();
    await expect(messageBox(page)).toBeInViewport();
  });
});

test.describe('Stage first: the call fills the window', () => {
  test('the tiles of a two-person call at 1280×800, on a first visit with the default layout, take at least half the window', async ({ people }) => {
    const room = uniqueRoomName('stage');
    const { page } = await people.enter(room, 'Alice', { viewport: DESKTOP });
    await joinCall(page);
    const bob = await people.join(room, 'Bob');
    await joinCall(bob.page);
    await expect(tile(page, 'Bob')).toBeVisible();
    // No panel was touched: this is the layout a person first sees.
    await expect(panelToggle(page, 'People')).toHaveAttribute('aria-expanded', 'false');
    await expect(panelToggle(page, 'Chat')).toHaveAttribute('aria-expanded', 'false');

    const tiles = (await areaOf(tile(page, 'Bob'))) + (await areaOf(tile(page, 'Alice (you)')));
    const share = tiles / (DESKTOP.width * DESKTOP.height);
    test.info().annotations.push({ type: 'tile area', description: `${(share * 100).toFixed(1)}% of 1280×800` });
    console.log(`two tiles cover ${(share * 100).toFixed(1)}% of the 1280×800 window`);
    expect(share).toBeGreaterThanOrEqual(0.5);
  });
});

/** The call's controls are in view, down to "Hang up": inside the call's stage, which scrolls, as well as the window. The tiles give way first. */
async function expectControlsInWindow(page: Page): Promise<void> {
  const hangUp = await callButton(page, 'Hang up').boundingBox();
  const stage = await callRegion(page).boundingBox();
  const bottom = hangUp ? hangUp.y + hangUp.height : Infinity;
  expect(bottom).toBeLessThanOrEqual(Math.min(page.viewportSize()?.height ?? 0, stage ? stage.y + stage.height : 0));
}

test.describe('Stage first: a shared screen is what a short stage shows, the strip of the others under it at most a quarter of it, the call’s controls in the window', () => {
  test('on a phone on its side (844×390) the screen Bob shares takes over half the grid’s height, Bob’s camera in the strip a quarter at most', async ({ people }) => {
    const room = uniqueRoomName('stage-sideways');
    const bob = await people.join(room, 'Bob');
    await joinCall(bob.page);
    const { page } = await people.enter(room, 'Alice', { viewport: PHONE_ON_ITS_SIDE });
    await joinCall(page);
    await callButton(bob.page, 'Start Screenshare').click();
    await expect(tile(page, "Bob's screen")).toHaveClass(/is-featured/);
    const heightOf = async (locator: Locator) => (await locator.boundingBox())?.height ?? 0;
    const grid = await heightOf(callRegion(page).locator('.call-grid'));
    const shares = { screen: (await heightOf(tile(page, "Bob's screen"))) / grid, strip: (await heightOf(tile(page, 'Bob'))) / grid };
    test.info().annotations.push({ type: 'shares of the grid’s height', description: JSON.stringify(shares) });
    expect(shares.screen).toBeGreaterThan(0.5);
    expect(shares.strip).toBeLessThanOrEqual(0.25);
    await expectControlsInWindow(page);
  });

  test('alone in the call on a phone on its side, the room’s link above the tiles, the call’s controls are in the window', async ({ people }) => {
    const { page } = await people.enter(uniqueRoomName('alone-sideways'), 'Alice', { viewport: PHONE_ON_ITS_SIDE });
    await joinCall(page);
    await expect(callRegion(page)).toContainText('Nobody else is in the call yet.');
    await expectControlsInWindow(page);
  });
});

test.describe('A touch screen, which has no hover: a tapped tile shows its tools, which take no taps before; the chat says nothing of keys', () => {
  test('on a phone Alice taps Bob’s tile for its volume and "Enlarge", enlarges it, and reads no keyboard hints under her message box', async ({ people }) => {
    const room = uniqueRoomName('touch');
    const bob = await people.join(room, 'Bob');
    await joinCall(bob.page);
    const { page } = await people.enter(room, 'Alice', { viewport: PHONE, isMobile: true, hasTouch: true });
    await joinCall(page);
    const bobsTile = tile(page, 'Bob');
    const enlarge = bobsTile.getByRole('button', { name: 'Enlarge Bob' });
    const volume = bobsTile.getByRole('slider');
    await expect(bobsTile).toBeVisible();
    await expect(enlarge).toBeHidden();
    await expect(volume).toBeHidden();
    await bobsTile.tap({ position: { x: 20, y: 100 } });
    await expect(enlarge).toBeVisible();
    await expect(volume).toBeVisible();
    await enlarge.tap();
    await expect(bobsTile).toHaveClass(/is-featured/);
    await expect(enlarge).toHaveAttribute('aria-pressed', 'true');

    await openPanel(page, 'Chat');
    await expect(messageBox(page)).toBeVisible();
    await expect(page.getByText('Enter sends, Shift+Enter adds a line')).toBeHidden();
  });
});

test.describe('A narrow window folds the room’s less frequent actions behind "More", put away as a menu is: Escape or a press elsewhere, never a press in a dialog it opened', () => {
  test('on a phone: Escape folds it, focus back on "More"; the lock dialog opened from it closes on Escape and leaves it open; a press on the call folds it', async ({ people }) => {
    const { page } = await people.enter(uniqueRoomName('more-menu'), 'Alice', { viewport: PHONE });
    const more = page.getByRole('navigation', { name: 'Room controls' }).getByRole('button', { name: 'More', exact: true });
    const lock = page.getByRole('button', { name: 'Lock room' });
    await expect(lock).toBeHidden();
    await more.click();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await lock.focus();
    await page.keyboard.press('Escape');
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(lock).toBeHidden();
    await expect(more).toBeFocused();

    await more.click();
    await lock.click();
    const dialog = page.getByRole('dialog', { name: 'Lock room' });
    await dialog.getByRole('textbox', { name: 'Room password' }).click();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await expect(lock).toBeFocused();

    await callRegion(page).click({ position: { x: 10, y: 10 } });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(lock).toBeHidden();
  });
});

test.describe('A dialog taller than a short window (a phone on its side) scrolls its fields, its buttons staying in view', () => {
  test('the owner’s "Destroy room" at 844×390: "Destroy" and "Cancel" are inside the dialog and the window', async ({ people }) => {
    const { page } = await people.enter(uniqueRoomName('dialog-sideways'), 'Alice', { viewport: PHONE_ON_ITS_SIDE });
    await page.getByRole('navigation', { name: 'Room controls' }).getByRole('button', { name: 'More', exact: true }).click();
    await page.getByRole('button', { name: 'Destroy room' }).click();
    const dialog = page.getByRole('dialog', { name: 'Destroy room' });
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((element) => element.scrollHeight > element.clientHeight), 'the dialog is taller than the window: its fields scroll').toBe(true);
    const shown = await dialog.boundingBox();
    for (const name of ['Destroy', 'Cancel']) {
      const button = await dialog.getByRole('button', { name, exact: true }).boundingBox();
      expect(button && shown && button.y >= shown.y && button.y + button.height <= Math.min(shown.y + shown.height, PHONE_ON_ITS_SIDE.height), `"${name}" in view`).toBe(true);
    }
  });
});

/**
 * What spills or overlaps in the preview's card: the camera's frame and each of the words beside it
 * must lie inside the card, the frame over none of them, and the frame keep the camera's 4:3.
 */
function previewSpills(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const card = document.querySelector('.call-preview')!.getBoundingClientRect();
    const frame = document.querySelector('.preview-frame')!.getBoundingClientRect();
    const problems: string[] = [];
    const outside = (box: DOMRect) => box.top < card.top - 0.5 || box.bottom > card.bottom + 0.5 || box.left < card.left - 0.5 || box.right > card.right + 0.5;
    if (outside(frame)) problems.push('the camera spills out of the card');
    if (Math.abs(frame.width / frame.height - 4 / 3) > 0.02) problems.push(`the camera is ${frame.width}×${frame.height}, not 4:3`);
    for (const part of document.querySelectorAll('.preview-side > *')) {
      const box = part.getBoundingClientRect();
      const name = part.textContent?.slice(0, 30) ?? part.tagName;
      if (outside(box)) problems.push(`"${name}" spills out of the card`);
      if (box.bottom > frame.top && box.top < frame.bottom && box.right > frame.left && box.left < frame.right) problems.push(`the camera covers "${name}"`);
    }
    return problems;
  });
}

test.describe('The preview in any window: the camera stays in its card, beside or above the words, never over them; a short window scrolls; a phone on its side shows "Join call" without scrolling', () => {
  test('from a small phone to a large screen, with and without a banner above it', async ({ browser, appUrl }) => {
    const room = uniqueRoomName('preview-sizes');
    const context = await browser.newContext({ viewport: PHONE });
    // A fake, named as such: a browser that refuses the camera and microphone, for the banner that says so above the preview.
    const refused = await browser.newContext({ viewport: PHONE });
    await refused.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    try {
      // No name saved yet: the preview asks for one, its tallest form.
      const sizes = [PHONE, { width: 390, height: 667 }, PHONE_ON_ITS_SIDE, { width: 800, height: 600 }, { width: 1280, height: 560 }, DESKTOP, { width: 1920, height: 1080 }];
      for (const [page, banner] of [[await context.newPage(), false], [await refused.newPage(), true]] as const) {
        await page.goto(new URL(room, appUrl).href);
        await expect(callButton(page, 'Join call')).toBeEnabled();
        await expect(page.getByRole('textbox', { name: 'Your name' })).toBeVisible();
        if (banner) await expect(callRegion(page).getByRole('alert')).toContainText("Parley isn't allowed to use your camera and microphone.");
        for (const size of sizes) {
          await page.setViewportSize(size);
          await expect.poll(() => previewSpills(page), { message: `the preview at ${size.width}×${size.height}${banner ? ' under a banner' : ''}` }).toEqual([]);
        }
        if (banner) continue;
        // On its side the camera stays beside the words: "Join call" is in view without scrolling.
        await page.setViewportSize(PHONE_ON_ITS_SIDE);
        const join = await callButton(page, 'Join call').boundingBox();
        expect(join && join.y + join.height).toBeLessThanOrEqual(PHONE_ON_ITS_SIDE.height);
      }
    } finally {
      await context.close();
      await refused.close();
    }
  });
});

test.describe('Speaker view: the person speaking is shown large, the others in a strip; the choice is remembered (SPEC §3 speaking, lastSpokeAt)', () => {
  test('real speech: Bob\'s speaker view shows Carol large until Alice speaks, then Alice; it is still on after a reload, which brings him back into the call', CROWDED_CALL, async ({ people, appUrl }) => {
    test.setTimeout(150_000);
    const recording = recordSpeech(
      'In the speaker view the person who speaks is shown large for everyone to see.',
      'The speaker view keeps showing me after I stop, until somebody else speaks.',
    );
    const browser = await launchSpeakingBrowser(recording);
    try {
      const room = uniqueRoomName('speaker');
      const bob = await people.join(room, 'Bob');
      await bob.page.setViewportSize(DESKTOP);
      await joinCall(bob.page);
      const carol = await people.join(room, 'Carol');
      await joinCall(carol.page);
      await expect(tile(bob.page, 'Carol')).toBeVisible();
      // Chromium's fake microphone beeps, which counts as speaking: only Alice's real speech may.
      for (const person of [bob, carol]) await callButton(person.page, 'Mute microphone').click();
      await expect(tile(bob.page, 'Carol')).toContainText('muted');

      const speakerView = callButton(bob.page, 'Speaker view');
      await expect(speakerView).toHaveAttribute('aria-pressed', 'false');
      await speakerView.click();
      await expect(speakerView).toHaveAttribute('aria-pressed', 'true');

      const context = await browser.newContext();
      const page = await context.newPage();
      await joinFromHome(page, appUrl, room, 'Alice');
      await openPanel(page, 'Chat');
      await expectJoined(page);
      // Her microphone plays speech from the preview on: she joins muted, so nobody has heard her yet.
      await callButton(page, 'Mute microphone').click();
      await joinCall(page);
      await expect(tile(bob.page, 'Alice')).toContainText('muted');

      // Before anyone speaks, the first to arrive is large.
      await expect.poll(async () => (await areaOf(tile(bob.page, 'Carol'))) / (await areaOf(tile(bob.page, 'Alice')))).toBeGreaterThan(4);

      await callButton(page, 'Unmute microphone').click();
      await expect(tile(bob.page, 'Alice')).toContainText('speaking', { timeout: recording.passMs + 5_000 });
      await expect.poll(async () => (await areaOf(tile(bob.page, 'Alice'))) / (await areaOf(tile(bob.page, 'Carol')))).toBeGreaterThan(4);
      // She stopped: she stays large (she spoke last).
      await expect(tile(bob.page, 'Alice')).not.toContainText('speaking', { timeout: 10_000 });
      expect((await areaOf(tile(bob.page, 'Alice'))) / (await areaOf(tile(bob.page, 'Bob (you)')))).toBeGreaterThan(4);

      // A reload brings him back into the call by itself, the speaker view still on.
      await bob.page.reload();
      await expectJoined(bob.page);
      await expect(callButton(bob.page, 'Hang up')).toBeVisible();
      await expect(callButton(bob.page, 'Speaker view')).toHaveAttribute('aria-pressed', 'true');
      await context.close();
    } finally {
      await browser.close();
      recording.dispose();
    }
  });
});

test.describe('After hanging up and after "Leave": plain words about what happened, and the way back; no banner repeating a control\'s state', () => {
  test('hanging up returns to the preview saying "You left the call" without a "Request Media" banner; "Leave" returns home saying so, with the room ready to join again', async ({ people, appUrl }) => {
    const room = uniqueRoomName('after');
    const alice = await people.join(room, 'Alice');
    await joinCall(alice.page);
    await callButton(alice.page, 'Hang up').click();
    await expect(callRegion(alice.page).getByRole('heading', { name: 'You left the call' })).toBeVisible();
    await expect(callButton(alice.page, 'Join call')).toBeVisible();
    // The camera is let go; its toggle says joining again turns it on, as it was.
    await expect(callRegion(alice.page).locator('video')).toHaveCount(0);
    await expect(callButton(alice.page, 'Stop camera')).toBeVisible();
    await expect(callRegion(alice.page)).toContainText('Your camera turns on when you join');
    await expect(callRegion(alice.page).getByRole('button', { name: 'Request Media' })).toHaveCount(0);
    await expect(callRegion(alice.page).getByText('Your camera and microphone are not on yet.')).toHaveCount(0);

    // Joining again captures afresh.
    await joinCall(alice.page);
    await expect(tile(alice.page, 'Alice (you)').locator('video')).toHaveCount(1);
    await callButton(alice.page, 'Hang up').click();

    await alice.page.getByRole('navigation', { name: 'Room controls' }).getByRole('button', { name: 'Leave', exact: true }).click();
    await expect(alice.page).toHaveURL(appUrl);
    await expect(alice.page.getByRole('status').filter({ hasText: `You left ${room}.` })).toBeVisible();
    await expect(alice.page.getByRole('textbox', { name: 'Room name' })).toHaveValue(room);
    await alice.page.getByRole('button', { name: 'Join', exact: true }).click();
    await expectJoined(alice.page);
    await expect(callButton(alice.page, 'Join call')).toBeVisible();
  });
});
