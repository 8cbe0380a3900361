import type { Page } from '@playwright/test';
import { callButton, callRegion, joinCall, LIGHT_VIDEO_TIERS, playbackVolume, tile } from './call-ui-people';
import { expect, participantEntry, test, uniqueRoomName, type People } from './rooms-people';

// Over mesh, as tests/e2e/call-ui.spec.ts.
test.use({ parleySettings: { relayWorkers: 0, videoResolutionTiers: LIGHT_VIDEO_TIERS } });

/**
 * Issue 13 "Call state that survives a handover", through the real app in Chromium against real
 * Prosody: Bob has two tabs of one browser (one shared worker), Alice a browser of her own. Bob's
 * call tab goes away — closed, or its renderer crashed — and the call moves to his other tab, which
 * must start muted with the camera off and say so; Alice must never see Bob unmuted meanwhile.
 * Run it in a loopback-only network namespace (see README "Tests").
 */

/**
 * In every tab of Bob's browser: remembers each RTCPeerConnection, and notes whenever an audio
 * track it sends is enabled (checked as it is added and every 20 ms) — a muted microphone must
 * never be, not even for a moment.
 */
function watchSentAudio(): void {
  const connections: RTCPeerConnection[] = [];
  const state = { liveAudioSent: 0, audioSenders: 0 };
  Object.assign(window, { parleyHandoverWatch: state });
  const Original = window.RTCPeerConnection;
  const note = (track: MediaStreamTrack | null | undefined) => {
    if (track?.kind === 'audio' && track.enabled) state.liveAudioSent += 1;
  };
  const addTrack = Original.prototype.addTrack;
  Original.prototype.addTrack = function (this: RTCPeerConnection, track: MediaStreamTrack, ...streams: MediaStream[]) {
    note(track);
    return addTrack.call(this, track, ...streams);
  };
  const addTransceiver = Original.prototype.addTransceiver;
  Original.prototype.addTransceiver = function (this: RTCPeerConnection, trackOrKind: MediaStreamTrack | string, init?: RTCRtpTransceiverInit) {
    if (typeof trackOrKind !== 'string') note(trackOrKind);
    return addTransceiver.call(this, trackOrKind, init);
  };
  window.RTCPeerConnection = class extends Original {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      connections.push(this);
    }
  } as typeof RTCPeerConnection;
  setInterval(() => {
    const senders = connections.filter((connection) => connection.connectionState !== 'closed').flatMap((connection) => connection.getSenders());
    const audio = senders.filter((sender) => sender.track?.kind === 'audio');
    state.audioSenders = audio.length;
    for (const sender of audio) note(sender.track);
  }, 20);
}

/** In Alice's tab: notes every moment her Participants list shows Bob without "muted", from now on. */
async function watchBobShownMuted(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = { unmutedSeen: 0, checks: 0 };
    Object.assign(window, { parleyBobMutedWatch: state });
    setInterval(() => {
      const entries = [...document.querySelectorAll('[aria-label="Participants"] li')];
      const bob = entries.find((entry) => entry.querySelector('.participant-name')?.textContent === 'Bob');
      state.checks += 1;
      // Bob is in the room throughout (his shared worker keeps the session); absent counts too.
      if (!bob?.textContent?.includes('muted')) state.unmutedSeen += 1;
    }, 20);
  });
}

async function bobMutedWatch(page: Page): Promise<{ unmutedSeen: number; checks: number }> {
  return page.evaluate(() => (window as unknown as { parleyBobMutedWatch: { unmutedSeen: number; checks: number } }).parleyBobMutedWatch);
}

async function sentAudioWatch(page: Page): Promise<{ liveAudioSent: number; audioSenders: number }> {
  return page.evaluate(() => (window as unknown as { parleyHandoverWatch: { liveAudioSent: number; audioSenders: number } }).parleyHandoverWatch);
}

type TabGone = (page: Page) => Promise<void>;

const closeTab: TabGone = (page) => page.close();

async function handoverCase(people: People, label: string, goAway: TabGone): Promise<void> {
  test.setTimeout(150_000);
  const room = uniqueRoomName(`handover-${label}`);
  const alice = await people.join(room, 'Alice');
  const bob = await people.join(room, 'Bob');
  await bob.context.addInitScript(watchSentAudio);
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

  await watchBobShownMuted(alice.page);
  const started = Date.now();
  await test.step(`Bob’s call tab is ${label}`, () => goAway(bobCallTab));

  await test.step('the call resumes in his other tab, muted with the camera off, and the tab says the call moved', async () => {
    await expect(callRegion(bobOtherTab).getByText('Your call moved to this tab', { exact: false })).toBeVisible({ timeout: 30_000 });
    test.info().annotations.push({ type: 'figure', description: `call back in the other tab ${Date.now() - started} ms after the tab was ${label}` });
    console.log(`[handover] ${label}: call back in Bob's other tab ${Date.now() - started} ms after the tab went away`);
    await expect(callRegion(bobOtherTab).getByText("Your call moved to this tab — you're muted and your camera is off.")).toBeVisible();
    await expect(callButton(bobOtherTab, 'Unmute microphone')).toBeVisible();
    await expect(callButton(bobOtherTab, 'Start camera')).toBeVisible();
    await expect.poll(() => playbackVolume(bobOtherTab, 'Alice'), { timeout: 30_000 }).toBeCloseTo(0.3);
  });

  await test.step('Alice gets Bob’s audio again, and never saw him unmuted; his tab never sent a live microphone', async () => {
    await expect.poll(async () => (await sentAudioWatch(bobOtherTab)).audioSenders, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
    const seen = await bobMutedWatch(alice.page);
    expect(seen.checks).toBeGreaterThan(0);
    expect(seen.unmutedSeen).toBe(0);
    expect((await sentAudioWatch(bobOtherTab)).liveAudioSent).toBe(0);
  });

  await test.step('unmuting in the new tab works as ever', async () => {
    await callButton(bobOtherTab, 'Unmute microphone').click();
    await expect(participantEntry(alice.page, 'Bob')).not.toContainText('muted', { timeout: 30_000 });
  });
}

test.describe('Call state that survives a handover (issue 13): mute, camera off and volumes move with the call', () => {
  test('Bob’s call tab is closed: his other tab takes the call over muted, camera off, and says so', async ({ people }) => {
    await handoverCase(people, 'closed', closeTab);
  });
});
