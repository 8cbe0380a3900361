// A fake, named as such: what the system does to a camera or microphone it stops without ending the
// capture (another app took the camera, a privacy switch, a lid closed), or that is unplugged and
// plugged back in, which Chromium's fake devices cannot be made to do. Shared by the fault suite and
// the accessibility checks.
import type { Page } from '@playwright/test';
import { expectJoined, type Person } from './rooms-people';

/**
 * Records every track the page's getUserMedia gives, from its next load on, so that a test can act
 * as the system on them (`stopAtSource`, `plugIn`); and lists no device of a kind unplugged.
 */
export async function recordCapturedTracks(person: Person): Promise<void> {
  await person.context.addInitScript(() => {
    const captured: MediaStreamTrack[] = [];
    const unplugged = new Set<string>();
    Object.assign(window, { parleyCapturedTracks: captured, parleyUnplugged: unplugged });
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    const enumerateDevices = navigator.mediaDevices.enumerateDevices.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      captured.push(...stream.getTracks());
      return stream;
    };
    navigator.mediaDevices.enumerateDevices = async () => (await enumerateDevices()).filter((device) => !unplugged.has(device.kind));
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

/**
 * A fake, named as such: the page's camera or microphone unplugged while in use (`present` false) or
 * plugged back in (true). Unplugged, its live track ends as the browser ends it (stopped, with the
 * `ended` event the page's own stop would not fire) and no device of its kind is listed; plugged
 * back, they are listed again. Either way the page hears `devicechange`.
 */
export async function plugIn(page: Page, kind: 'audio' | 'video', present: boolean): Promise<void> {
  await page.evaluate(
    ({ kind, present }) => {
      const unplugged = Reflect.get(window, 'parleyUnplugged') as Set<string>;
      if (present) unplugged.delete(`${kind}input`);
      else {
        unplugged.add(`${kind}input`);
        const captured = Reflect.get(window, 'parleyCapturedTracks') as MediaStreamTrack[];
        const track = captured.findLast((candidate) => candidate.kind === kind && candidate.readyState === 'live');
        if (!track) throw new Error(`no live ${kind} capture`);
        track.stop();
        track.dispatchEvent(new Event('ended'));
      }
      navigator.mediaDevices.dispatchEvent(new Event('devicechange'));
    },
    { kind, present },
  );
}
