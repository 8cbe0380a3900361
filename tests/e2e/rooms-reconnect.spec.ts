import { chatLog, expectJoined, inTheRoom, lockRoom, messageBox, participantEntry, say, test, uniqueRoomName } from './rooms-people';
import { expect } from './fixtures';
import { LIGHT_DIRECT_SERVERS } from './call-ui-people';

// The room and its chat, whose pages show a camera preview (LIGHT_DIRECT_SERVERS).
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

test.describe('Connection lost: every room goes interrupted, then every tab rejoins without a reload (SPEC §4 connection and room state)', () => {
  test('killing and restarting the XMPP server brings both people and all tabs back to joined', async ({ people, parley }) => {
    const room = uniqueRoomName('reconnect');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const alicePopout = await alice.context.newPage();
    await alicePopout.goto(`${alice.page.url()}?view=chat`);
    await expectJoined(alicePopout);
    await expect(participantEntry(alice.page, 'Bob')).toBeVisible();

    await parley.killXmpp();
    for (const page of [alice.page, alicePopout, bob.page]) {
      await expect(page.getByRole('status', { name: 'Connection' })).not.toHaveText('Connected');
      // What is written now waits and goes once back in the room (issue 13: no chat lost).
      await expect(messageBox(page)).toBeEnabled();
    }

    await parley.restartXmpp();
    for (const page of [alice.page, alicePopout, bob.page]) {
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected', { timeout: 20_000 });
      await expectJoined(page);
    }
    await expect(participantEntry(alice.page, 'Bob')).toBeVisible();
    await expect(participantEntry(bob.page, 'Alice')).toBeVisible();

    // The same pages, never reloaded, chat again over the new sessions.
    await say(bob.page, 'back again');
    await expect(chatLog(alice.page)).toContainText('back again');
    await expect(chatLog(alicePopout)).toContainText('back again');
    expect((await parley.xmpp.stats()).clientSessions).toBe(2);
  });
});

test.describe('A locked room’s prompt keeps what was typed through a reconnect, for the page’s life (SPEC §4 password-required, interrupted)', () => {
  test('Bob has typed half the password when the XMPP server restarts: the prompt that comes back holds it, and he finishes and enters', async ({ people, parley }) => {
    const room = uniqueRoomName('locked-reconnect');
    const alice = await people.join(room, 'Alice');
    await lockRoom(alice.page, 'open sesame');
    const bob = await people.arrive(room, 'Bob');
    const field = bob.page.getByRole('textbox', { name: 'Room password' });
    await field.fill('open ses');

    await parley.killXmpp();
    // The room is interrupted: the prompt goes until the rejoin asks for the password again.
    await expect(field).toHaveCount(0);
    await parley.restartXmpp();
    await expect(field).toHaveValue('open ses', { timeout: 20_000 });

    await field.pressSequentially('ame');
    await bob.page.getByRole('button', { name: 'Enter room' }).click();
    await inTheRoom(bob);
    await expect(participantEntry(bob.page, 'Alice')).toBeVisible();
  });
});
