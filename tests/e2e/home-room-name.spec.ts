import { DEFAULT_PREFERENCES } from '../../src/protocol/constants';
import { expect, test } from './fixtures';
import { openPanel, participantEntry, pauseSessionWorker, rightEdge, uniqueRoomName, widthPastWindow } from './rooms-people';
import { LIGHT_DIRECT_SERVERS } from './call-ui-people';

// The room and its chat, whose pages show a camera preview (LIGHT_DIRECT_SERVERS).
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

// Errors in plain words (issue 12, item 6): the home page refuses a room name that cannot become a
// room address, says why, and stays put.

test.describe('The home page refuses a room name that cannot become an address, with the reason', () => {
  for (const [what, name, reason] of [
    ['a private-use character', 'team\u{E000}', 'That room name cannot become a room address: it contains U+E000, a private-use character.'],
    [
      'an emoji after 127 characters',
      `${'a'.repeat(127)}😀`,
      'That room name cannot become a room address: it contains "😀" (U+1F600), which room addresses do not know (they cannot hold emoji or other characters added to Unicode since 2002).',
    ],
  ] as const) {
    test(`says why for ${what}`, async ({ page, appUrl }) => {
      await page.goto(appUrl);
      await page.getByRole('textbox', { name: 'Room name' }).fill(name);
      await page.getByRole('button', { name: 'Join' }).click();
      await expect(page.getByRole('alert')).toHaveText(reason);
      expect(new URL(page.url()).pathname).toBe('/');
    });
  }
});

test.describe('The home page asks a person with no name for one: an empty field, with the name others would see as its placeholder', () => {
  test('the field is empty until a name is given, and shows that name from then on', async ({ page, appUrl }) => {
    await page.goto(appUrl);
    const displayName = page.getByRole('textbox', { name: 'Display name' });
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    await expect(displayName).toHaveValue('');
    await expect(displayName).toHaveAttribute('placeholder', DEFAULT_PREFERENCES.displayName);

    await page.getByRole('textbox', { name: 'Room name' }).fill(uniqueRoomName('no-name'));
    await displayName.fill('Zoe');
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page.getByRole('button', { name: 'Join call' })).toBeVisible();

    await page.goto(appUrl);
    await expect(page.getByRole('textbox', { name: 'Display name' })).toHaveValue('Zoe');
  });
});

test.describe('Start a new room: the home page opens a room of a fresh name nobody guesses, which the person then owns and shares', () => {
  test('Yara starts a new room with her name typed: she is in it under that name, owns it, and Zed reaches it by its address', async ({ browser, page, appUrl }) => {
    await page.goto(appUrl);
    await page.getByRole('textbox', { name: 'Display name' }).fill('Yara');
    await page.getByRole('button', { name: 'Start a new room' }).click();

    await expect(page).toHaveURL(/\/room-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
    const roomName = new URL(page.url()).pathname.slice(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(roomName);
    await expect(page.getByRole('button', { name: 'Join call' })).toBeVisible();
    // The first person in a room owns it.
    await expect(page.getByRole('button', { name: 'Lock room' })).toBeVisible();

    const zeds = await browser.newContext();
    try {
      const zed = await zeds.newPage();
      await zed.goto(page.url());
      await openPanel(zed, 'People');
      await expect(participantEntry(zed, 'Yara')).toBeVisible();
    } finally {
      await zeds.close();
    }
  });

  test('an empty room name says to give one or start a new room, and stays on the home page', async ({ page, appUrl }) => {
    await page.goto(appUrl);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Enter the name of a room to join, or start a new room.');
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

test.describe('Recent rooms: the home page lists the rooms you were in, the latest first, to open again or forget (kept on this device)', () => {
  test('Vera is in two rooms, one started new and one by name; home lists both, opens one again, and forgets the other for good, the focus going to the room listed next and, the list gone, to "Room name"', async ({ page, appUrl }) => {
    const recent = page.getByRole('list', { name: 'Recent rooms' });
    await page.goto(appUrl);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    await expect(recent).toHaveCount(0);

    await page.getByRole('textbox', { name: 'Display name' }).fill('Vera');
    await page.getByRole('button', { name: 'Start a new room' }).click();
    await expect(page.getByRole('button', { name: 'Join call' })).toBeVisible();
    const started = new URL(page.url()).pathname.slice(1);
    await expect(page.getByRole('button', { name: 'Lock room' })).toBeVisible();
    await page.getByRole('button', { name: 'Leave' }).click();

    const named = uniqueRoomName('Weekly Sync');
    await page.getByRole('textbox', { name: 'Room name' }).fill(named);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Lock room' })).toBeVisible();
    await page.getByRole('button', { name: 'Leave' }).click();

    await expect(recent.getByRole('link')).toHaveText([named, started]);
    await recent.getByRole('link', { name: started }).click();
    await expect(page).toHaveURL(new URL(started, appUrl).href);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(started);
    // In the room again (the heading shows before the join does): a room left before it is joined is not one you were in.
    await expect(page.getByRole('button', { name: 'Lock room' })).toBeVisible();

    await page.getByRole('button', { name: 'Leave' }).click();
    await expect(recent.getByRole('link')).toHaveText([started, named]);
    // Forgotten from the keyboard, a room goes with its button: the focus goes to the room listed
    // after it (or before it), and once the list is gone, to "Room name".
    await recent.getByRole('button', { name: `Forget ${named}` }).focus();
    await page.keyboard.press('Enter');
    await expect(recent.getByRole('link')).toHaveText([started]);
    await expect(recent.getByRole('link', { name: started })).toBeFocused();
    await page.reload();
    await expect(recent.getByRole('link')).toHaveText([started]);

    // Arriving by a link and going elsewhere at once (the page itself goes, not only its view): the
    // room is listed too.
    const linked = uniqueRoomName('by-link');
    await page.goto(new URL(linked, appUrl).href);
    await expect(page.getByRole('button', { name: 'Lock room' })).toBeVisible();
    await page.goto(appUrl);
    await expect(recent.getByRole('link')).toHaveText([linked, started]);

    await recent.getByRole('button', { name: `Forget ${linked}` }).focus();
    await page.keyboard.press('Enter');
    await expect(recent.getByRole('link', { name: started })).toBeFocused();
    await recent.getByRole('button', { name: `Forget ${started}` }).focus();
    await page.keyboard.press('Enter');
    await expect(recent).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Room name' })).toBeFocused();
  });

  test('a long room name is cut short inside the card, whole in its tooltip, on a phone: the page does not scroll sideways', async ({ page, appUrl }) => {
    const long = uniqueRoomName('the-quarterly-planning-review-of-the-infrastructure-team');
    await page.goto(new URL(long, appUrl).href);
    await expect(page.getByRole('button', { name: 'Lock room' })).toBeVisible();
    await page.getByRole('button', { name: 'Leave' }).click();
    await page.setViewportSize({ width: 390, height: 844 });

    const recent = page.getByRole('list', { name: 'Recent rooms' });
    const link = recent.getByRole('link', { name: long });
    await expect(link).toHaveAttribute('title', long);
    const card = await rightEdge(page.getByRole('region', { name: 'Recent rooms' }));
    for (const part of [link, recent.getByRole('button', { name: `Forget ${long}` })]) expect(await rightEdge(part)).toBeLessThanOrEqual(card);
    expect(await widthPastWindow(page)).toBe(0);
  });

  test('a room whose page went at once, with a session that ended before it saved the room, is listed the next time', async ({ page, appUrl }) => {
    const recent = page.getByRole('list', { name: 'Recent rooms' });
    const linked = uniqueRoomName('left-at-once');
    await page.goto(new URL(linked, appUrl).href);
    await expect(page.getByRole('button', { name: 'Lock room' })).toBeVisible();
    // The session is the origin's shared worker, which ends with the origin's last page: held in its
    // debugger as the page goes and then ended, it cannot save the room, as when it loses that race on its own.
    const session = await pauseSessionWorker(page);
    await page.goto('about:blank');
    await session.terminate();

    await page.goto(appUrl);
    await expect(recent.getByRole('link')).toHaveText([linked]);
  });
});
