import { expect } from './fixtures';
import { expectJoined, participantEntry, test, uniqueRoomName } from './rooms-people';
import { LIGHT_DIRECT_SERVERS } from './call-ui-people';

// The room and its chat, whose pages show a camera preview (LIGHT_DIRECT_SERVERS).
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

test.describe('A person is the same person tomorrow: the browser keeps its guest identity (IndexedDB) across a reload', () => {
  test('the owner who reloads the page is still the owner of the room someone else kept open', async ({ people }) => {
    const room = uniqueRoomName('identity');
    const alice = await people.join(room, 'Alice');
    await expect(participantEntry(alice.page, 'Alice')).toHaveText('Alice, you, owner');
    const bob = await people.join(room, 'Bob');
    await expect(participantEntry(bob.page, 'Bob')).toHaveText('Bob, you');

    // Her only tab reloads: the shared worker ends with it, and a new one starts from what the browser stored.
    await alice.page.reload();
    await expectJoined(alice.page);
    await expect(participantEntry(alice.page, 'Alice')).toHaveText(['Alice, you, owner']);
    await expect(alice.page.getByRole('button', { name: 'Lock room' })).toBeVisible();
    await expect(participantEntry(bob.page, 'Alice')).toHaveText(['Alice, owner']);
    await expect(participantEntry(bob.page, 'Bob')).toHaveText('Bob, you');
  });
});
