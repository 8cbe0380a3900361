import type { Page } from '@playwright/test';
import { callButton, callRegion, joinCall, playbackVolume, tile } from './call-ui-people';
import { expectNeverShownUnmuted, sentAudioWatch, watchConnections, watchShownMuted } from './call-watch';
import { expect, participantEntry, test, uniqueRoomName, type People } from './rooms-people';

/**
 * Issue 13 "Call state that survives a handover", through the real app in Chromium against real
 * Prosody: Bob has two tabs of one browser (one shared worker), Alice a browser of her own. Bob's
 * call tab goes away — closed or left with "Move call here" in the other tab (call-handover.spec),
 * or its renderer crashed (faults-call.spec) — and the call moves to his other tab, which must
 * start muted with the camera off and say so; Alice
 * must never see Bob unmuted meanwhile, and his tabs never send a live microphone.
 */

/** How the call leaves Bob's call tab (`callTab`) for his other tab (`otherTab`). */
export type TabGone = (callTab: Page, otherTab: Page) => Promise<void>;

/** Runs the handover; resolves with the milliseconds from the tab going away until the other tab said the call moved. */
export async function handoverCase(people: People, label: string, goAway: TabGone): Promise<number> {
  test.setTimeout(150_000);
  const room = uniqueRoomName(`handover-${label}`);
  const alice = await people.join(room, 'Alice');
  const bob = await people.join(room, 'Bob');
  await bob.context.addInitScript(watchConnections);
  // The call runs in a tab opened later than the one that started Bob's shared worker.
  const bobCallTab = await bob.context.newPage();
  await bobCallTab.goto(bob.page.url());
  await joinCall(alice.page);
  await joinCall(bobCallTab);

  const bobOtherTab = bob.page;
  await test.step('Bob’s other tab shows that the call runs in his call tab', async () => {
    // Reloaded, so that it runs the watch too.
    await bobOtherTab.reload();
    await expect(callRegion(bobOtherTab)).toContainText('You are in this call in another tab of this browser.');
  });

  await test.step('in his call tab Bob mutes, turns his camera off and sets Alice’s volume', async () => {
    await expect(tile(bobCallTab, 'Alice').getByRole('slider', { name: 'Volume of Alice' })).toBeVisible({ timeout: 30_000 });
    await callButton(bobCallTab, 'Mute microphone').click();
    await callButton(bobCallTab, 'Stop camera').click();
    await tile(bobCallTab, 'Alice').getByRole('slider', { name: 'Volume of Alice' }).fill('0.3');
    await expect(participantEntry(alice.page, 'Bob')).toContainText('muted', { timeout: 30_000 });
    await expect(callButton(bobCallTab, 'Start camera')).toBeVisible();
  });

  // Bob is in the room throughout (his shared worker keeps the session): not listed counts as live.
  await watchShownMuted(alice.page, 'Bob', true);
  const started = Date.now();
  await test.step(`Bob’s call tab is ${label}`, () => goAway(bobCallTab, bobOtherTab));

  let movedMs = 0;
  await test.step('the call resumes in his other tab, muted with the camera off, and the tab says the call moved', async () => {
    await expect(callRegion(bobOtherTab).getByText('Your call moved to this tab', { exact: false })).toBeVisible({ timeout: 30_000 });
    movedMs = Date.now() - started;
    test.info().annotations.push({ type: 'figure', description: `call back in the other tab ${movedMs} ms after the tab was ${label}` });
    await expect(callRegion(bobOtherTab).getByText("Your call moved to this tab — you're muted and your camera is off.")).toBeVisible();
    await expect(callButton(bobOtherTab, 'Unmute microphone')).toBeVisible();
    await expect(callButton(bobOtherTab, 'Start camera')).toBeVisible();
    // Until Alice's session reaches the new tab there is no <audio> to read: keep looking, as long as the poll allows.
    await expect.poll(() => playbackVolume(bobOtherTab, 'Alice').catch(() => undefined), { timeout: 30_000 }).toBeCloseTo(0.3);
  });

  await test.step('Alice gets Bob’s audio again, and never saw him unmuted; his tab never sent a live microphone', async () => {
    await expect.poll(async () => (await sentAudioWatch(bobOtherTab)).audioSenders, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
    await expectNeverShownUnmuted(alice.page, 'Bob');
    expect((await sentAudioWatch(bobOtherTab)).liveAudioSent).toBe(0);
  });

  await test.step('unmuting in the new tab works as ever', async () => {
    await callButton(bobOtherTab, 'Unmute microphone').click();
    await expect(participantEntry(alice.page, 'Bob')).not.toContainText('muted', { timeout: 30_000 });
    // The watch that saw no live microphone before sees this one.
    await expect.poll(async () => (await sentAudioWatch(bobOtherTab)).liveAudioSent).toBeGreaterThan(0);
  });
  return movedMs;
}
