// SimpleWebRTC 1.30.3 itself (the reference client, bench/reference) in a call with Parley, on direct
// connections: the wire Parley talks is 1.30.3's (PROTOCOL.md), so a person on either client sees,
// hears and reads the other (typing, real-time text and corrections too), a 1.30.3 mute reaches
// Parley as 1.30.3 says it, and a screen shared on either reaches the other in a session of its own.
// Real Prosody and Chromium with fake devices, in a loopback-only network namespace (README
// "Tests"). The call through the relay is simplewebrtc-relay.spec.ts.
import { callButton, expectDecodingVideo, expectHearing, expectHearingNothing, expectSeeingAndHearing, expectVideoPlays, joinCall, LIGHT_DIRECT_SERVERS, tile } from './call-ui-people';
import { expectAll } from './expect-all';
import { expectReferenceSeesAndHears, referenceChat, referenceMute, referenceOwnVideo, referenceRemoteVideos, withReferenceClient } from './reference-people';
import { chatLog, expect, kickAndBan, lockRoom, messageBox, participantEntry, typingIndicator, uniqueRoomName } from './rooms-people';

const test = withReferenceClient(LIGHT_DIRECT_SERVERS);

test.describe('SimpleWebRTC 1.30.3 clients share a room with Parley (PROTOCOL.md: the wire is 1.30.3’s)', () => {
  test('on direct connections: each sees and hears the other, Parley lists the 1.30.3 person by name, chat goes both ways with typing, real-time text and corrections, a 1.30.3 mute reaches Parley, and a screen shared on either reaches the other', async ({ people, onReference }) => {
    const roomName = uniqueRoomName('swrtc-mesh');
    const sam = await onReference(roomName, 'Sam');
    const alice = await people.join(roomName, 'Alice');
    await joinCall(alice.page);

    await test.step('Alice lists Sam by the name his client gave, and each sees and hears the other', async () => {
      await expect(participantEntry(alice.page, 'Sam')).toBeVisible();
      await expectAll([expectSeeingAndHearing(alice.page, 'Sam'), expectReferenceSeesAndHears(sam, ['Alice'])]);
    });

    await test.step('chat goes both ways under each sender’s name, with typing and real-time text; a correction reaches 1.30.3 as the text it reads next; nothing private is offered, which 1.30.3 would drop', async () => {
      const samsChat = referenceChat(sam);
      await messageBox(alice.page).pressSequentially('Hello from Par');
      await expect(samsChat.getByRole('region', { name: 'Typing' })).toContainText('Alice is typing: Hello from Par');
      await messageBox(alice.page).pressSequentially('ley');
      await messageBox(alice.page).press('Enter');
      await expect(samsChat).toContainText('Alice: Hello from Parley');
      await expect(samsChat.getByRole('region', { name: 'Typing' })).not.toContainText('Alice');

      await messageBox(alice.page).press('ArrowUp');
      await messageBox(alice.page).fill('Hello from Parley, corrected');
      await messageBox(alice.page).press('Enter');
      // 1.30.3 applies a correction only to its own messages: another's reads as a message of its own.
      await expect(samsChat.getByText(/^Alice: /)).toHaveText(['Alice: Hello from Parley', 'Alice: Hello from Parley, corrected']);

      await samsChat.getByPlaceholder('Message').fill('Hello from SimpleWebRTC');
      await expect(typingIndicator(alice.page)).toContainText('Sam');
      await samsChat.getByPlaceholder('Message').press('Enter');
      await expect(chatLog(alice.page).getByRole('article').filter({ hasText: 'Hello from SimpleWebRTC' })).toContainText('Sam');
      await expect(typingIndicator(alice.page)).toBeHidden();
      // 1.30.3 drops every message that is not to the whole room: Alice is not offered to write to Sam alone.
      await expect(alice.page.getByRole('button', { name: 'Write privately' })).toHaveCount(0);
    });

    await test.step('Sam mutes on 1.30.3: Alice shows him muted and hears nothing; he unmutes and she hears him again', async () => {
      await referenceMute(sam).click();
      await expect(referenceMute(sam)).toHaveAttribute('aria-pressed', 'true');
      await expect(participantEntry(alice.page, 'Sam')).toContainText('muted');
      await expect(tile(alice.page, 'Sam')).toContainText('muted');
      await expectHearingNothing(alice.page, 'Sam');
      await referenceMute(sam).click();
      await expect(participantEntry(alice.page, 'Sam')).not.toContainText('muted');
      await expectHearing(alice.page, 'Sam');
    });

    await test.step('Alice shares her screen: Sam’s 1.30.3 receives it as a video of its own, beside her camera', async () => {
      await callButton(alice.page, 'Start Screenshare').click();
      await expect(tile(alice.page, 'Your screen')).toBeVisible();
      const samsRemoteVideos = referenceRemoteVideos(sam);
      await expect(samsRemoteVideos).toHaveCount(2);
      await expectAll([expectVideoPlays(samsRemoteVideos.nth(0), 'the first of Sam’s two remote'), expectVideoPlays(samsRemoteVideos.nth(1), 'the second of Sam’s two remote')]);
    });

    await test.step('Sam shares his screen on 1.30.3: Alice sees it as his screen, beside his camera, and lists him sharing', async () => {
      await sam.page.getByRole('button', { name: 'Share screen' }).click();
      await expectDecodingVideo(alice.page, "Sam's screen");
      await expect(participantEntry(alice.page, 'Sam')).toContainText('sharing screen');
      await expectDecodingVideo(alice.page, 'Sam');
    });
  });
});

test.describe('A Parley owner’s kick removes a SimpleWebRTC 1.30.3 person (SPEC §6, PROTOCOL.md kick: a ban of the real JID)', () => {
  test('Alice owns the room and kicks Sam, on 1.30.3: he is gone from her room and call, banned, and his client has left the room and stays out when reloaded', async ({ people, onReference }) => {
    const roomName = uniqueRoomName('swrtc-kick');
    const alice = await people.join(roomName, 'Alice');
    await joinCall(alice.page);
    const sam = await onReference(roomName, 'Sam');
    await expectDecodingVideo(alice.page, 'Sam');

    await kickAndBan(alice.page, 'Sam');
    await expect(participantEntry(alice.page, 'Sam')).toHaveCount(0);
    await expect(tile(alice.page, 'Sam')).toHaveCount(0);
    await expect(alice.page.getByRole('list', { name: 'Banned' }).getByText('Sam', { exact: true })).toBeVisible();
    // 1.30.3 shows its room only while joined: its own video and Alice's are gone.
    await expect(sam.page.getByRole('figure')).toHaveCount(0);

    // A reload of 1.30.3, which keeps no identity of its own, is the same guest (the gateway keeps it): still banned.
    await sam.page.reload();
    await expect(sam.page.getByRole('status')).toHaveText('Not in the room: banned', { timeout: 30_000 });
    await expect(participantEntry(alice.page, 'Sam')).toHaveCount(0);
  });
});

test.describe('A room a Parley owner locks asks SimpleWebRTC 1.30.3 newcomers for its password, and keeps the 1.30.3 people who were in it (SPEC §6 lock, PROTOCOL.md MUC password)', () => {
  test('Alice locks the room Sam is in: Sam, on 1.30.3, reloads and is back without the password; Tom, on 1.30.3, is refused without it and gets in with it', async ({ people, onReference }) => {
    const roomName = uniqueRoomName('swrtc-lock');
    const alice = await people.join(roomName, 'Alice');
    const sam = await onReference(roomName, 'Sam');
    await expect(participantEntry(alice.page, 'Sam')).toBeVisible();

    await lockRoom(alice.page, 'open sesame');

    await sam.page.reload();
    await expect(referenceOwnVideo(sam)).toBeVisible({ timeout: 30_000 });
    await expect(participantEntry(alice.page, 'Sam')).toBeVisible();

    await onReference(roomName, 'Tom', { refusedAs: 'password-required' });
    await expect(participantEntry(alice.page, 'Tom')).toHaveCount(0);
    await onReference(roomName, 'Tom', { password: 'open sesame' });
    await expect(participantEntry(alice.page, 'Tom')).toBeVisible();
  });
});
