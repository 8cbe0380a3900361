import type { Locator } from '@playwright/test';
import { LIMITS } from '../../src/protocol/constants';
import { JID } from 'stanza';
import { MODERATED_ROOM, withTimeout } from '../support/plainXmpp';
import { retractionDefinitions } from '../../src/protocol/stanzas/retraction';
import { plainClientIn } from './plain-client';
import { chatLog, chatOption, enterPassword, expect, expectChatClosed, expectJoined, joinFromHome, kickAndBan, lockRoom, messageBox, openPanel, panelToggle, participantEntry, participants, pauseSessionWorker, rightEdge, roomJid, say, test, type People, typingIndicator, uniqueRoomName, widthPastWindow } from './rooms-people';
import { LIGHT_DIRECT_SERVERS } from './call-ui-people';

// The room and its chat, whose pages show a camera preview (LIGHT_DIRECT_SERVERS).
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

// Every person is a browser context of their own; every test uses a room of its own.

test.describe('Chat: messages reach everyone in the room, grouped by sender within 300 s (SPEC §9 chat grouping)', () => {
  test('two people chat; consecutive messages of one sender share one header; a message that names you is marked', async ({ people }) => {
    const room = uniqueRoomName('chat');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');

    await say(alice.page, 'Hello Bob');
    await say(alice.page, 'Are you there?');
    const bobsLog = chatLog(bob.page);
    await expect(bobsLog).toContainText('Are you there?');
    // One group: one header ("Alice" and a time) over both messages.
    await expect(bobsLog.getByRole('article')).toHaveCount(1);
    await expect(bobsLog.getByRole('article').first()).toContainText('Alice');
    // "Hello Bob" names him: it says so to a screen reader.
    await expect(bobsLog.getByRole('article').first().getByRole('paragraph')).toHaveText(['Hello Bob (mentions you)', 'Are you there?']);

    await say(bob.page, 'Hi Alice!');
    const alicesLog = chatLog(alice.page);
    await expect(alicesLog.getByRole('article')).toHaveCount(2);
    await expect(alicesLog.getByRole('article').nth(1)).toContainText('Bob');
    await expect(alicesLog.getByRole('article').nth(1)).toContainText('Hi Alice!');
    // Each is marked where it names the reader, never where it is the reader's own.
    await expect(alicesLog.locator('.mentions-you')).toHaveCount(1);
    await expect(alicesLog.locator('.mentions-you')).toContainText('Hi Alice! (mentions you)');
    await expect(bobsLog.locator('.mentions-you')).toHaveCount(1);
    await expect(bobsLog.locator('.mentions-you')).toContainText('Hello Bob');
  });
});

test.describe('Message styling (XEP-0393): strong, emphasis, code and quotations read styled by everyone, as XMPP apps show them (beyond the spec)', () => {
  test('Alice styles a message; Bob reads it styled, without the directives, its link still a link', async ({ people }) => {
    const room = uniqueRoomName('styling');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    await say(alice.page, '> can we ship?\n*yes*, _after_ `npm test` passes: https://example.org/ci');
    const message = chatLog(bob.page).getByRole('paragraph').filter({ hasText: 'can we ship?' });
    await expect(message).toHaveText('can we ship?yes, after npm test passes: https://example.org/ci');
    await expect(message.locator('.message-quote')).toHaveText('can we ship?');
    await expect(message.locator('strong')).toHaveText('yes');
    await expect(message.locator('em')).toHaveText('after');
    await expect(message.locator('code')).toHaveText('npm test');
    await expect(message.getByRole('link', { name: 'https://example.org/ci' })).toHaveAttribute('href', 'https://example.org/ci');
  });
});

test.describe('A plain XMPP client in the room: named by the nickname it joined under, "/me" reads as an action both ways (XEP-0245), and its private message is said to be one (XEP-0045; beyond the spec)', () => {
  test('Dave on a plain client joins as "dave_on_gajim" with no other name; his "/me waves" reads "dave_on_gajim waves" for Alice, hers reaches him as he would type it, a message he takes back reads deleted, his private message to her says so and offers a private reply, and his nickname change reads as a rename', async ({ people, appUrl, parley }) => {
    const room = uniqueRoomName('plain');
    const alice = await people.join(room, 'Alice');
    const roomAddress = roomJid(room, parley.settings.mucDomain);
    const plain = await plainClientIn(appUrl, roomAddress, 'dave_on_gajim');
    const dave = plain.client;
    try {
      await expect(participantEntry(alice.page, 'dave_on_gajim')).toHaveCount(1);
      await expect(chatLog(alice.page)).toContainText('dave_on_gajim joined');

      dave.sendMessage({ to: roomAddress, type: 'groupchat', body: '/me waves from Gajim' });
      const action = chatLog(alice.page).getByRole('paragraph').filter({ hasText: 'waves from Gajim' });
      await expect(action).toHaveText('dave_on_gajim waves from Gajim');
      await expect(action).toHaveCSS('font-style', 'italic');

      const heard = new Promise<string | undefined>((resolve) => dave.on('groupchat', (message) => message.body?.includes('nods') && resolve(message.body)));
      await say(alice.page, '/me nods');
      expect(await withTimeout(heard, 10_000, 'Alice’s action at the plain client')).toBe('/me nods');
      await expect(chatLog(alice.page).getByRole('paragraph').filter({ hasText: 'nods' })).toHaveText('Alice nods');

      // He takes a message back (XEP-0424): its text goes; what stays says so, not his app's fallback.
      dave.stanzas.define(retractionDefinitions);
      dave.sendMessage({ to: roomAddress, type: 'groupchat', id: 'oops', body: 'the wrong window' });
      await expect(chatLog(alice.page)).toContainText('the wrong window');
      dave.sendMessage({ to: roomAddress, type: 'groupchat', body: 'dave_on_gajim retracted a message.', retraction: { id: 'oops' } });
      await expect(chatLog(alice.page).getByRole('paragraph').filter({ hasText: 'This message was deleted.' })).toHaveCount(1);
      await expect(chatLog(alice.page)).not.toContainText('the wrong window');
      await expect(chatLog(alice.page)).not.toContainText('retracted a message');

      dave.sendMessage({ to: await plain.addressOf('Alice'), type: 'chat', body: 'just between us' });
      const whisper = chatLog(alice.page).getByRole('article').filter({ hasText: 'just between us' });
      await expect(whisper).toContainText('dave_on_gajim to you only');
      await expect(whisper).toContainText('Only you and dave_on_gajim read this.');
      await expect(whisper).not.toContainText('waves');

      // He changes his nickname: the same person renamed, not someone joining.
      dave.sendPresence({ to: `${roomAddress}/david` });
      await expect(chatLog(alice.page)).toContainText('dave_on_gajim is now known as david');
      await expect(participantEntry(alice.page, 'david')).toHaveCount(1);
      await expect(participantEntry(alice.page, 'dave_on_gajim')).toHaveCount(0);
      await expect(chatLog(alice.page)).not.toContainText('david joined');
    } finally {
      dave.disconnect();
    }
  });
});

test.describe('Private replies: Parley answers a plain XMPP client’s private message to its sender alone, and the room sees nothing of it (XEP-0045 §7.5; beyond the spec)', () => {
  test('Alice replies privately to Dave: he has it as a private message under the nickname he took meanwhile, her log says to whom it went, Bob never sees it nor her typing, she is told when he has left, and "Back to the room" writes to everyone again', async ({ people, appUrl, parley }) => {
    const room = uniqueRoomName('private');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const roomAddress = roomJid(room, parley.settings.mucDomain);
    const plain = await plainClientIn(appUrl, roomAddress, 'dave_on_gajim');
    const dave = plain.client;
    try {
      // Whatever Bob's page shows from now on, it never holds the private words.
      await bob.page.evaluate(() => {
        const seen = (): boolean => document.body.innerText.includes('only for Dave');
        (window as unknown as { sawPrivateWords: boolean }).sawPrivateWords = seen();
        new MutationObserver(() => {
          if (seen()) (window as unknown as { sawPrivateWords: boolean }).sawPrivateWords = true;
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      const alicesAddress = await plain.addressOf('Alice');
      dave.sendMessage({ to: alicesAddress, type: 'chat', body: 'just between us' });
      const whisper = chatLog(alice.page).getByRole('article').filter({ hasText: 'just between us' });
      await expect(whisper).toContainText('Only you and dave_on_gajim read this.');
      await whisper.getByRole('button', { name: 'Reply privately' }).click();
      const input = messageBox(alice.page);
      await expect(input).toBeFocused();
      await expect(alice.page.getByText('Replying privately to dave_on_gajim')).toBeVisible();
      // He changes his nickname as she writes: the reply follows him.
      dave.sendPresence({ to: `${roomAddress}/david` });
      await expect(chatLog(alice.page)).toContainText('dave_on_gajim is now known as david');
      await expect(alice.page.getByText('Replying privately to david')).toBeVisible();
      await expect(input).toHaveAttribute('placeholder', 'Write to david only…');
      await expect(alice.page.getByText('Only david reads what you send now; nobody sees you type it.')).toBeVisible();

      const received = new Promise<{ type?: string; body?: string }>((resolve) => dave.on('message', (message) => message.from === alicesAddress && message.body !== undefined && resolve(message)));
      await input.pressSequentially('only for Dave');
      await input.press('Enter');
      expect(await withTimeout(received, 10_000, 'Alice’s private reply at Dave')).toMatchObject({ type: 'chat', body: 'only for Dave' });
      const reply = chatLog(alice.page).getByRole('article').filter({ hasText: 'only for Dave' });
      await expect(reply).toContainText('to david only');
      // Passed on by the room: not "Sending…".
      await expect(reply.getByRole('status')).toHaveCount(0);
      // Still writing to him, until she goes back to the room.
      await expect(alice.page.getByText('Replying privately to david')).toBeVisible();
      // He leaves: she is told, and nothing she writes goes to nobody.
      await dave.leaveRoom(roomAddress, 'david');
      await expect(alice.page.getByRole('status').filter({ hasText: 'david has left the room: a private message cannot reach them.' })).toBeVisible();
      await input.fill('are you there?');
      await expect(alice.page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
      await input.press('Enter');
      await expect(input).toHaveValue('are you there?');
      await input.fill('');
      await alice.page.getByRole('button', { name: 'Back to the room' }).click();
      await expect(input).toBeFocused();
      await expect(alice.page.getByText(/^Replying privately/)).toHaveCount(0);
      await say(alice.page, 'hello everyone');
      await expect(chatLog(bob.page)).toContainText('hello everyone');
      await expect(chatLog(bob.page)).not.toContainText('just between us');
      expect(await bob.page.evaluate(() => (window as unknown as { sawPrivateWords: boolean }).sawPrivateWords)).toBe(false);
      await expect(chatLog(bob.page).locator('.private')).toHaveCount(0);
    } finally {
      dave.disconnect();
    }
  });
});

test.describe('Private messages: you write to someone alone when their app can read it, and they answer you alone (XEP-0045 §7.5, XEP-0115; beyond the spec)', () => {
  test('Alice picks Bob under "Write privately" (Carol is offered too, Dave’s app that says nothing of itself is not; Escape or a press elsewhere puts the list away); Bob reads it as to him only and answers her alone; Escape goes back to the room only from an empty box; Carol never sees either', async ({ people, appUrl, parley }) => {
    const room = uniqueRoomName('private-start');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const carol = await people.join(room, 'Carol');
    const plain = await plainClientIn(appUrl, roomJid(room, parley.settings.mucDomain), 'dave_on_gajim');
    try {
      await expect(participantEntry(alice.page, 'dave_on_gajim')).toHaveCount(1);
      const write = alice.page.getByRole('button', { name: 'Write privately' });
      await write.click();
      await expect(write).toHaveAttribute('aria-expanded', 'true');
      const readers = alice.page.getByRole('group', { name: 'Write privately to' });
      await expect(readers.getByRole('button')).toHaveText(['Bob', 'Carol']);
      // Escape puts the list away, the focus back on what opened it.
      await readers.getByRole('button', { name: 'Carol' }).focus();
      await alice.page.keyboard.press('Escape');
      await expect(readers).toHaveCount(0);
      await expect(write).toBeFocused();
      await expect(write).toHaveAttribute('aria-expanded', 'false');
      // A press elsewhere puts it away too, the focus where the press put it.
      await write.click();
      await messageBox(alice.page).click();
      await expect(readers).toHaveCount(0);
      await expect(messageBox(alice.page)).toBeFocused();
      await write.press('Enter');
      await readers.getByRole('button', { name: 'Bob' }).click();
      await expect(readers).toHaveCount(0);
      const input = messageBox(alice.page);
      await expect(input).toBeFocused();
      await expect(alice.page.getByText('Writing privately to Bob')).toBeVisible();
      await expect(input).toHaveAttribute('placeholder', 'Write to Bob only…');
      await expect(write, 'not offered while writing to someone alone').toHaveCount(0);
      await input.fill('lunch later?');
      await input.press('Enter');
      await expect(chatLog(alice.page).getByRole('article').filter({ hasText: 'lunch later?' })).toContainText('to Bob only');

      const asked = chatLog(bob.page).getByRole('article').filter({ hasText: 'lunch later?' });
      await expect(asked).toContainText('Alice to you only');
      await asked.getByRole('button', { name: 'Reply privately' }).click();
      await expect(bob.page.getByText('Replying privately to Alice')).toBeVisible();
      await messageBox(bob.page).fill('sure, at one');
      await messageBox(bob.page).press('Enter');
      await expect(chatLog(alice.page).getByRole('article').filter({ hasText: 'sure, at one' })).toContainText('Bob to you only');

      // Escape with words in the box keeps them private: back in the room, they would be shown typed
      // to everyone at the next key. With the box empty it goes back to the room.
      await input.fill('and bring the slides');
      await input.press('Escape');
      await expect(alice.page.getByText('Writing privately to Bob')).toBeVisible();
      await expect(input).toHaveAttribute('placeholder', 'Write to Bob only…');
      await input.fill('');
      await input.press('Escape');
      await expect(alice.page.getByText(/^Writing privately/)).toHaveCount(0);
      await say(alice.page, 'see you all');
      await expect(chatLog(carol.page)).toContainText('see you all');
      await expect(chatLog(carol.page)).not.toContainText('lunch later?');
      await expect(chatLog(carol.page)).not.toContainText('sure, at one');
    } finally {
      plain.client.disconnect();
    }
  });
});

test.describe('Reactions (XEP-0444): a reaction picked under a message shows under it for everyone, with who gave it; pressing it again takes yours back (beyond the spec)', () => {
  test('Alice reacts 👍 to Bob’s message; Bob sees it, adds his; a press elsewhere or Escape puts the picker away; Alice takes hers back and Bob sees only his; a reaction only she gave, taken back, leaves the focus on the message’s React button', async ({ people }) => {
    const room = uniqueRoomName('reactions');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    await say(bob.page, 'ship it?');
    const message = (page: typeof alice.page) => chatLog(page).getByRole('article').filter({ hasText: 'ship it?' });
    await expect(message(alice.page)).toBeVisible();

    await message(alice.page).getByRole('button', { name: 'React' }).click();
    const picker = alice.page.getByRole('group', { name: 'Pick a reaction' });
    await expect(picker.getByRole('button', { name: 'React with 👍' })).toBeFocused();
    await picker.getByRole('button', { name: 'React with 👍' }).click();
    await expect(picker).toHaveCount(0);
    await expect(message(alice.page).getByRole('button', { name: 'React' })).toBeFocused();
    await expect(message(alice.page).getByRole('button', { name: '👍 from you' })).toHaveAttribute('aria-pressed', 'true');

    const bobsThumb = message(bob.page).getByRole('button', { name: /^👍 from / });
    await expect(bobsThumb).toHaveAccessibleName('👍 from Alice');
    await expect(bobsThumb).toHaveAttribute('aria-pressed', 'false');
    await bobsThumb.click();
    await expect(bobsThumb).toHaveAccessibleName('👍 from Alice and you');
    await expect(bobsThumb).toHaveAttribute('aria-pressed', 'true');
    await expect(bobsThumb).toContainText('2');
    await expect(message(alice.page).getByRole('button', { name: '👍 from you and Bob' })).toBeVisible();

    // A press elsewhere puts the picker away, without a reaction.
    await message(alice.page).getByRole('button', { name: 'React' }).click();
    await expect(alice.page.getByRole('group', { name: 'Pick a reaction' })).toBeVisible();
    await messageBox(alice.page).click();
    await expect(alice.page.getByRole('group', { name: 'Pick a reaction' })).toHaveCount(0);
    await expect(messageBox(alice.page)).toBeFocused();

    // Escape closes the picker without a reaction.
    await message(alice.page).getByRole('button', { name: 'React' }).click();
    await expect(alice.page.getByRole('group', { name: 'Pick a reaction' }).getByRole('button', { name: 'React with 👍' })).toBeFocused();
    await alice.page.keyboard.press('Escape');
    await expect(alice.page.getByRole('group', { name: 'Pick a reaction' })).toHaveCount(0);

    await message(alice.page).getByRole('button', { name: '👍 from you and Bob' }).click();
    await expect(bobsThumb).toHaveAccessibleName('👍 from you');
    await expect(bobsThumb).toContainText('1');
    await expect(message(alice.page).getByRole('button', { name: '👍 from Bob' })).toHaveAttribute('aria-pressed', 'false');

    // A reaction only she gave, taken back from the keyboard, goes with its button: the focus goes to
    // the message's React button, not to the page.
    await message(alice.page).getByRole('button', { name: 'React' }).click();
    await alice.page.getByRole('group', { name: 'Pick a reaction' }).getByRole('button', { name: 'React with 🎉' }).click();
    const party = message(alice.page).getByRole('button', { name: '🎉 from you' });
    await party.focus();
    await alice.page.keyboard.press('Enter');
    await expect(party).toHaveCount(0);
    await expect(message(alice.page).getByRole('button', { name: 'React' })).toBeFocused();
  });
});

test.describe('Deleting a message of yours (XEP-0424): asked first; then it reads deleted for you and the others (beyond the spec)', () => {
  test('Alice deletes her message: Cancel keeps it; Delete takes its text from her chat and Bob’s, focus going to her chat’s log', async ({ people }) => {
    const room = uniqueRoomName('delete');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    await say(alice.page, 'the staging password is hunter2');
    await say(alice.page, 'ignore that');
    const item = chatLog(alice.page).locator('.message-item').filter({ hasText: 'hunter2' });
    await expect(chatLog(bob.page)).toContainText('hunter2');
    // Only her own messages offer it.
    await expect(chatLog(bob.page).getByRole('button', { name: 'Delete' })).toHaveCount(0);

    await item.hover();
    await item.getByRole('button', { name: 'Delete' }).click();
    const dialog = alice.page.getByRole('dialog', { name: 'Delete this message?' });
    await expect(dialog).toContainText('Everyone in the room then reads “This message was deleted.” in its place');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(item.getByRole('button', { name: 'Delete' })).toBeFocused();
    await expect(chatLog(alice.page)).toContainText('hunter2');

    await item.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    for (const page of [alice.page, bob.page]) {
      await expect(chatLog(page)).not.toContainText('hunter2');
      await expect(chatLog(page).getByText('This message was deleted.')).toHaveCount(1);
      await expect(chatLog(page)).toContainText('ignore that');
    }
    await expect(chatLog(alice.page)).toBeFocused();
  });

  test('her last message deleted as she corrects it, with its reaction picker open: the correction ends, her draft back, the picker gone; "Edit" and ↑ then correct the one before', async ({ people }) => {
    const alice = await people.join(uniqueRoomName('delete-last'), 'Alice');
    await say(alice.page, 'first thought');
    await say(alice.page, 'second thought');
    const input = messageBox(alice.page);
    // By place, not text: its text goes with the deletion.
    const second = chatLog(alice.page).locator('.message-item').nth(1);
    await expect(second).toContainText('second thought');
    await input.fill('draft for later');
    await second.getByRole('button', { name: 'Edit' }).click();
    await expect(alice.page.getByText('Editing your message')).toBeVisible();
    await expect(input).toHaveValue('second thought');
    await second.hover();
    await second.getByRole('button', { name: 'React' }).click();
    const picker = alice.page.getByRole('group', { name: 'Pick a reaction' });
    await expect(picker).toBeVisible();

    await second.getByRole('button', { name: 'Delete' }).click();
    await alice.page.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(second).toContainText('This message was deleted.');
    await expect(picker).toHaveCount(0);
    await expect(alice.page.getByText('Editing your message')).toHaveCount(0);
    await expect(input).toHaveValue('draft for later');
    await expect(second.getByRole('button', { name: 'Edit' })).toHaveCount(0);

    const first = chatLog(alice.page).locator('.message-item').filter({ hasText: 'first thought' });
    await expect(first.getByRole('button', { name: 'Edit' })).toHaveCount(1);
    await input.fill('');
    await input.press('ArrowUp');
    await expect(alice.page.getByText('Editing your message')).toBeVisible();
    await expect(input).toHaveValue('first thought');
  });
});

test.describe('A message the room sends back reads "Not sent", with why; Retry sends it again while you are in the room (beyond the spec)', () => {
  test('Dave, the owner on a plain client, takes Alice’s voice: her message reads not sent with the room’s reason; her voice back, Retry from the keyboard sends it once and leaves the focus on her chat’s log; put out of the room with another unsent, she is offered no Retry', async ({ people, appUrl, parley }) => {
    const room = uniqueRoomName('retry');
    const roomAddress = roomJid(room, parley.settings.mucDomain);
    // The first in the room owns it: Dave, on a plain client, moderates Alice's voice.
    const plain = await plainClientIn(appUrl, roomAddress, 'dave_on_gajim');
    const dave = plain.client;
    try {
      const heard: string[] = [];
      dave.on('groupchat', (message) => {
        if (typeof message.body === 'string') heard.push(message.body);
      });
      const alice = await people.join(room, 'Alice');
      await expect.poll(() => plain.addressOf('Alice').then(() => true, () => false)).toBe(true);
      const aliceNick = JID.getResource(await plain.addressOf('Alice'))!;
      await withTimeout(dave.configureRoom(roomAddress, MODERATED_ROOM), 10_000, 'making the room moderated');
      const setVoice = (role: 'visitor' | 'participant') => withTimeout(dave.setRoomRole(roomAddress, aliceNick, role), 10_000, `Alice made ${role}`);
      const log = chatLog(alice.page);
      const retry = log.getByRole('button', { name: 'Retry' });

      await setVoice('visitor');
      await say(alice.page, 'may I speak?');
      await expect(log.getByRole('status').filter({ hasText: 'Not sent' })).toHaveText('Not sent (you have no voice in this room: ask a moderator to give you voice, then retry). Retry');
      await setVoice('participant');
      await retry.focus();
      await alice.page.keyboard.press('Enter');
      await expect(log.getByText('Not sent')).toHaveCount(0);
      await expect(retry).toHaveCount(0);
      await expect.poll(() => heard.filter((body) => body === 'may I speak?').length).toBe(1);
      // The button went with the failure: the log, not the page, has the focus.
      await expect(log).toBeFocused();

      await setVoice('visitor');
      await say(alice.page, 'one more thing');
      await expect(retry).toHaveCount(1);
      await withTimeout(dave.kick(roomAddress, aliceNick), 10_000, 'Alice put out of the room');
      await expect(alice.page.getByRole('region', { name: 'Chat' })).toContainText('You can no longer write in this room.');
      await expect(log.getByRole('status').filter({ hasText: 'Not sent' })).toHaveText('Not sent (you have no voice in this room: ask a moderator to give you voice, then retry).');
      await expect(retry).toHaveCount(0);
    } finally {
      dave.disconnect();
    }
  });
});

test.describe('Room history: a newcomer reads what was said before they came, in the order it was said (SPEC §9 chat)', () => {
  test('messages sent within one second read in their order, though the room stamps its history to the second', async ({ people }) => {
    const room = uniqueRoomName('history');
    const alice = await people.join(room, 'Alice');
    const said = ['one', 'two', 'three', 'four', 'five'];
    for (const text of said) await say(alice.page, text);
    await expect(chatLog(alice.page).getByRole('article').getByRole('paragraph')).toHaveText(said);

    const bob = await people.join(room, 'Bob');
    await expect(chatLog(bob.page).getByRole('article').getByRole('paragraph')).toHaveText(said);
  });
});

/**
 * Alice and Bob in a new room, Bob's window short (800×480): Alice says 20 messages, which make his
 * log scroll, and it is at their bottom. With where his log is scrolled to, and how far from its bottom.
 */
async function bobsLogFilledByAlice(people: People, label: string) {
  const room = uniqueRoomName(label);
  const alice = await people.join(room, 'Alice');
  const bob = await people.join(room, 'Bob');
  await bob.page.setViewportSize({ width: 800, height: 480 });
  const log = chatLog(bob.page);
  const distanceFromBottom = () => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
  const scrollTop = () => log.evaluate((element) => element.scrollTop);
  for (let index = 1; index <= 20; index += 1) await say(alice.page, `message ${index}`);
  await expect(log).toContainText('message 20');
  await expect.poll(() => log.evaluate((element) => element.scrollHeight > element.clientHeight + 200)).toBe(true);
  await expect.poll(distanceFromBottom).toBeLessThanOrEqual(1);
  return { alice, bob, log, distanceFromBottom, scrollTop };
}

test.describe('Chat scroll: the log sticks to the bottom within 30 px of it, and otherwise stays where you are reading (SPEC §9)', () => {
  test('new messages scroll the log only while you are at (or within 30 px of) the bottom', async ({ people }) => {
    const { alice, bob, log, distanceFromBottom, scrollTop } = await bobsLogFilledByAlice(people, 'scroll');

    // Reading further up: a new message does not move the log.
    await log.evaluate((element) => element.scrollTo({ top: 0 }));
    await expect.poll(scrollTop).toBe(0);
    await say(alice.page, 'while reading');
    await expect(log).toContainText('while reading');
    expect(await scrollTop()).toBe(0);

    // 20 px from the bottom counts as the bottom: any later change (an echo marking the last message
    // acknowledged) may already snap it back, which is the rule too.
    await log.evaluate((element) => element.scrollTo({ top: element.scrollHeight - element.clientHeight - 20 }));
    await expect.poll(distanceFromBottom).toBeLessThanOrEqual(20);
    await say(alice.page, 'near the bottom');
    await expect(log).toContainText('near the bottom');
    await expect.poll(distanceFromBottom).toBeLessThanOrEqual(1);
    // Her typing line leaving gives the log its height back: 40 px up taken before it leaves would
    // then be within the 30 px, and the log rightly at the bottom again.
    await expect(typingIndicator(bob.page)).toBeHidden();

    // 40 px from the bottom is past the 30: reading, so a new message does not move the log.
    await log.evaluate((element) => element.scrollTo({ top: element.scrollHeight - element.clientHeight - 40 }));
    await expect.poll(distanceFromBottom).toBeCloseTo(40, 0);
    const readingAt = await scrollTop();
    await say(alice.page, 'just past the bottom');
    await expect(log).toContainText('just past the bottom');
    // Once her typing has left Bob's screen too (the last change the message makes there).
    await expect(typingIndicator(bob.page)).toBeHidden();
    expect(await scrollTop()).toBe(readingAt);
    expect(await distanceFromBottom()).toBeGreaterThan(40);
  });

  test('scrolling up in the frame in which the log moved itself to a new message still leaves the bottom', async ({ people }) => {
    const { alice, bob, log, scrollTop } = await bobsLogFilledByAlice(people, 'scroll-same-frame');
    // The browser sends one scroll event a frame: Bob's scroll up, made as the log goes down to
    // Alice's long message (before the frame), is one event with the log's own move.
    await log.evaluate((element) => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        element.scrollTo({ top: element.scrollHeight - element.clientHeight - 40 });
      });
      observer.observe(element, { childList: true, subtree: true });
    });
    await say(alice.page, 'a message of several lines, long enough to be taller than forty pixels in the chat panel of a window 800 pixels wide');
    await expect(log).toContainText('a message of several lines');
    await expect(typingIndicator(bob.page)).toBeHidden();
    const readingAt = await scrollTop();
    await say(alice.page, 'while Bob reads');
    await expect(log).toContainText('while Bob reads');
    expect(await scrollTop()).toBe(readingAt);
    await expect(bob.page.getByRole('button', { name: '1 new message' })).toBeVisible();
  });
});

test.describe('Chat scroll: what comes below while you read further up is counted on a button that takes you to it; a message of your own takes you down (beyond SPEC §9)', () => {
  test('two messages below are "2 new messages"; the button shows the latest and goes; scrolling down yourself takes it away too; your own message brings the log down', async ({ people }) => {
    const { alice, bob, log, distanceFromBottom, scrollTop } = await bobsLogFilledByAlice(people, 'scroll-new');
    const newBelow = bob.page.getByRole('button', { name: /^\d+ new messages?$/ });
    const readFromTheTop = async () => {
      await log.evaluate((element) => element.scrollTo({ top: 0 }));
      await expect.poll(scrollTop).toBe(0);
    };
    await expect(newBelow).toHaveCount(0);

    await readFromTheTop();
    await say(alice.page, 'while reading 1');
    await say(alice.page, 'while reading 2');
    await expect(log).toContainText('while reading 2');
    await expect(newBelow).toHaveText('2 new messages');
    expect(await scrollTop()).toBe(0);
    await newBelow.click();
    await expect.poll(distanceFromBottom).toBeLessThanOrEqual(1);
    await expect(newBelow).toHaveCount(0);
    await expect(log).toBeFocused();

    await readFromTheTop();
    await say(alice.page, 'one more');
    await expect(newBelow).toHaveText('1 new message');
    await log.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await expect(newBelow).toHaveCount(0);

    await readFromTheTop();
    await say(bob.page, 'my own');
    await expect.poll(distanceFromBottom).toBeLessThanOrEqual(1);
    await expect(newBelow).toHaveCount(0);

    // Closed while reading further up, opened again after another message: at the latest line.
    await readFromTheTop();
    await panelToggle(bob.page, 'Chat').click();
    await expect(log).toBeHidden();
    await say(alice.page, 'while closed');
    await panelToggle(bob.page, 'Chat').click();
    await expect(log).toContainText('while closed');
    await expect.poll(distanceFromBottom).toBeLessThanOrEqual(1);
    await expect(newBelow).toHaveCount(0);
  });

  test('a room at its last LIMITS.chatMessagesPerRoom messages, the oldest going as each comes: a message below is still counted', async ({ people, appUrl, parley }) => {
    const room = uniqueRoomName('scroll-full');
    const roomAddress = roomJid(room, parley.settings.mucDomain);
    const bob = await people.join(room, 'Bob');
    await bob.page.setViewportSize({ width: 800, height: 480 });
    const plain = await plainClientIn(appUrl, roomAddress, 'dave_on_gajim');
    try {
      const log = chatLog(bob.page);
      const sent = LIMITS.chatMessagesPerRoom + 5;
      // The chat closed while they come, as most of a flood comes: the log draws them once, when opened.
      await panelToggle(bob.page, 'Chat').click();
      await expect(log).toBeHidden();
      for (let index = 1; index <= sent; index += 1) plain.client.sendMessage({ to: roomAddress, type: 'groupchat', body: `line ${index}` });
      await expect(panelToggle(bob.page, 'Chat')).toHaveAccessibleName(`Chat ${sent} unread`, { timeout: 30_000 });
      await panelToggle(bob.page, 'Chat').click();
      await expect(log).toContainText(`line ${sent}`);
      // The oldest five went as the last five came.
      await expect(log.getByText('line 5', { exact: true })).toHaveCount(0);
      await expect(log.getByText('line 6', { exact: true })).toHaveCount(1);
      await log.evaluate((element) => element.scrollTo({ top: 0 }));
      await expect.poll(() => log.evaluate((element) => element.scrollTop)).toBe(0);
      plain.client.sendMessage({ to: roomAddress, type: 'groupchat', body: 'one more' });
      await expect(log).toContainText('one more');
      await expect(bob.page.getByRole('button', { name: '1 new message' })).toBeVisible();
      expect(await log.evaluate((element) => element.scrollTop)).toBe(0);
    } finally {
      plain.client.disconnect();
    }
  });
});

test.describe('Chat input: Enter sends unless Shift is held, or unless "Send on Enter" (sendOnEnter) is off (SPEC §5)', () => {
  test('Shift+Enter adds a line, Enter sends the lines as one message, and with "Send on Enter" off only Send sends', async ({ people }) => {
    const { alice, bob, input } = await aliceWritesToBob(people, 'enter');
    await input.fill('line one');
    await input.press('Shift+Enter');
    await input.pressSequentially('line two');
    await expect(input).toHaveValue('line one\nline two');
    await input.press('Enter');
    await expect(input).toHaveValue('');

    // The chat's options wait behind "Options" until asked for.
    await expect(alice.page.getByRole('checkbox', { name: 'Send on Enter' })).toHaveCount(0);
    await (await chatOption(alice.page, 'Send on Enter')).uncheck();
    await input.fill('typed with Enter off');
    await input.press('Enter');
    await expect(input).toHaveValue('typed with Enter off\n');
    await alice.page.getByRole('button', { name: 'Send' }).click();
    await expect(input).toHaveValue('');

    const messages = chatLog(bob.page).getByRole('article').first().getByRole('paragraph');
    // The multi-line message keeps its line break; the Enter typed with "Send on Enter" off sent nothing by itself.
    await expect(messages).toHaveText(['line one line two', 'typed with Enter off']);
    await expect(messages.first()).toHaveJSProperty('innerText', 'line one\nline two');
  });

  test('an Enter pressed before the page has drawn the last keystroke sends everything typed', async ({ people }) => {
    const room = uniqueRoomName('fast-enter');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const input = messageBox(alice.page);
    await input.fill('typed ');
    // The keystroke and the Enter in one task, so no render can come between them (a fast typist
    // on a busy machine, made certain): the input event, then at once the Enter's keydown.
    await input.evaluate((textarea: HTMLTextAreaElement) => {
      textarea.value = 'typed faster than the page draws';
      textarea.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
      textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    });
    await expect(input).toHaveValue('');
    await expect(chatLog(bob.page).getByRole('article').getByRole('paragraph')).toHaveText(['typed faster than the page draws']);
  });
});

test.describe('Chat input: empty messages are not sent (SPEC §5)', () => {
  test('Enter in an empty or blank input sends nothing and keeps what is there; Send is unavailable', async ({ people }) => {
    const { alice, bob, input } = await aliceWritesToBob(people, 'blank');
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await input.fill('   ');
    await input.press('Enter');
    await expect(input).toHaveValue('   ');
    await expect(alice.page.getByRole('button', { name: 'Send' })).toBeDisabled();

    // A message sent after them arrives alone: the blank ones never left (they would be ahead of it).
    await input.fill('the first real one');
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await expect(chatLog(bob.page).getByRole('article').getByRole('paragraph')).toHaveText(['the first real one']);
  });
});

test.describe('Chat input: a message longer than the limit is not sent, nor cut short (LIMITS.chatBodyLength)', () => {
  test('a message longer than the limit is kept whole, refused with the reason, and goes once shortened', async ({ people }) => {
    const room = uniqueRoomName('too-long');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const input = messageBox(alice.page);
    const longest = 'x'.repeat(LIMITS.chatBodyLength);
    // Pasted: an insertion, which the browser would cut to an input's maxLength.
    await input.focus();
    await alice.page.keyboard.insertText(`${longest}!`);
    await expect(input).toHaveValue(`${longest}!`);
    const reason = alice.page.getByRole('region', { name: 'Chat' }).getByRole('alert');
    // The alert says it once; the count is read with the box, not announced at every key.
    await expect(reason).toHaveText(`Too long to send: up to ${LIMITS.chatBodyLength.toLocaleString('en-US')} characters can be sent. Shorten it to send it.`);
    await expect(input).toHaveAccessibleDescription(new RegExp(`^Too long to send: .* Yours is ${(LIMITS.chatBodyLength + 1).toLocaleString('en-US')} characters long\\.`));
    await alice.page.keyboard.insertText('!');
    await expect(input).toHaveAccessibleDescription(new RegExp(`Yours is ${(LIMITS.chatBodyLength + 2).toLocaleString('en-US')} characters long\\.`));
    await expect(reason).toHaveText(/^Too long to send: /);
    await input.press('Backspace');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(alice.page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await input.press('Enter');
    await expect(input).toHaveValue(`${longest}!`);

    await input.press('Backspace');
    await expect(reason).toHaveCount(0);
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await expect(chatLog(bob.page).getByRole('article').getByRole('paragraph')).toHaveText([longest]);
  });
});

test.describe('Chat input: a draft grows in height only, inside the chat panel, whatever its words', () => {
  test('a pasted link with no break wraps in the box: the box and Send stay in the panel and the page does not scroll sideways', async ({ people }) => {
    const alice = await people.join(uniqueRoomName('long-word'), 'Alice');
    const input = messageBox(alice.page);
    await input.focus();
    await alice.page.keyboard.insertText(`https://example.com/${'a'.repeat(400)}`);
    const panel = await rightEdge(alice.page.getByRole('region', { name: 'Chat' }));
    expect(await rightEdge(input)).toBeLessThanOrEqual(panel);
    expect(await rightEdge(alice.page.getByRole('button', { name: 'Send' }))).toBeLessThanOrEqual(panel);
    expect(await widthPastWindow(alice.page)).toBe(0);
    expect(await alice.page.evaluate(() => window.scrollX)).toBe(0);
  });
});

test.describe('Chat names: a name with no break wraps where it is shown in the chat, on a phone too', () => {
  test('the message header, the join line and the typing line wrap a 64-character name inside the panel; the page does not scroll sideways', async ({ people }) => {
    const room = uniqueRoomName('long-name');
    const longName = 'W'.repeat(LIMITS.displayNameLength);
    const bob = await people.join(room, 'Bob');
    await bob.page.setViewportSize({ width: 390, height: 844 });
    const wanda = await people.join(room, longName);
    await say(wanda.page, 'hello');
    await messageBox(wanda.page).fill('and more');
    const shown = [
      chatLog(bob.page).getByRole('article').getByText(longName, { exact: true }),
      chatLog(bob.page).getByText(`${longName} joined`),
      typingIndicator(bob.page).getByText(longName),
    ];
    const panel = await rightEdge(bob.page.getByRole('region', { name: 'Chat' }));
    for (const where of shown) expect(await rightEdge(where)).toBeLessThanOrEqual(panel);
    expect(await widthPastWindow(bob.page)).toBe(0);
  });
});

test.describe('Chat input: nothing is sent while the input is disabled (SPEC §5)', () => {
  test('the input is disabled until the room is joined', async ({ people }) => {
    const room = uniqueRoomName('disabled');
    const alice = await people.join(room, 'Alice');
    await lockRoom(alice.page, 'pw');

    const bob = await people.arrive(room, 'Bob');
    await expect(bob.page.getByRole('textbox', { name: 'Room password' })).toBeVisible();
    await expect(messageBox(bob.page)).toBeDisabled();
    await expect(bob.page.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  test('a draft left when the room was left is kept read-only and not sent by Enter, though the person is back in the room through another tab; "Join again" gives it back', async ({ people }) => {
    const room = uniqueRoomName('disabled-draft');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const alicesMessages = chatLog(alice.page).getByRole('article').getByRole('paragraph');
    await say(bob.page, 'hello');
    await expect(alicesMessages).toHaveText(['hello']);
    // Bob's second tab of the room (the chat open there too: the layout is remembered).
    const second = await bob.context.newPage();
    await second.goto(bob.page.url());
    await expectJoined(second);

    // A draft in his first tab; "Leave" in the second takes him out of the room in both: the first
    // says he left, and in place of its input shows the draft, read-only.
    await messageBox(bob.page).fill('a draft from before I left');
    await second.getByRole('button', { name: 'Leave' }).click();
    await expect(bob.page.getByRole('heading', { name: 'You left this room' })).toBeVisible();
    await expectChatClosed(bob.page, 'left');
    const unsent = bob.page.getByRole('textbox', { name: 'What you had typed, not sent' });
    await expect(unsent).toHaveValue('a draft from before I left');
    // He comes back through the second tab: his session is in the room again, and would send what
    // the first tab asked; the first still says he left, with nothing to send from.
    await second.getByRole('textbox', { name: 'Room name' }).fill(room);
    await second.getByRole('button', { name: 'Join', exact: true }).click();
    await expectJoined(second);
    await expect(participantEntry(alice.page, 'Bob')).toHaveCount(1);
    await expectChatClosed(bob.page, 'left');

    // Enter in the read-only draft, as a person presses it and as a keydown at it: neither sends it.
    await unsent.press('Enter');
    await unsent.dispatchEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    await expect(unsent).toHaveValue('a draft from before I left');
    // What Bob says next from the other tab arrives right after "hello": nothing went ahead of it.
    await say(second, 'from my other tab');
    await expect(alicesMessages).toHaveText(['hello', 'from my other tab']);
    // "Join again" in the first tab gives the draft back to its input, still unsent.
    await bob.page.getByRole('button', { name: 'Join again' }).click();
    await expect(messageBox(bob.page)).toBeEnabled();
    await expect(messageBox(bob.page)).toHaveValue('a draft from before I left');
    await expect(chatLog(bob.page)).not.toContainText('a draft from before I left');
  });
});

/** Alice and Bob in a new room: Alice's message box, and what Bob's page shows of who is typing. */
async function aliceWritesToBob(people: People, label: string) {
  const room = uniqueRoomName(label);
  const alice = await people.join(room, 'Alice');
  const bob = await people.join(room, 'Bob');
  return { alice, bob, input: messageBox(alice.page), typing: typingIndicator(bob.page) };
}

test.describe('Message editing: a correction replaces your own last message and is shown as edited (SPEC §5)', () => {
  test('ArrowUp in the empty input and the Edit button both correct the last message; the other person sees the edited text', async ({ people }) => {
    const room = uniqueRoomName('edit');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const input = messageBox(alice.page);
    const bobsLog = chatLog(bob.page);

    await say(alice.page, 'I like tea');
    await expect(bobsLog).toContainText('I like tea');

    await input.press('ArrowUp');
    await expect(input).toHaveValue('I like tea');
    await input.fill('I like coffee');
    await input.press('Enter');
    await expect(bobsLog).toContainText('I like coffee (edited)');
    await expect(bobsLog).not.toContainText('I like tea');
    await expect(chatLog(alice.page)).toContainText('I like coffee (edited)');

    await chatLog(alice.page).getByRole('button', { name: 'Edit' }).click();
    await expect(input).toHaveValue('I like coffee');
    await input.fill('I like cocoa');
    await input.press('Enter');
    await expect(bobsLog).toContainText('I like cocoa (edited)');
    // Still one message, corrected in place.
    await expect(bobsLog.getByRole('paragraph')).toHaveCount(1);

    // Only your own message can be edited.
    await expect(bobsLog.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  });

  test('a half-typed message waits aside while a correction is written, and is back (for the others too) once it is sent or cancelled; cancelling leaves the focus in the input', async ({ people }) => {
    const { alice, bob, input, typing } = await aliceWritesToBob(people, 'edit-aside');
    const edit = chatLog(alice.page).getByRole('button', { name: 'Edit' });
    await say(alice.page, 'I like tea');
    await input.pressSequentially('and also');
    await expect(typing).toContainText('and also');

    await edit.click();
    await expect(input).toHaveValue('I like tea');
    await expect(typing).toBeHidden();
    await input.fill('I like coffee');
    await input.press('Enter');
    await expect(chatLog(bob.page)).toContainText('I like coffee (edited)');
    await expect(input).toHaveValue('and also');
    await expect(typing).toContainText('and also');

    await edit.click();
    await expect(input).toHaveValue('I like coffee');
    await alice.page.getByRole('button', { name: 'Cancel edit' }).click();
    await expect(input).toHaveValue('and also');
    await expect(input).toBeFocused();
    await expect(typing).toContainText('and also');

    await edit.click();
    await input.press('Escape');
    await expect(input).toHaveValue('and also');
  });

  test('ArrowUp right after Enter corrects the message just sent, even before the session has shown it', async ({ people }) => {
    const room = uniqueRoomName('edit-at-once');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const input = messageBox(alice.page);
    const bobsLog = chatLog(bob.page);
    await say(alice.page, 'First message');
    await expect(bobsLog).toContainText('First message');

    // Her session answers only once she has sent, pressed ↑, retyped and sent again: until then
    // her page shows "First message" as her last one.
    const session = await pauseSessionWorker(alice.page);
    await say(alice.page, 'Hello Alcie');
    await input.press('ArrowUp');
    await input.fill('Hello Alice');
    await input.press('Enter');
    await session.resume();

    await expect(bobsLog).toContainText('Hello Alice (edited)');
    // The messages, not the log's event lines ("Bob joined").
    await expect(bobsLog.getByRole('article').getByRole('paragraph')).toHaveText(['First message', /^Hello Alice/]);
    await expect(chatLog(alice.page).getByRole('article').getByRole('paragraph')).toHaveText(['First message', /^Hello Alice/]);
    await expect(input).toHaveValue('');
  });
});

test.describe('Chat state and real-time text: the others see who is typing and the text as it is written (SPEC §4 chat state, §9 real-time text)', () => {
  test('typing shows "is typing…" with the live text, and clearing the input ends it', async ({ people }) => {
    const { bob, input, typing } = await aliceWritesToBob(people, 'typing');

    await input.pressSequentially('Hello wor');
    await expect(typing).toContainText('Alice is typing…');
    await expect(typing).toContainText('Hello wor');
    await input.pressSequentially('ld');
    await expect(typing).toContainText('Hello world');

    // SPEC §4: an empty message returns to active.
    await input.fill('');
    await expect(typing).toBeHidden();

    await input.pressSequentially('Sent now');
    await expect(typing).toContainText('Sent now');
    await input.press('Enter');
    await expect(chatLog(bob.page)).toContainText('Sent now');
    await expect(typing).toBeHidden();
  });

  test('a paste too long to send is not shown being typed: the others stop seeing the text typed before it', async ({ people }) => {
    const { input, typing } = await aliceWritesToBob(people, 'typing-too-long');
    await input.pressSequentially('see log: ');
    await expect(typing).toContainText('see log:');
    await input.fill(`see log: ${'x'.repeat(LIMITS.chatBodyLength)}`);
    await expect(typing).toBeHidden();
  });

  test('a long draft shows its last lines only: the one reading it keeps their message box, Send and their chat log on screen (beyond the spec)', async ({ people }) => {
    const { bob, input, typing } = await aliceWritesToBob(people, 'typing-long-draft');
    const lines = Array.from({ length: 60 }, (_, index) => `line ${index + 1} of the log Alice pastes`);
    await input.fill(lines.join('\n'));
    await expect(typing).toContainText(lines.at(-1)!);
    const draft = typing.locator('.typing-draft');
    const bottomOf = async (locator: Locator) => {
      const box = await locator.boundingBox();
      if (!box) throw new Error(`${locator.toString()} has no box on screen`);
      return box.y + box.height;
    };
    // The newest line shows at the draft's foot; the first is cut off above it.
    const { shown, first, last } = await draft.evaluate((element, [firstLine, lastLine]) => {
      const text = element.firstChild as Text;
      const lineBox = (start: number, length: number) => {
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, start + length);
        const { top, bottom } = range.getBoundingClientRect();
        return { top, bottom };
      };
      const { top, bottom } = element.getBoundingClientRect();
      return { shown: { top, bottom }, first: lineBox(0, firstLine.length), last: lineBox(text.length - lastLine.length, lastLine.length) };
    }, [lines[0]!, lines.at(-1)!] as const);
    expect(last.top).toBeGreaterThanOrEqual(shown.top);
    expect(last.bottom).toBeLessThanOrEqual(shown.bottom);
    expect(first.bottom).toBeLessThanOrEqual(shown.top);
    expect(shown.bottom - shown.top).toBeLessThan(100);
    const windowHeight = bob.page.viewportSize()!.height;
    const panel = await bottomOf(bob.page.getByRole('region', { name: 'Chat' }));
    for (const control of [messageBox(bob.page), bob.page.getByRole('button', { name: 'Send' })]) {
      expect(await bottomOf(control)).toBeLessThanOrEqual(Math.min(panel, windowHeight));
    }
    expect((await chatLog(bob.page).boundingBox())!.height).toBeGreaterThanOrEqual(120);
  });

  test('a draft typed in a pop-out chat goes from the others’ screens when the pop-out closes, though the room stays open in another tab', async ({ people }) => {
    const { alice, typing } = await aliceWritesToBob(people, 'typing-popout');
    const [popout] = await Promise.all([alice.context.waitForEvent('page'), alice.page.getByRole('button', { name: 'Pop out chat' }).click()]);
    await expectJoined(popout);
    await messageBox(popout).pressSequentially('half a thought');
    await expect(typing).toContainText('half a thought');

    await popout.close();
    await expect(typing).toBeHidden();
  });

  test('text that comes without a keystroke (dictation, a drop) right after a correction is sent still shows "is typing…"', async ({ people }) => {
    const { bob, input, typing } = await aliceWritesToBob(people, 'typing-after-edit');
    await input.fill('Hello Bbo');
    await input.press('Enter');
    await expect(chatLog(bob.page)).toContainText('Hello Bbo');
    await input.press('ArrowUp');
    await input.fill('Hello Bob');
    // The Enter that sends the correction and the next text in one task, so no render comes between
    // them: text without a keydown (dictation, a drop, Playwright's fill) must meet the page as the
    // Enter left it, no longer correcting.
    await input.evaluate((textarea: HTMLTextAreaElement) => {
      textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      textarea.value = 'still writing';
      textarea.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromDrop' }));
    });
    await expect(chatLog(bob.page)).toContainText('Hello Bob (edited)');
    await expect(typing).toContainText('Alice is typing…');
    await expect(typing).toContainText('still writing');
  });
});

test.describe('Lock state: only an owner who has joined locks the room; a newcomer must give the password (SPEC §4 lock state, §6)', () => {
  test('the first joiner owns the room, locks it, a wrong password stays on the prompt, the right one joins', async ({ people }) => {
    const room = uniqueRoomName('lock');
    const alice = await people.join(room, 'Alice');
    await expect(participantEntry(alice.page, 'Alice')).toHaveText('Alice, you, owner');
    const bob = await people.join(room, 'Bob');
    await expect(participantEntry(bob.page, 'Alice')).toContainText('owner');
    await expect(participantEntry(bob.page, 'Bob')).toHaveText('Bob, you');
    // Not an owner: no lock controls.
    await expect(bob.page.getByRole('button', { name: 'Lock room' })).toHaveCount(0);

    await alice.page.getByRole('button', { name: 'Lock room' }).click();
    const dialog = alice.page.getByRole('dialog', { name: 'Lock room' });
    await dialog.getByRole('textbox', { name: 'Room password' }).fill('open sesame');
    await dialog.getByRole('button', { name: 'Lock', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(alice.page.getByRole('button', { name: 'Unlock room' })).toBeVisible();
    // Those inside learn of the lock from the room (status 104 recheck).
    await expect(bob.page.getByText('locked', { exact: true })).toBeVisible();

    const carol = await people.arrive(room, 'Carol');
    const roomState = carol.page.getByRole('status', { name: 'Room state' });
    await expect(roomState).toContainText('This room is locked.');
    // Not a banner over an empty page: the prompt stands in the page's main area, where the call would be.
    await expect(carol.page.getByRole('main').getByRole('status', { name: 'Room state' })).toContainText('Enter the room password to join.');
    // A room that has not let her in gets neither her camera nor a call, not even while a password is tried.
    await carol.page.evaluate(() => {
      const seen = window as unknown as { cameraAsked: number; callOffered: boolean };
      seen.cameraAsked = 0;
      seen.callOffered = false;
      const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = (constraints) => {
        seen.cameraAsked += 1;
        return ask(constraints);
      };
      new MutationObserver(() => {
        if ([...document.querySelectorAll('button')].some((button) => button.textContent?.trim() === 'Join call')) seen.callOffered = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await enterPassword(carol.page, 'wrong');
    await expect(roomState).toContainText('That password did not open the room.');
    await expect(carol.page.getByRole('textbox', { name: 'Room password' })).toBeVisible();
    await expect(messageBox(carol.page)).toBeDisabled();
    expect(
      await carol.page.evaluate(() => {
        const seen = window as unknown as { cameraAsked: number; callOffered: boolean };
        return { cameraAsked: seen.cameraAsked, callOffered: seen.callOffered };
      }),
    ).toEqual({ cameraAsked: 0, callOffered: false });

    await enterPassword(carol.page, 'open sesame');
    await expectJoined(carol.page);
    await expect(participantEntry(alice.page, 'Carol')).toBeVisible();

    await alice.page.getByRole('button', { name: 'Unlock room' }).click();
    await expect(alice.page.getByRole('button', { name: 'Lock room' })).toBeVisible();
    await expect(bob.page.getByText('locked', { exact: true })).toBeHidden();
  });
});

test.describe('Kick: the owner bans a peer, who then reads that they are banned (SPEC §6, §8 forbidden means banned)', () => {
  test('only the owner sees Kick; the kicked peer is told they are banned and leaves the list', async ({ people }) => {
    const room = uniqueRoomName('kick');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');

    await expect(participantEntry(bob.page, 'Alice')).toBeVisible();
    await expect(bob.page.getByRole('button', { name: /^Kick / })).toHaveCount(0);
    await expect(participantEntry(alice.page, 'Alice').getByRole('button', { name: /^Kick / })).toHaveCount(0);

    await kickAndBan(alice.page, 'Bob');
    await expect(bob.page.getByRole('heading', { level: 2, name: 'You were removed from this room' })).toBeVisible();
    await expectChatClosed(bob.page);
    await expect(participantEntry(alice.page, 'Bob')).toHaveCount(0);
  });
});

test.describe('Attention request: shown while the peer requests it, for 5 s (SPEC §4 attention request)', () => {
  test('asking a person for attention shows them an alert that then goes away; the one who asked reads that they did, in the person’s entry, as long', async ({ people }) => {
    const room = uniqueRoomName('attention');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');

    await participantEntry(alice.page, 'Bob').getByRole('button', { name: 'Request attention from Bob' }).click();
    const alert = bob.page.getByRole('alert').filter({ hasText: 'Alice is asking for your attention.' });
    await expect(alert).toBeVisible();
    await expect(participantEntry(bob.page, 'Alice')).toContainText('asking for attention');
    const asked = participantEntry(alice.page, 'Bob').getByRole('status');
    await expect(asked).toHaveText(', asked for attention');
    await expect(alert).toBeHidden();
    await expect(asked).toHaveText('');
  });
});

test.describe('An attention request is said once: by the open chat’s log, or by the alert while the chat is closed, and shown in both cases (SPEC §4 attention request)', () => {
  test('Bob’s chat open: the request is a line of its log, and the banner shows without a word; his chat closed: the alert says it', async ({ people }) => {
    const room = uniqueRoomName('attention-once');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const ask = () => participantEntry(alice.page, 'Bob').getByRole('button', { name: 'Request attention from Bob' }).click();
    const banner = bob.page.locator('.banner-attention', { hasText: 'Alice is asking for your attention.' });
    // What a screen reader finds in the alert: an element hidden from it (aria-hidden) is not found by role.
    const saidByAlert = bob.page.getByRole('alert').getByRole('paragraph').filter({ hasText: 'Alice is asking for your attention.' });

    await ask();
    await expect(banner).toBeVisible();
    await expect(chatLog(bob.page)).toContainText('Alice asked for your attention');
    await expect(saidByAlert).toHaveCount(0);
    await expect(banner).toBeHidden();

    await panelToggle(bob.page, 'Chat').click();
    await expect(panelToggle(bob.page, 'Chat')).toHaveAttribute('aria-expanded', 'false');
    await ask();
    await expect(saidByAlert).toBeVisible();
    await expect(banner).toBeHidden();
  });
});

test.describe('Unread count: messages that arrive while the chat is hidden are counted until it is shown (SPEC §3 Room.unreadCount)', () => {
  test('closing the chat panel counts new messages; opening it marks them read, "New messages" above the first of them until you write', async ({ people }) => {
    const room = uniqueRoomName('unread');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    const chatToggle = (name: string) => bob.page.getByRole('navigation', { name: 'Room controls' }).getByRole('button', { name, exact: true });
    await say(alice.page, 'zero');
    await expect(chatLog(bob.page)).toContainText('zero');

    await chatToggle('Chat').click();
    await expect(chatToggle('Chat')).toHaveAttribute('aria-expanded', 'false');
    await expect(chatLog(bob.page)).toBeHidden();
    await say(alice.page, 'one');
    await say(alice.page, 'two');
    await expect(chatToggle('Chat 2 unread')).toBeVisible();
    await expect(bob.page).toHaveTitle(/^\(2\) /);

    await chatToggle('Chat 2 unread').click();
    await expect(chatLog(bob.page)).toContainText('two');
    await expect(chatToggle('Chat')).toHaveAttribute('aria-expanded', 'true');
    // The line sits between what he had read and what came since; reading on, it stays; writing, it goes.
    const lines = chatLog(bob.page).locator('.message-body, .chat-new');
    await expect(lines).toHaveText(['zero', 'New messages', 'one', 'two']);
    await say(alice.page, 'three');
    await expect(lines).toHaveText(['zero', 'New messages', 'one', 'two', 'three']);
    await say(bob.page, 'reading');
    await expect(chatLog(bob.page).getByRole('heading', { name: 'New messages' })).toHaveCount(0);
    await chatToggle('Chat').click();
    await expect(chatToggle('Chat')).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('A part of the page that fails says so in plain words and offers Reload; the rest goes on working', () => {
  test('the chat fails as it shows its first line: its panel says so, the call and the people list stay, and Reload brings the chat back', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      // A named fake: a fault in the chat's own code, which no real part can be made to have. The
      // chat formats its lines' times with Intl.DateTimeFormat; the tab's first format throws.
      await context.addInitScript(() => {
        const format = Object.getOwnPropertyDescriptor(Intl.DateTimeFormat.prototype, 'format')!.get!;
        Object.defineProperty(Intl.DateTimeFormat.prototype, 'format', {
          get(this: Intl.DateTimeFormat) {
            if (sessionStorage.getItem('parley-test-fault') !== null) return format.call(this);
            sessionStorage.setItem('parley-test-fault', 'thrown');
            return () => {
              throw new Error('the test’s fault in the chat');
            };
          },
        });
      });
      const page = await context.newPage();
      await joinFromHome(page, appUrl, uniqueRoomName('part-failure'), 'Alice');
      await openPanel(page, 'People');
      await openPanel(page, 'Chat');
      // The first line to show, with its time, is the chat's first message.
      await messageBox(page).fill('the first message');
      await messageBox(page).press('Enter');
      const failure = page.getByRole('alert').filter({ hasText: 'stopped working' });
      await expect(failure).toHaveText('The chat stopped working. Reload the page to carry on.Reload');
      await expect(page.getByRole('region', { name: 'Call' }).getByRole('button', { name: 'Join call' })).toBeVisible();
      await expect(participantEntry(page, 'Alice')).toHaveCount(1);

      await failure.getByRole('button', { name: 'Reload' }).click();
      await expectJoined(page);
      await expect(chatLog(page)).toContainText('the first message');
      await say(page, 'the chat is back');
      await expect(chatLog(page)).toContainText('the chat is back');
      await expect(failure).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});

test.describe('Tabs: one person’s tabs share one signalling session, and a pop-out chat stays in sync (DESIGN "Tab roles"; issue 3 item 3)', () => {
  test('three tabs of one person are one XMPP session and one occupant; chat from either tab appears in both', async ({ people, parley, appUrl }) => {
    const room = uniqueRoomName('tabs');
    const jid = roomJid(room, parley.settings.mucDomain);
    const stats = () => parley.xmpp.stats();
    // Every earlier test closed its people: once their sessions are gone, every session is this test's.
    await expect.poll(async () => (await stats()).clientSessions).toBe(0);

    const alice = await people.join(room, 'Alice');
    // A second tab: home remembers the display name (a preference shared by every tab).
    const second = await alice.context.newPage();
    await second.goto(appUrl);
    await expect(second.getByRole('textbox', { name: 'Display name' })).toHaveValue('Alice');
    await second.getByRole('textbox', { name: 'Room name' }).fill(room);
    await second.getByRole('button', { name: 'Join', exact: true }).click();
    await expectJoined(second);

    // The third tab: the pop-out chat, chat only.
    const [popout] = await Promise.all([alice.context.waitForEvent('page'), alice.page.getByRole('button', { name: 'Pop out chat' }).click()]);
    await expect(popout).toHaveURL(/\?view=chat$/);
    await expectJoined(popout);
    await expect(participants(popout)).toHaveCount(0);
    await expect(popout.getByRole('button', { name: 'Leave' })).toHaveCount(0);

    await expect.poll(async () => (await stats()).clientSessions).toBe(1);
    await expect.poll(async () => (await stats()).rooms[jid]?.occupants).toBe(1);

    const bob = await people.join(room, 'Bob');
    await expect.poll(async () => (await stats()).rooms[jid]?.occupants).toBe(2);
    await expect(participants(alice.page).getByRole('listitem')).toHaveCount(2);

    await say(popout, 'from the pop-out');
    for (const page of [alice.page, second, bob.page]) await expect(chatLog(page)).toContainText('from the pop-out');
    await say(alice.page, 'from the room tab');
    for (const page of [popout, second, bob.page]) await expect(chatLog(page)).toContainText('from the room tab');

    // Closing one tab leaves the others working; the session and the occupant stay single.
    await second.close();
    await say(popout, 'after the second tab closed');
    await expect(chatLog(bob.page)).toContainText('after the second tab closed');
    await expect.poll(async () => (await stats()).clientSessions).toBe(2);
    await expect.poll(async () => (await stats()).rooms[jid]?.occupants).toBe(2);

    // "Leave" takes Alice out of the room, not only out of that tab: Bob sees her go, and her pop-out
    // says she left (before, the pop-out kept her in the room while the home page said she had left).
    await alice.page.getByRole('button', { name: 'Leave' }).click();
    await expect(alice.page.getByRole('status').filter({ hasText: `You left ${room}.` })).toBeVisible();
    await expect(participantEntry(bob.page, 'Alice')).toHaveCount(0);
    await expect.poll(async () => (await stats()).rooms[jid]?.occupants).toBe(1);
    await expect(popout.getByRole('heading', { name: 'You left this room' })).toBeVisible();
    await expectChatClosed(popout, 'left');
    // What was said stays to read.
    await expect(chatLog(popout)).toContainText('after the second tab closed');

    // The pop-out can take her back in, and its chat works again; the focus, on "Join again" as it
    // went, is in the message input once it can be written in, not lost to the page.
    await popout.getByRole('button', { name: 'Join again' }).click();
    await expectJoined(popout);
    await expect(messageBox(popout)).toBeFocused();
    await expect(participantEntry(bob.page, 'Alice')).toHaveCount(1);
    await say(popout, 'back again');
    await expect(chatLog(bob.page)).toContainText('back again');
    await popout.close();
    await expect(participantEntry(bob.page, 'Alice')).toHaveCount(0);
    await expect.poll(async () => (await stats()).rooms[jid]?.occupants).toBe(1);
  });

  test('leaving goes home on the same session, and Back returns to the room', async ({ people }) => {
    const room = uniqueRoomName('home');
    const { page } = await people.join(room, 'Dana');
    await page.getByRole('button', { name: 'Leave' }).click();
    await expect(page.getByRole('textbox', { name: 'Display name' })).toHaveValue('Dana');
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Connected');
    await page.goBack();
    await expectJoined(page);
  });
});
