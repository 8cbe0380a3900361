import { DEFAULT_PREFERENCES } from '../../src/protocol/constants';
import { expect, test } from './fixtures';
import { uniqueRoomName } from './rooms-people';
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
