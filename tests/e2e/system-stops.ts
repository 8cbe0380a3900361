// A fake, named as such: what the system does to a camera or microphone it stops without ending the
// capture (another app took the camera, a privacy switch, a lid closed), which Chromium's fake devices
// cannot be made to do. Shared by the fault suite and the accessibility checks.
import type { Page } from '@playwright/test';
import { expectJoined, type Person } from './rooms-people';

/**
 * Records every track the page's getUserMedia gives, from its next load on, so that a test can act
 * as the system on them (`stopAtSource`).
 */
export async function recordCapturedTracks(person: Person): Promise<void> {
  await person.context.addInitScript(() => {
    const captured: MediaStreamTrack[] = [];
    Object.assign(window, { parleyCapturedTracks: captured });
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      captured.push(...stream.getTracks());
      return stream;
    };
  });
  await person.page.reload();
  await expectJoined(person.page);
}

/**
 * A fake, named as such: what the system does to a capture it stops without ending it (another app
 * took the camera, a privacy switch, a lid closed), which Chromium's fake devices cannot be made to
 * do — the page's live `kind` track reads muted and gets the `mute` event; `false` gives it back
 * (`unmute`). Its frames or sound still flow underneath: only the page's reading of it is faked.
 */
export async function stopAtSource(page: Page, kind: 'audio' | 'video', stopped: boolean): Promise<void> {
  await page.evaluate(
    ({ kind, stopped }) => {
      const captured = Reflect.get(window, 'parleyCapturedTracks') as MediaStreamTrack[];
      const track = captured.findLast((candidate) => candidate.kind === kind && candidate.readyState === 'live');
      if (!track) throw new Error(`no live ${kind} capture`);
      Object.defineProperty(track, 'muted', { configurable: true, get: () => stopped });
      track.dispatchEvent(new Event(stopped ? 'mute' : 'unmute'));
    },
    { kind, stopped },
  );
}
