import type { BrowserContext, Locator, Page } from '@playwright/test';
import { FAKE_CAMERAS } from '../../playwright.config';
import type { ParleySettings } from '../../server/settings';
import { SCREEN_SOUND_BITRATE_BPS } from '../../src/protocol/clientDefaults';
import { VIDEO_RESOLUTION_TIERS } from '../../src/protocol/constants';
import { sentAudioFormats, stereoAnswers } from './call-watch';
import { expectAll, expectOfEveryPair } from './expect-all';
import { expect, participantEntry, type Person } from './rooms-people';

/**
 * The call as a person sees it in the room page, found by role and accessible name (DESIGN "Run
 * contract"). Media checks read the tiles' own <video> and <audio> elements: what the page shows
 * and plays, not the engine's bookkeeping.
 */

/**
 * SPEC §9's tier sizes at 10 fps, for servers under test (PARLEY_VIDEO_RESOLUTION_TIERS): the same
 * layouts and relay layers at a fraction of the encoding work, so that calls in parallel test
 * workers on two cores do not starve each other's encoders. Files about the chat and the room use
 * them too: every room page shows its camera's preview, and headless Chromium composites it in
 * software — measured, two idle room pages kept 1.4 cores busy at the fake camera's 20 fps, 1.0 at
 * 10 fps and 0.45 with the previews hidden.
 */
export const LIGHT_VIDEO_TIERS = Object.fromEntries(Object.entries(VIDEO_RESOLUTION_TIERS).map(([peers, tier]) => [peers, { ...tier, frameRate: 10 }]));

/** Servers for files whose calls stay direct and for those about the chat and the room: no relay to start, LIGHT_VIDEO_TIERS. */
export const LIGHT_DIRECT_SERVERS: Partial<ParleySettings> = { relayWorkers: 0, videoResolutionTiers: LIGHT_VIDEO_TIERS };

export function callRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Call' });
}

/** A tile of the call grid: "Bob", "Alice (you)", "Alice's screen", "Your screen". */
export function tile(page: Page, name: string): Locator {
  return callRegion(page).getByRole('figure', { name, exact: true });
}

/** The area of the element's box on screen, in CSS pixels; 0 while it has none. */
export async function areaOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  return box ? box.width * box.height : 0;
}

/** The width of the frames the tile's <video> shows; 0 while it has none. */
export async function shownWidth(page: Page, tileName: string): Promise<number> {
  const video = tile(page, tileName).locator('video');
  if ((await video.count()) === 0) return 0;
  return video.evaluate((element: HTMLVideoElement) => element.videoWidth, undefined, { timeout: 10_000 }).catch(() => 0);
}

export function callButton(page: Page, name: string): Locator {
  return callRegion(page).getByRole('button', { name, exact: true });
}

/** From the preview: "Join call", then wait until the call's controls are there. */
export async function joinCall(page: Page): Promise<void> {
  await callButton(page, 'Join call').click();
  await expect(callButton(page, 'Hang up')).toBeVisible();
}

/** How the call's media travels, as "Call details" says: "Direct connections", "Through the media relay". */
export function mediaPath(page: Page) {
  return callRegion(page).getByRole('status', { name: 'Media path' });
}

/** "Call details" shows how the call's media travel (`mediaPath`, each tile's path); it stays open while the person is in the call. */
export async function openCallDetails(page: Page): Promise<void> {
  const details = callButton(page, 'Call details');
  await details.click();
  await expect(details).toHaveAttribute('aria-expanded', 'true');
}

/**
 * From the preview, the person picks a camera of their own (playwright.config FAKE_CAMERAS) — at
 * once, while the preview's camera may still be starting — joins the call and opens "Call details".
 */
export async function joinCallWithCamera(page: Page, camera: number): Promise<void> {
  const picker = callRegion(page).getByRole('combobox', { name: 'Camera' });
  await picker.selectOption({ label: FAKE_CAMERAS[camera] });
  // The picker names the device the running camera captures from: the pick took effect.
  await expect(picker.locator('option:checked')).toHaveText(FAKE_CAMERAS[camera]!);
  await joinCall(page);
  await openCallDetails(page);
}

/**
 * Keeps each camera track the context's pages get from getUserMedia, so that a test can tell whether
 * a page still holds its camera — whether the camera's light is on. Installed before the page loads
 * (its HTML asks for the camera as it loads). `holdAnswers`: a named fake of a slow camera — the
 * device is open (its track kept here) but the page hears of it only when the test lets it
 * (`letCapturesArrive`), as a real camera may take seconds to start.
 */
export async function watchCameraCaptures(context: BrowserContext, { holdAnswers = false } = {}): Promise<void> {
  await context.addInitScript((hold) => {
    const devices = navigator.mediaDevices;
    const getUserMedia = devices.getUserMedia.bind(devices);
    const captured: MediaStreamTrack[] = [];
    const captures = { asked: 0, answered: 0 };
    const held: Array<() => void> = [];
    const releaseCaptures = () => held.splice(0).forEach((release) => release());
    Object.assign(window, { parleyCameraTracks: captured, parleyCaptures: captures, parleyReleaseCaptures: releaseCaptures });
    devices.getUserMedia = async (constraints) => {
      captures.asked += 1;
      try {
        const stream = await getUserMedia(constraints);
        captured.push(...stream.getVideoTracks());
        if (hold) await new Promise<void>((resolve) => held.push(resolve));
        return stream;
      } finally {
        captures.answered += 1;
      }
    };
  }, holdAnswers);
}

/** How many cameras the page holds open now (watchCameraCaptures): those it captured that have not ended. */
export function camerasHeld(page: Page): Promise<number> {
  return page.evaluate(() => (Reflect.get(window, 'parleyCameraTracks') as MediaStreamTrack[]).filter((track) => track.readyState === 'live').length);
}

/** How many captures the page has asked for, and how many of them it has heard back from (watchCameraCaptures). */
export function captureCounts(page: Page): Promise<{ asked: number; answered: number }> {
  return page.evaluate(() => ({ ...(Reflect.get(window, 'parleyCaptures') as { asked: number; answered: number }) }));
}

/** Every capture the page asked for has been answered to it. */
export async function capturesSettled(page: Page): Promise<boolean> {
  const { asked, answered } = await captureCounts(page);
  return answered === asked;
}

/** The captures held back (watchCameraCaptures `holdAnswers`) reach the page, as do any asked for meanwhile, until none waits. */
export async function letCapturesArrive(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.evaluate(() => (Reflect.get(window, 'parleyReleaseCaptures') as () => void)());
        return capturesSettled(page);
      },
      { message: 'every capture answered to the page', timeout: 30_000 },
    )
    .toBe(true);
}

/** How long one look at a tile's video watches its frame count. */
const FRAME_WATCH_MS = 1_000;

/**
 * New frames the tile's shown <video> presents within FRAME_WATCH_MS, counted on that one element;
 * -1 while the tile has no video, or when the element left the tile meanwhile. Each element counts
 * from 0: when the video arrives by another path (mesh ↔ relay) the tile shows a new element, whose
 * count says nothing against the old one's. A page decoding several videos on a loaded machine may
 * take seconds to answer: it is given time.
 */
async function framesPresentedWithin(video: Locator): Promise<number> {
  if ((await video.count()) === 0) return -1;
  return video
    .first()
    .evaluate(
      (element: HTMLVideoElement, watchMs) =>
        new Promise<number>((resolve) => {
          const before = element.getVideoPlaybackQuality().totalVideoFrames;
          setTimeout(() => resolve(element.isConnected ? element.getVideoPlaybackQuality().totalVideoFrames - before : -1), watchMs);
        }),
      FRAME_WATCH_MS,
      { timeout: 10_000 },
    )
    .catch(() => -1);
}

/** The <video> plays a live video: it presents new frames (a stalled stream does not pass on its old count). */
export async function expectVideoPlays(video: Locator, whose: string): Promise<void> {
  await expect.poll(() => framesPresentedWithin(video), { timeout: 30_000, message: `${whose} video plays` }).toBeGreaterThan(0);
}

/** The tile plays a live video. */
export async function expectDecodingVideo(page: Page, tileName: string): Promise<void> {
  await expectVideoPlays(tile(page, tileName).locator('video'), `${tileName}'s`);
}

/** What the tile's <audio> element plays. */
export interface HeardAudio {
  live: boolean;
  muted: boolean;
  playing: boolean;
  volume: number;
  /** The loudest sample heard in about 1.5 s of the track (Chromium's fake microphone beeps). */
  peak: number;
}

/** Listens to the tile's <audio> element (`listen`). */
export function hear(page: Page, tileName: string): Promise<HeardAudio> {
  return listen(tile(page, tileName).locator('audio'));
}

/**
 * Listens to an <audio> element: its track's state, the element's volume, and the loudest sample of
 * 1.5 s of the decoded audio, read through a MediaStreamTrackProcessor on a clone of it.
 */
export function listen(audio: Locator): Promise<HeardAudio> {
  return audio
    .first()
    .evaluate(
      async (element: HTMLAudioElement) => {
        const track = element.srcObject instanceof MediaStream ? element.srcObject.getAudioTracks()[0] : undefined;
        const heard = { live: track?.readyState === 'live', muted: track?.muted ?? true, playing: !element.paused, volume: element.volume, peak: 0 };
        if (!track) return heard;
        type AudioProcessor = new (init: { track: MediaStreamTrack }) => { readable: ReadableStream<AudioData> };
        const Processor = Reflect.get(globalThis, 'MediaStreamTrackProcessor') as AudioProcessor;
        const clone = track.clone();
        const reader = new Processor({ track: clone }).readable.getReader();
        const until = performance.now() + 1_500;
        while (performance.now() < until) {
          const { value: frame, done } = await reader.read();
          if (done) break;
          const samples = new Float32Array(frame.numberOfFrames);
          frame.copyTo(samples, { planeIndex: 0, format: 'f32-planar' });
          frame.close();
          for (const sample of samples) heard.peak = Math.max(heard.peak, Math.abs(sample));
        }
        await reader.cancel();
        clone.stop();
        return heard;
      },
      undefined,
      { timeout: 5_000 },
    );
}

/** The tile plays the person's audio: a live, unmuted track, playing, with sound in it. */
export async function expectHearing(page: Page, tileName: string, volume = 0.8): Promise<void> {
  await expect
    .poll(async () => {
      const heard = await hear(page, tileName).catch(() => undefined);
      return heard && { live: heard.live, muted: heard.muted, playing: heard.playing, volume: heard.volume, audible: heard.peak > 0.01 };
    }, { timeout: 30_000, message: `${tileName} is heard` })
    .toEqual({ live: true, muted: false, playing: true, volume: expect.closeTo(volume, 5), audible: true });
}

/**
 * Sound the sender had sent before muting, still on its way and in the receiver's jitter buffer when
 * the mute's signalling shows (seen once: a beep's tail peaking at 0.023 in the first listen after a
 * 1.30.3 mute showed). A person hears that tail too; it is not the mute failing.
 */
const SOUND_ON_ITS_WAY_MS = 500;

/**
 * The tile plays the person's audio — a live track, the element playing — and nothing is heard in
 * it: muted, not missing (no track, or an ended one, is silent too). Listens from SOUND_ON_ITS_WAY_MS
 * on, and waits for the track to be live and playing, as `expectHearing` does; every listen meanwhile
 * must have been silent as well.
 */
export async function expectHearingNothing(page: Page, tileName: string): Promise<void> {
  await page.waitForTimeout(SOUND_ON_ITS_WAY_MS);
  const peaks: number[] = [];
  await expect
    .poll(async () => {
      const heard = await hear(page, tileName).catch(() => undefined);
      if (heard) peaks.push(heard.peak);
      return heard && { live: heard.live, playing: heard.playing };
    }, { timeout: 30_000, message: `${tileName}'s audio plays` })
    .toEqual({ live: true, playing: true });
  expect(peaks.filter((peak) => peak >= 0.01), `nothing heard of ${tileName}`).toEqual([]);
}

/** The volume the tile's <audio> element plays at. */
export function playbackVolume(page: Page, tileName: string): Promise<number> {
  return tile(page, tileName)
    .locator('audio')
    .first()
    .evaluate((element: HTMLAudioElement) => element.volume, undefined, { timeout: 10_000 });
}

/** The tile plays a live video and sound. */
export function expectSeeingAndHearing(page: Page, tileName: string): Promise<void> {
  return expectAll([expectDecodingVideo(page, tileName), expectHearing(page, tileName)]);
}

/** Every person decodes every other's video and hears their audio. */
export function expectEveryoneSeesAndHearsEveryone(people: readonly Person[]): Promise<void> {
  return expectOfEveryPair(people, (person, other) => [expectSeeingAndHearing(person.page, other.displayName)]);
}

/**
 * `sharer` shares a screen, and Chromium's fake picker gives it a tab's sound: each of `others`
 * hears that sound in the screen's tile, marked "with sound", and it is not the sharer's voice —
 * with the sharer's microphone muted, their tile and their entry say muted, nothing is heard in
 * their tile, and the screen's sound plays on. Leaves the sharer unmuted, still sharing.
 */
/** The Opus bitrate Chromium encodes a mono voice at, in bps. */
const VOICE_BITRATE_BPS = 32_000;

/**
 * A screen's sound goes in stereo at up to SCREEN_SOUND_BITRATE_BPS, more than a voice, the voices
 * in mono at Chromium's 32 kbps or less (the bandwidth estimate may hold either lower): the sharer's
 * every screen sound sender encodes to its receiver's `stereo=1` answer, its voice senders not; each
 * viewer answered one offer in stereo. Every page here ran watchConnections before its call started.
 */
export async function expectScreenSoundInStereo(sharer: Person, viewers: readonly Person[]): Promise<void> {
  const formats = () => sentAudioFormats(sharer.page);
  await expect.poll(async () => (await formats()).some((format) => format.screenSound), { timeout: 30_000, message: "the screen's sound is sent" }).toBe(true);
  for (const { screenSound, fmtp, targetBitrate } of await formats()) {
    const what = screenSound ? "the screen's sound" : 'a voice';
    expect(/(^|;)stereo=1/.test(fmtp), `${what} in stereo`).toBe(screenSound);
    expect(targetBitrate, `${what}'s bitrate`).toBeDefined();
    if (screenSound) expect(targetBitrate, `${what}'s bitrate`).toBeGreaterThan(VOICE_BITRATE_BPS);
    expect(targetBitrate, `${what}'s bitrate`).toBeLessThanOrEqual(screenSound ? SCREEN_SOUND_BITRATE_BPS : VOICE_BITRATE_BPS);
  }
  for (const viewer of viewers) await expect.poll(() => stereoAnswers(viewer.page), { message: `${viewer.displayName} decodes it in stereo` }).toBe(1);
}

export async function expectScreenSoundApartFromVoice(sharer: Person, others: readonly Person[]): Promise<void> {
  const screen = `${sharer.displayName}'s screen`;
  await expect(tile(sharer.page, 'Your screen')).toContainText('hears its sound');
  await callButton(sharer.page, 'Mute microphone').click();
  await expectAll(
    others.flatMap((viewer) => [
      expect(tile(viewer.page, screen)).toContainText('screen with sound'),
      expect(tile(viewer.page, sharer.displayName)).toContainText('muted'),
      expect(participantEntry(viewer.page, sharer.displayName)).toContainText('muted'),
      expectHearing(viewer.page, screen),
      expectHearingNothing(viewer.page, sharer.displayName),
    ]),
  );
  await callButton(sharer.page, 'Unmute microphone').click();
  for (const viewer of others) await expect(tile(viewer.page, sharer.displayName)).not.toContainText('muted');
}
