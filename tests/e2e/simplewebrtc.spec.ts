// SimpleWebRTC 1.30.3 itself (the reference client, bench/reference) in a call with Parley, on direct
// connections: the wire Parley talks is 1.30.3's (PROTOCOL.md), so a person on either client sees,
// hears and reads the other, a 1.30.3 mute reaches Parley as 1.30.3 says it, and a screen Parley
// shares reaches 1.30.3 in a session of its own. Real Prosody and Chromium with fake devices, in a
// loopback-only network namespace (README "Tests"). The call through the relay is
// simplewebrtc-relay.spec.ts.
import { callButton, expectDecodingVideo, expectHearing, expectHearingNothing, expectVideoPlays, joinCall, LIGHT_DIRECT_SERVERS, tile } from './call-ui-people';
import { expectReferenceSeesAndHears, referenceChat, referenceMute, referenceSays, withReferenceClient } from './reference-people';
import { chatLog, expect, participantEntry, say, uniqueRoomName } from './rooms-people';

const test = withReferenceClient(LIGHT_DIRECT_SERVERS);

test.describe('SimpleWebRTC 1.30.3 clients share a room with Parley (PROTOCOL.md: the wire is 1.30.3’s)', () => {
  test('on direct connections: each sees and hears the other, Parley lists the 1.30.3 person by name, chat goes both ways, a 1.30.3 mute reaches Parley, and a Parley screen share reaches 1.30.3', async ({ people, onReference }) => {
    const roomName = uniqueRoomName('swrtc-mesh');
    const sam = await onReference(roomName, 'Sam');
    const alice = await people.join(roomName, 'Alice');
    await joinCall(alice.page);

    await test.step('Alice lists Sam by the name his client gave, and each sees and hears the other', async () => {
      await expect(participantEntry(alice.page, 'Sam')).toBeVisible();
      await expectDecodingVideo(alice.page, 'Sam');
      await expectHearing(alice.page, 'Sam');
      await expectReferenceSeesAndHears(sam, ['Alice']);
    });

    await test.step('chat goes both ways, under each sender’s name', async () => {
      await say(alice.page, 'Hello from Parley');
      await expect(referenceChat(sam)).toContainText('Alice: Hello from Parley');
      await referenceSays(sam, 'Hello from SimpleWebRTC');
      await expect(chatLog(alice.page)).toContainText('Hello from SimpleWebRTC');
      await expect(chatLog(alice.page).getByRole('article').filter({ hasText: 'Hello from SimpleWebRTC' })).toContainText('Sam');
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
      const samsRemoteVideos = sam.page.getByRole('figure', { name: /^remote video / }).locator('video');
      await expect(samsRemoteVideos).toHaveCount(2);
      await expectVideoPlays(samsRemoteVideos.nth(0), 'the first of Sam’s two remote');
      await expectVideoPlays(samsRemoteVideos.nth(1), 'the second of Sam’s two remote');
    });
  });
});
