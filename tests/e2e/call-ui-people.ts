import type { Locator, Page } from '@playwright/test';
import { FAKE_CAMERAS } from '../../playwright.config';
import { VIDEO_RESOLUTION_TIERS } from '../../src/protocol/constants';
import { expect, type Person } from './rooms-people';

/**
 * The call as a person sees it in the room page, found by role and accessible name (DESIGN "Run
 * contract"). Media checks read the tiles' own <video> and <audio> elements: what the page shows
 * and plays, not the engine's bookkeeping.
 */

/**
 * SPEC §9's tier sizes at 10 fps, for servers under test (PARLEY_VIDEO_RESOLUTION_TIERS): the same
 * layouts and relay layers at a fraction of the encoding work, so that calls in parallel test
 * workers on two cores do not starve each other's encoders.
 */
export const LIGHT_VIDEO_TIERS = Object.fromEntries(Object.entries(VIDEO_RESOLUTION_TIERS).map(([peers, tier]) => [peers, { ...tier, frameRate: 10 }]));

export function callRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Call' });
}

/** A tile of the call grid: "Bob", "Alice (you)", "Alice's screen", "Your screen". */
export function tile(page: Page, name: string): Locator {
  return callRegion(page).getByRole('figure', { name, exact: true });
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
 * Frames the tile's <video> has presented; -1 while it has none. A tile without a video answers at
 * once; one with a video is given time, since a page decoding several videos on a loaded machine
 * may take seconds to answer.
 */
async function presentedFrames(video: Locator): Promise<number> {
  if ((await video.count()) === 0) return -1;
  return video.evaluate((element: HTMLVideoElement) => element.getVideoPlaybackQuality().totalVideoFrames, undefined, { timeout: 10_000 }).catch(() => -1);
}

/** The tile plays a live video: its frame count rises (read twice, so a stalled stream does not pass on its old count). */
export async function expectDecodingVideo(page: Page, tileName: string): Promise<void> {
  const video = tile(page, tileName).locator('video');
  let first = -1;
  await expect.poll(async () => (first = await presentedFrames(video)), { timeout: 30_000, message: `${tileName}'s video plays` }).toBeGreaterThan(0);
  await expect.poll(() => presentedFrames(video), { timeout: 20_000, message: `${tileName}'s video keeps playing` }).toBeGreaterThan(first);
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

/**
 * Listens to the tile's <audio> element: its track's state, the element's volume, and the loudest
 * sample of 1.5 s of the decoded audio, read through a MediaStreamTrackProcessor on a clone of it.
 */
export function hear(page: Page, tileName: string): Promise<HeardAudio> {
  return tile(page, tileName)
    .locator('audio')
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

/** The volume the tile's <audio> element plays at. */
export function playbackVolume(page: Page, tileName: string): Promise<number> {
  return tile(page, tileName)
    .locator('audio')
    .first()
    .evaluate((element: HTMLAudioElement) => element.volume, undefined, { timeout: 10_000 });
}

/** Every person decodes every other's video and hears their audio. */
export async function expectEveryoneSeesAndHearsEveryone(people: readonly Person[]): Promise<void> {
  for (const person of people) {
    for (const other of people) {
      if (other === person) continue;
      await expectDecodingVideo(person.page, other.displayName);
      await expectHearing(person.page, other.displayName);
    }
  }
}
