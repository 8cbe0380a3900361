// The fault suite's call cases on direct connections (issue 13): Prosody killed mid-call, someone who
// mutes or unmutes while it is down, a person's network dead without a word mid-call, a camera and
// microphone the system stops. Two people, so
// they run in the `faults` project with the chat's cases, two at a time (most of their time is the outage).
// Real Prosody and Chromium with fake devices, in a loopback-only network namespace; each case prints
// its figures; what is asserted is what the people see and hear, not how fast.
import { LEAVE_HOLD_MS, REJOIN_GRACE_MS } from '../../src/protocol/clientDefaults';
import { NETWORK_EVENTS } from '../../src/protocol/constants';
import { CALL_FAULTS_LAUNCH, expectCameraSeenThroughOutages, expectOutageShown, expectVideoMovedWhileOut, expectVideoStallShown, inACall, watchedSamples, watchTiles } from './call-faults';
import { callButton, callRegion, expectDecodingVideo, expectHearing, expectHearingNothing, expectSeeingAndHearing, joinCallWithCamera, LIGHT_DIRECT_SERVERS, tile } from './call-ui-people';
import { expectNeverShownUnmuted, watchConnections, watchShownMuted } from './call-watch';
import { expectAll } from './expect-all';
import { BACK_WITHIN_MS, expectOutageNoticed, outageSeen, reportFault, timeUntilBackAfterReachable, watchOutage } from './faults';
import { joinThrough, PersonalPath } from './network-cut';
import { chatLog, chatOption, expect, expectJoined, messageBox, openPanel, participantEntry, recordEventLines, recordTones, setBrowserOnline, test, uniqueRoomName, type People, type Person, type ShownLine } from './rooms-people';
import { plugIn, recordCapturedTracks, stopAtSource } from './system-stops';
import { videoGapFigure } from './video-continuity';

test.use({ parleySettings: LIGHT_DIRECT_SERVERS, launchOptions: CALL_FAULTS_LAUNCH });
// One call case at a time (beside a chat case): two calls recovering at once on two cores printed
// figures of the load, not of the recovery (back 8–13 s after the server was, where alone it is 2–5 s).
test.describe.configure({ mode: 'default' });

test.describe('Fault suite: Prosody killed mid-call — the media keeps flowing while signalling is down, everyone is back in the room and the call, a muted person stays muted', () => {
  test('two people on direct connections, Bob muted', async ({ people, parley }) => {
    test.setTimeout(240_000);
    const [alice, bob] = (await inACall(people, 'fault-call-prosody', ['Alice', 'Bob'])) as [Person, Person];
    await expectAll([expectDecodingVideo(alice.page, 'Bob'), expectDecodingVideo(bob.page, 'Alice'), expectHearing(bob.page, 'Alice')]);
    // Alice hears Bob before he mutes: the silence later is his mute, not audio that never came.
    await expectHearing(alice.page, 'Bob');
    await callButton(bob.page, 'Mute microphone').click();
    await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
    // Listed or shown, through the outage (the list as it was) and once back: always muted.
    await watchShownMuted(alice.page, 'Bob', false);
    await watchTiles([alice, bob]);
    const pages = [alice.page, bob.page];
    // Watched from inside the pages: the supervisor's restart can end the outage before a look would find it.
    for (const page of pages) await watchOutage(page);

    const killedAt = Date.now();
    process.kill(parley.xmpp.pid!, 'SIGKILL');
    await test.step('both tabs say the connection is lost; the supervisor restarts Prosody; both rejoin the room', async () => {
      for (const page of pages) await expectOutageNoticed(page);
    });
    const back = await timeUntilBackAfterReachable(pages, killedAt, () => parley.xmppUpSince);
    const reachableAt = killedAt + back.afterFault - back.afterReachable;
    await expect(callButton(alice.page, 'Hang up')).toBeVisible();
    await expect(callButton(bob.page, 'Hang up')).toBeVisible();
    await expectAll([expectDecodingVideo(alice.page, 'Bob'), expectDecodingVideo(bob.page, 'Alice'), expectHearing(bob.page, 'Alice')]);
    const backInCallMs = Date.now() - killedAt;
    const watched = await watchedSamples([alice, bob]);
    reportFault('Prosody killed mid-call (mesh)', [
      `every tab back in its room ${back.afterFault} ms and its call ${backInCallMs} ms after the kill`,
      `back ${back.afterReachable} ms after the server was reachable again (call and video checked ${Date.now() - reachableAt} ms after)`,
      videoGapFigure(watched, killedAt),
    ]);

    // The tiles never went away while signalling was down: each kept showing the other's video.
    for (const { pair, samples } of watched) expect(samples.filter((sample) => sample.shown === undefined), `${pair}: moments without the video`).toEqual([]);
    // One video element throughout: the media that flowed before the kill is the media that flows now.
    for (const { pair, samples } of watched) expect(new Set(samples.map((sample) => sample.shown)).size, `${pair}: videos shown`).toBe(1);
    // And it kept moving while each page was out of its room. (The supervisor has Prosody back
    // within a second or so, before the tabs' first reconnect: the page's own outage is the time
    // without signalling.)
    await expectVideoMovedWhileOut([alice, bob]);
    await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
    await expectNeverShownUnmuted(alice.page, 'Bob');
    await expectHearingNothing(alice.page, 'Bob');
    // Through the outage the People list showed who was there when it began, both of them.
    for (const page of pages) {
      const seen = await outageSeen(page);
      expect(seen.filter((moment) => [...moment.people].sort().join() !== 'Alice,Bob').map((moment) => moment.people)).toEqual([]);
    }
  });
});

for (const change of ['unmutes', 'mutes'] as const) {
  const mutedBefore = change === 'unmutes';
  test.describe(`Fault suite: someone who ${change} while the chat server is down — once back, everyone has them as they are now (${mutedBefore ? 'heard' : 'muted, never heard'}), the people list too`, () => {
    // Muting, Bob uses the keys in his pop-out chat: the call's tab is asked through the session, which the outage does not touch.
    test(`Prosody down, Bob ${change}${mutedBefore ? '' : ' from his pop-out chat'}, Prosody back`, async ({ people, parley }) => {
      test.setTimeout(240_000);
      const [alice, bob] = (await inACall(people, `fault-call-${change}`, ['Alice', 'Bob'])) as [Person, Person];
      await expectSeeingAndHearing(alice.page, 'Bob');
      if (mutedBefore) {
        await callButton(bob.page, 'Mute microphone').click();
        await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
      }
      const popout = mutedBefore ? undefined : await bob.context.newPage();
      await popout?.goto(`${bob.page.url()}?view=chat`);
      if (popout) await expectJoined(popout);
      await parley.killXmpp();
      const pages = [alice.page, bob.page];
      await expectOutageShown(pages);
      if (popout) {
        const controls = popout.getByRole('group', { name: 'Your call' });
        await expect(controls.getByRole('button', { name: 'Mute microphone', exact: true })).toBeVisible();
        await messageBox(popout).press('Control+d');
        await expect(controls.getByRole('button', { name: 'Unmute microphone', exact: true })).toBeVisible();
      } else {
        await callButton(bob.page, 'Unmute microphone').click();
      }
      await expect(callButton(bob.page, mutedBefore ? 'Mute microphone' : 'Unmute microphone')).toBeVisible();
      const restartedAt = Date.now();
      await parley.restartXmpp();
      const back = await timeUntilBackAfterReachable(pages, restartedAt, () => parley.xmppUpSince);
      const reachableAt = restartedAt + back.afterFault - back.afterReachable;
      if (mutedBefore) {
        await expectHearing(alice.page, 'Bob');
        await expect(participantEntry(alice.page, 'Bob')).not.toContainText('muted');
      } else {
        await expect(participantEntry(alice.page, 'Bob')).toContainText('muted', { timeout: BACK_WITHIN_MS });
        await expect(tile(alice.page, 'Bob')).toContainText('muted');
        await expectHearingNothing(alice.page, 'Bob');
      }
      const shownMs = Date.now() - reachableAt;
      await expectDecodingVideo(alice.page, 'Bob');
      reportFault(`Bob ${change} while Prosody is down`, [
        `every tab back in its room ${back.afterReachable} ms after the server was reachable again`,
        `${mutedBefore ? 'Alice hears Bob, listed unmuted' : 'Alice has Bob muted, list and tile'} ${shownMs} ms after`,
      ]);
    });
  });
}

test.describe('Fault suite: someone who turns their camera off, or on, while the chat server is down — the others see them without video, or with it, as they do normally, and once back too', () => {
  test('Prosody down, Bob stops his camera, Prosody back, he starts it again; he stops it, Prosody down, he starts it, Prosody back', async ({ people, parley }) => {
    test.setTimeout(240_000);
    const [alice, bob] = (await inACall(people, 'fault-call-camera-off', ['Alice', 'Bob'])) as [Person, Person];
    await expectDecodingVideo(alice.page, 'Bob');
    reportFault('Bob turns his camera off, then on, while Prosody is down', await expectCameraSeenThroughOutages(parley, [alice, bob], bob));
  });
});

test.describe('Fault suite: someone who starts sharing their screen while the chat server is down — once back, everyone sees it, and the camera never stopped', () => {
  test('Prosody down, Alice starts sharing her screen, Prosody back', async ({ people, parley }) => {
    test.setTimeout(240_000);
    const [alice, bob] = (await inACall(people, 'fault-call-screen', ['Alice', 'Bob'])) as [Person, Person];
    await expectDecodingVideo(bob.page, 'Alice');
    await watchTiles([alice, bob]);
    const pages = [alice.page, bob.page];
    for (const page of pages) await watchOutage(page);
    await parley.killXmpp();
    await expectOutageShown(pages);
    await callButton(alice.page, 'Start Screenshare').click();
    await expect(tile(alice.page, 'Your screen')).toBeVisible();
    const restartedAt = Date.now();
    await parley.restartXmpp();
    const back = await timeUntilBackAfterReachable(pages, restartedAt, () => parley.xmppUpSince);
    const reachableAt = restartedAt + back.afterFault - back.afterReachable;
    await expectDecodingVideo(bob.page, "Alice's screen");
    const shownMs = Date.now() - reachableAt;
    await expect(participantEntry(bob.page, 'Alice')).toContainText('sharing screen');
    await expectDecodingVideo(bob.page, 'Alice');
    // Sharing the screen left the cameras' sessions as they were: one video each throughout, and it
    // kept moving while the pages were out of the room.
    for (const { pair, samples } of await watchedSamples([alice, bob])) {
      expect(samples.filter((sample) => sample.shown === undefined), `${pair}: moments without the video`).toEqual([]);
      expect(new Set(samples.map((sample) => sample.shown)).size, `${pair}: videos shown`).toBe(1);
    }
    await expectVideoMovedWhileOut([alice, bob]);
    reportFault('Alice starts sharing her screen while Prosody is down', [
      `every tab back in its room ${back.afterReachable} ms after the server was reachable again`,
      `Bob sees her screen ${shownMs} ms after`,
    ]);
  });
});

test.describe('Fault suite: someone who reloads their call tab while the chat server is down — once back, the others see them once: no tile left behind from before the reload', () => {
  test('Prosody down, Bob reloads, Prosody back, Bob is back in the call by himself', async ({ people, parley }) => {
    test.setTimeout(240_000);
    const [alice, bob] = (await inACall(people, 'fault-call-reload', ['Alice', 'Bob'])) as [Person, Person];
    await expectDecodingVideo(alice.page, 'Bob');
    await parley.killXmpp();
    const pages = [alice.page, bob.page];
    await expectOutageShown(pages);
    // A new page, a new session: Bob comes back under another address, his old connections go quiet.
    await bob.page.reload();
    const restartedAt = Date.now();
    await parley.restartXmpp();
    const back = await timeUntilBackAfterReachable(pages, restartedAt, () => parley.xmppUpSince);
    const backAt = restartedAt + back.afterFault;
    // His page went while it ran the call: the page after it joins the call again as its room is back.
    await expect(callRegion(bob.page).locator('.call-handover')).toContainText("You're back in the call");
    await expectDecodingVideo(bob.page, 'Alice');
    // Bob's old tile goes once its sessions have ended (their ICE quiet for 5 s), not REJOIN_GRACE_MS after Alice's rejoin.
    await expect(tile(alice.page, 'Bob')).toHaveCount(1, { timeout: Math.max(0, backAt + REJOIN_GRACE_MS - 10_000 - Date.now()) });
    const oneBobMs = Date.now() - backAt;
    await expectDecodingVideo(alice.page, 'Bob');
    reportFault('Bob reloads while Prosody is down', [
      `every tab back in its room ${back.afterReachable} ms after the server was reachable again`,
      `Alice shows one Bob, in the call again, ${oneBobMs} ms after she was back`,
    ]);
  });
});

test.describe('Fault suite: Alice’s network dies without a word mid-call — she notices, comes back into the room and the call once it returns, and hears Bob as he is now; their media never stopped, so neither loses the other’s video', () => {
  test('silent cut of Alice’s path for 30 s; Bob unmutes meanwhile', async ({ people, browser, parley }) => {
    test.setTimeout(240_000);
    const path = new PersonalPath(parley.url);
    let alice: Person | undefined;
    try {
      const room = uniqueRoomName('fault-call-silent');
      alice = await joinThrough(browser, path, room, 'Alice');
      const bob = await people.join(room, 'Bob');
      await joinCallWithCamera(alice.page, 0);
      await joinCallWithCamera(bob.page, 1);
      await expectAll([expectDecodingVideo(alice.page, 'Bob'), expectDecodingVideo(bob.page, 'Alice')]);
      await callButton(bob.page, 'Mute microphone').click();
      await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
      await openPanel(bob.page, 'Chat');
      await (await chatOption(bob.page, 'Sounds')).check();
      const bobHears = await recordTones(bob.page);
      await watchTiles([alice, bob]);

      const cutAt = Date.now();
      path.cut('silent');
      await callButton(bob.page, 'Unmute microphone').click();
      await expect(alice.page.getByRole('status', { name: 'Room state' })).toContainText('The connection stopped answering', { timeout: BACK_WITHIN_MS });
      const noticedMs = Date.now() - cutAt;
      await alice.page.waitForTimeout(Math.max(0, cutAt + 30_000 - Date.now()));
      path.restore();
      const reachableAt = Date.now();
      const back = await timeUntilBackAfterReachable([alice.page, bob.page], reachableAt, () => reachableAt);
      await expect(callButton(alice.page, 'Hang up')).toBeVisible();
      await expectHearing(alice.page, 'Bob');
      await expect(participantEntry(alice.page, 'Bob')).not.toContainText('muted');
      const heardMs = Date.now() - reachableAt;
      await expectAll([expectDecodingVideo(alice.page, 'Bob'), expectDecodingVideo(bob.page, 'Alice')]);
      const watched = await watchedSamples([alice, bob]);
      reportFault('Alice’s network dead without a word mid-call, 30 s', [
        `noticed ${noticedMs} ms after the cut`,
        `every tab back in its room ${back.afterReachable} ms after the network was back`,
        `Alice hears Bob, listed unmuted, ${heardMs} ms after`,
        videoGapFigure(watched, cutAt),
      ]);
      // The server ended Alice's silent connection as her new one took its place, so Bob's room said
      // she left and came back at once: his chat says she reconnected, not that she left and joined,
      // and with sounds on he heard neither a leave nor a join. (Here both reach his tab together; a
      // return a moment after the leave is LeaveHold's, shown in tests/unit/alerts-leave-hold.test.ts.)
      // Her media never went through the server and never stopped, so Bob's call kept her
      // (DepartureHold): both tiles stayed, each on the one video element it had.
      await expect(chatLog(bob.page)).toContainText('Alice reconnected');
      await expect(chatLog(bob.page)).not.toContainText(/Alice (left|joined)/);
      await bob.page.waitForTimeout(LEAVE_HOLD_MS);
      expect(await bobHears(), 'tones Bob heard').toEqual([]);
      for (const { pair, samples } of watched) expect(samples.filter((sample) => sample.shown === undefined), `${pair}: moments without the video`).toEqual([]);
      for (const { pair, samples } of watched) expect(new Set(samples.map((sample) => sample.shown)).size, `${pair}: videos shown`).toBe(1);
      // Her tab closed is a leave, and he hears it.
      await alice.context.close();
      await expect(chatLog(bob.page)).toContainText('Alice left');
      await expect.poll(bobHears).toEqual([880, 660]);
    } finally {
      await alice?.context.close();
      path.close();
    }
  });
});

test.describe('Fault suite: Alice’s browser offline a few seconds mid-call — her session lets the chat server go, her media still reaches Bob, so his call, the people list of every tab of his and his chat keep her, marked reconnecting, until she is back, and he neither hears nor reads of a leave', () => {
  test('Alice offline 7 s (her session disconnects after NETWORK_EVENTS.offlineDisconnectDelayMs), two people on direct connections', async ({ people }) => {
    test.setTimeout(120_000);
    const room = uniqueRoomName('fault-call-offline');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    await joinCallWithCamera(alice.page, 0);
    await joinCallWithCamera(bob.page, 1);
    await expectAll([expectDecodingVideo(alice.page, 'Bob'), expectDecodingVideo(bob.page, 'Alice')]);
    await openPanel(bob.page, 'Chat');
    await (await chatOption(bob.page, 'Sounds')).check();
    const bobHears = await recordTones(bob.page);
    const bobReads = await recordEventLines(bob.page);
    // Bob's pop-out chat has no call of its own: it knows whom his call keeps from the session.
    const bobChat = await bob.context.newPage();
    await bobChat.goto(`${bob.page.url()}?view=chat`);
    await expectJoined(bobChat);
    const bobChatReads = await recordEventLines(bobChat);
    await openPanel(bob.page, 'People');
    // A second room tab of Bob's shows his call running elsewhere: its list, too, keeps whom that call
    // keeps, from the call record's people as the session last knew them (a tab opened only after she
    // left reads the same record: participants-list.test.ts).
    const bobSecondTab = await bob.context.newPage();
    await bobSecondTab.goto(bob.page.url());
    await expectJoined(bobSecondTab);
    await openPanel(bobSecondTab, 'People');
    await watchTiles([alice, bob]);

    const offlineAt = Date.now();
    await setBrowserOnline(alice.context, false);
    // Her session lets its connection go 5 s on (SPEC §7), and the room tells Bob she left; her media
    // goes on reaching him, so he keeps her tile (DepartureHold), and his list keeps her with it.
    await expect(participantEntry(bob.page, 'Alice')).toContainText('reconnecting', { timeout: NETWORK_EVENTS.offlineDisconnectDelayMs + 5_000 });
    const heldAt = Date.now();
    // Nobody can kick her, or ask for her attention, while the room does not have her.
    await expect(participantEntry(bob.page, 'Alice').getByRole('button')).toHaveCount(0);
    // His chat says so too: her leave's line reads as a reconnection while his call keeps her.
    await expect(chatLog(bob.page)).toContainText('Alice is reconnecting…');
    await expect(chatLog(bobChat)).toContainText('Alice is reconnecting…');
    await expect(participantEntry(bobSecondTab, 'Alice')).toContainText('reconnecting');
    await alice.page.waitForTimeout(Math.max(0, offlineAt + 7_000 - Date.now()));
    await setBrowserOnline(alice.context, true);
    const onlineAt = Date.now();
    await expect(participantEntry(bob.page, 'Alice')).not.toContainText('reconnecting', { timeout: BACK_WITHIN_MS });
    const backMs = Date.now() - onlineAt;
    await expect(participantEntry(bob.page, 'Alice').getByRole('button', { name: 'Request attention from Alice' })).toBeVisible();
    await expect(participantEntry(bobSecondTab, 'Alice')).not.toContainText('reconnecting');
    await expectAll([expectDecodingVideo(bob.page, 'Alice'), expectDecodingVideo(alice.page, 'Bob')]);
    const watched = await watchedSamples([alice, bob]);
    await openPanel(bob.page, 'Chat');
    await expect(chatLog(bob.page)).toContainText('Alice reconnected');
    await expect(chatLog(bobChat)).toContainText('Alice reconnected');
    const aboutAlice = (lines: readonly ShownLine[]) => lines.filter((line) => line.text.includes('Alice'));
    // The pop-out hears whom the call keeps from the call's tab, through the session: her leave may
    // show there for that moment before it reads as a reconnection.
    const popOutLines = aboutAlice(await bobChatReads());
    const popOutLeave = popOutLines.find((line) => line.text === 'Alice left');
    const leaveShownMs = popOutLeave ? `${((popOutLeave.goneAt ?? Infinity) - popOutLeave.shownAt).toFixed(1)} ms` : 'never';
    reportFault('Alice’s browser offline 7 s mid-call', [
      `Bob lists her as reconnecting ${heldAt - offlineAt} ms after she went offline`,
      `listed as back ${backMs} ms after she was online`,
      `his pop-out chat showed her leave ${leaveShownMs}`,
      videoGapFigure(watched, offlineAt),
    ]);
    // She was back 2 s or more after the room said she left, all the while in his call: with sounds
    // on, Bob heard no leave (LeaveHold waits while the call keeps her).
    expect(await bobHears(), 'tones Bob heard').toEqual([]);
    // Nor did his chat ever say she left: her line went from reconnecting to reconnected.
    expect(aboutAlice(await bobReads()).map((line) => line.text), 'the lines about Alice that Bob\'s chat showed').toEqual(['Alice is reconnecting…', 'Alice reconnected']);
    // His pop-out read the same, its leave line (if shown at all) gone as the reconnecting one came.
    const popOutRest = popOutLines.filter((line) => line !== popOutLeave);
    expect(popOutRest.map((line) => line.text), 'the lines about Alice that Bob\'s pop-out chat showed').toEqual(['Alice is reconnecting…', 'Alice reconnected']);
    if (popOutLeave) expect(popOutLeave.goneAt, 'when her leave went from the pop-out').toBeLessThanOrEqual(popOutRest[0]!.shownAt);
    for (const { pair, samples } of watched) {
      // Watched all through her 7 s away: an empty watch would say nothing.
      expect(samples.length, `${pair}: samples`).toBeGreaterThan(10);
      expect(samples.filter((sample) => sample.shown === undefined), `${pair}: moments without the video`).toEqual([]);
    }
  });
});

test.describe('A person whose video stalls on the way, their connection up: their tile says so and dims its last frame, and both go once the video moves again (beyond the spec)', () => {
  test('two people on direct connections; for a while the packets of Alice’s video to Bob are lost, not her audio’s', async ({ people }) => {
    test.setTimeout(120_000);
    const room = uniqueRoomName('video-stall');
    const alice = await people.join(room, 'Alice');
    const bob = await people.join(room, 'Bob');
    await alice.page.evaluate(watchConnections);
    await joinCallWithCamera(alice.page, 0);
    await joinCallWithCamera(bob.page, 1);
    await expectAll([expectDecodingVideo(bob.page, 'Alice'), expectDecodingVideo(alice.page, 'Bob'), expectHearing(bob.page, 'Alice')]);
    await expectVideoStallShown(alice, [bob]);
  });
});

/** Alice and Bob in a call, each with a camera of their own, Alice's tracks recorded for the test to act on as her system (system-stops.ts). */
async function aliceWhoseDevicesTheTestActsOn(people: People, roomPrefix: string): Promise<{ alice: Person; bob: Person }> {
  const room = uniqueRoomName(roomPrefix);
  const alice = await people.join(room, 'Alice');
  const bob = await people.join(room, 'Bob');
  await recordCapturedTracks(alice);
  await joinCallWithCamera(alice.page, 0);
  await joinCallWithCamera(bob.page, 1);
  await expectAll([expectDecodingVideo(bob.page, 'Alice'), expectHearing(bob.page, 'Alice')]);
  return { alice, bob };
}

test.describe('A camera and microphone the system stops mid-call: the person is told in plain words, with "Try again" (and in their pop-out chat); the others see the camera off and the person muted, never a stalled picture; each comes back by itself (given back, or plugged back in), or on "Try again" (beyond the spec)', () => {
  test('two people on direct connections; Alice’s system stops her camera, then her microphone; it gives the camera back; "Try again" captures the microphone anew', async ({ people }) => {
    test.setTimeout(120_000);
    const { alice, bob } = await aliceWhoseDevicesTheTestActsOn(people, 'device-stopped');
    const notice = alice.page.locator('.call-device-stopped');
    const aliceSeenByBob = tile(bob.page, 'Alice');
    // Her pop-out chat says it too, beside the toggles that show what the others get.
    const popout = await alice.context.newPage();
    await popout.goto(`${alice.page.url()}?view=chat`);
    await expectJoined(popout);
    const popoutSays = popout.getByRole('group', { name: 'Your call' }).locator('.own-media-stopped');

    await stopAtSource(alice.page, 'video', true);
    await expect(notice).toHaveText(/^Your camera stopped: your system paused it, or another app is using it\. Until it is back, the others see your camera off\./);
    await expect(aliceSeenByBob.locator('video'), 'Bob sees her camera off').toHaveCount(0);
    await expect(aliceSeenByBob).not.toContainText('Video paused: poor connection');
    await expect(tile(alice.page, 'Alice (you)').locator('video'), 'she sees herself as the others do').toHaveCount(0);
    await expect(callButton(alice.page, 'Stop camera'), 'her camera stays on by her word').toBeVisible();
    await expect(popoutSays).toHaveText('Your camera stopped: your system paused it, or another app is using it. Until it is back, the others see your camera off. Turn it on here to try again.');

    await stopAtSource(alice.page, 'audio', true);
    await expect(notice).toHaveText(/^Your camera and microphone stopped: .* Until they are back, the others neither see nor hear you\./);
    await expect(aliceSeenByBob.locator('.tile-muted'), 'Bob sees her muted').toBeVisible();
    await expect(participantEntry(bob.page, 'Alice')).toContainText('muted');
    await expect(popoutSays).toHaveText(/^Your camera and microphone stopped: .* Turn them on here to try again\.$/);

    await stopAtSource(alice.page, 'video', false);
    await expectDecodingVideo(bob.page, 'Alice');
    await expect(notice).toHaveText(/^Your microphone stopped: your system muted it, or another app is using it\. Until it is back, the others cannot hear you\./);
    await expect(popoutSays).toHaveText(/^Your microphone stopped: .* Turn it on here to try again\.$/);

    await notice.getByRole('button', { name: 'Try again' }).click();
    await expect(notice).toHaveCount(0);
    await expect(aliceSeenByBob.locator('.tile-muted'), 'Bob sees her unmuted').toHaveCount(0);
    await expectAll([expectHearing(bob.page, 'Alice'), expectDecodingVideo(bob.page, 'Alice')]);
    await expect(callButton(alice.page, 'Mute microphone'), 'her microphone is on').toBeVisible();
    await expect(popoutSays).toHaveCount(0);
  });

  test('two people on direct connections; Alice’s camera is unplugged mid-call, said, and comes back by itself when it is plugged back in', async ({ people }) => {
    const { alice, bob } = await aliceWhoseDevicesTheTestActsOn(people, 'device-unplugged');

    await plugIn(alice.page, 'video', false);
    await expect(alice.page.getByRole('alert')).toContainText('Your camera stopped — it may have been unplugged. Plugged back in, it comes back by itself; or pick another and turn it on.');
    await expect(tile(bob.page, 'Alice').locator('video'), 'Bob sees her camera off').toHaveCount(0);
    await expect(callButton(alice.page, 'Start camera')).toHaveAccessibleDescription(/^Your camera stopped/);

    await plugIn(alice.page, 'video', true);
    await expectDecodingVideo(bob.page, 'Alice');
    await expect(alice.page.getByRole('alert')).toHaveCount(0);
    await expect(callButton(alice.page, 'Stop camera'), 'her camera is on again, with nothing said of it').not.toHaveAttribute('aria-describedby');
    await expectHearing(bob.page, 'Alice');
  });
});
