import { describe, expect, it } from 'vitest';
import { CAPTURE_ABORT_RETRIES } from '../../src/protocol/constants';
import type { Logger } from '../../src/common/logger';
import { DeviceManager } from '../../src/main-thread/media/DeviceManager';
import {
  CaptureAbortedError,
  CaptureDeviceError,
  CaptureEndedError,
  CapturePermissionError,
  CapturePromptDismissedError,
  CaptureTrackMissingError,
  DisplayMediaUnsupportedError,
  PROMPT_DISMISSED,
  REFUSED_BY_SYSTEM,
  UserMediaUnsupportedError,
  type CaptureError,
} from '../../src/main-thread/media/errors';
import { abortRetryDelayMs, MediaCapture } from '../../src/main-thread/media/MediaCapture';
import type { MediaDevicesApi } from '../../src/main-thread/media/MediaDevicesApi';
import { MediaItems } from '../../src/main-thread/media/MediaItems';
import { OperationQueue } from '../../src/common/OperationQueue';
import { ManualClock } from '../support/ManualClock';
import { fakeStandInCamera, FakeStream, FakeTrack } from './track-fakes';

/** What the fake getUserMedia does on one call: fail with a named error (and its browser's words), or return these kinds. */
type Outcome = { error: string; message?: string } | { kinds: Array<'audio' | 'video'> };

/**
 * Fake mediaDevices for what a real browser will not do on demand: AbortError, a refusal
 * (NotAllowedError / SecurityError), a result missing a requested track, no device, no
 * getDisplayMedia. Each getUserMedia call takes the next scripted outcome; by default it returns
 * what was asked for. Real capture is covered in tests/e2e/media-devices.spec.ts.
 */
class FakeMediaDevices extends EventTarget {
  readonly outcomes: Outcome[] = [];
  readonly requests: MediaStreamConstraints[] = [];
  readonly displayRequests: DisplayMediaStreamOptions[] = [];
  /** What the next getDisplayMedia calls throw, in turn (the picker closed, the system's refusal). */
  readonly displayErrors: DOMException[] = [];
  /** Set: getUserMedia answers only once it resolves (a camera slow to start). */
  userMediaHeld: Promise<void> | undefined;
  /** Set: getDisplayMedia answers only once it resolves (the person still in the picker). */
  displayHeld: Promise<void> | undefined;
  /** The streams getDisplayMedia answered with. */
  readonly displayStreams: FakeStream[] = [];
  /**
   * Absent unless the fake's browser can share a screen (`withScreen`): then each call is kept and
   * answered with a video track, and an audio track when audio was asked for (the picker's "share
   * tab audio" left on).
   */
  readonly getDisplayMedia: ((options: DisplayMediaStreamOptions) => Promise<MediaStream>) | undefined;

  constructor(withScreen: boolean) {
    super();
    this.getDisplayMedia = withScreen
      ? async (options) => {
          this.displayRequests.push(options);
          await this.displayHeld;
          const error = this.displayErrors.shift();
          if (error) throw error;
          const stream = new FakeStream([new FakeTrack('video'), ...(options.audio ? [new FakeTrack('audio')] : [])]);
          this.displayStreams.push(stream);
          return stream as unknown as MediaStream;
        }
      : undefined;
  }

  getSupportedConstraints(): MediaTrackSupportedConstraints {
    // restrictOwnAudio: Chromium's, not yet in TypeScript's DOM types.
    return { autoGainControl: true, echoCancellation: true, noiseSuppression: true, deviceId: true, restrictOwnAudio: true } as MediaTrackSupportedConstraints;
  }

  enumerateDevices(): Promise<MediaDeviceInfo[]> {
    return Promise.resolve([]);
  }

  async getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream> {
    this.requests.push(constraints);
    await this.userMediaHeld;
    const outcome = this.outcomes.shift() ?? {
      kinds: [...(constraints.audio ? ['audio' as const] : []), ...(constraints.video ? ['video' as const] : [])],
    };
    if ('error' in outcome) throw new DOMException(outcome.message ?? `${outcome.error} from the fake`, outcome.error);
    return new FakeStream(outcome.kinds.map((kind) => new FakeTrack(kind))) as unknown as MediaStream;
  }
}

/**
 * `browserHasMediaDevices: false` is a browser (or an insecure page) without navigator.mediaDevices;
 * `withScreen` one that can share a screen.
 */
function setup({ browserHasMediaDevices = true, withScreen = false } = {}) {
  const clock = new ManualClock();
  const logged: string[] = [];
  const logger: Logger = { info: () => {}, error: (message) => logged.push(message) };
  const fake = new FakeMediaDevices(withScreen);
  const api = fake as unknown as MediaDevicesApi;
  const devices = new DeviceManager({ mediaDevices: api, clock, logger });
  const media = new MediaItems({ clock });
  const errors: CaptureError[] = [];
  const queue = new OperationQueue();
  const capture = new MediaCapture({
    mediaDevices: browserHasMediaDevices ? api : undefined,
    devices,
    media,
    queue,
    clock,
    logger,
    onError: (error) => errors.push(error),
    standInCamera: fakeStandInCamera,
  });
  return { clock, fake, devices, media, capture, errors, logged, queue };
}

const abortErrors = (count: number): Outcome[] => Array.from({ length: count }, () => ({ error: 'AbortError' }));

describe('capture retries on AbortError (SPEC §8)', () => {
  it('schedules retry n after 100 + 2^n ms', () => {
    expect(Array.from({ length: CAPTURE_ABORT_RETRIES }, (_, index) => abortRetryDelayMs(index + 1))).toEqual([
      102, 104, 108, 116, 132, 164, 228, 356, 612, 1124, 2148, 4196,
    ]);
  });

  it('retries up to 12 times with those delays, and succeeds on the last try', async () => {
    const { clock, fake, capture, media, errors } = setup();
    fake.outcomes.push(...abortErrors(CAPTURE_ABORT_RETRIES));
    const result = capture.captureUserMedia({ audio: true });
    for (let retry = 1; retry <= CAPTURE_ABORT_RETRIES; retry += 1) {
      await clock.advance(0);
      expect(clock.pendingDelays()).toEqual([abortRetryDelayMs(retry)]);
      expect(fake.requests).toHaveLength(retry);
      await clock.advance(abortRetryDelayMs(retry));
    }
    const captured = await result;
    expect(fake.requests).toHaveLength(CAPTURE_ABORT_RETRIES + 1);
    expect(captured?.audio).toBeDefined();
    expect(media.get(captured?.audio ?? '')?.shared).toBe(true);
    expect(errors).toEqual([]);
  });

  it('gives up after the 12th retry with a typed error (each device then tried once alone), and clears the capture flags', async () => {
    const { clock, fake, capture, devices, errors, logged } = setup();
    fake.outcomes.push(...abortErrors(CAPTURE_ABORT_RETRIES + 3));
    const result = capture.captureUserMedia({ audio: true, video: true });
    await clock.advance(0);
    expect(devices.state).toMatchObject({ requestingCapture: true, requestingCameraCapture: true, requestingMicrophoneCapture: true });
    await clock.advance(10_000);
    expect(await result).toBeUndefined();
    expect(fake.requests).toHaveLength(CAPTURE_ABORT_RETRIES + 3);
    expect(errors[0]?.devices).toEqual(['camera', 'microphone']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CaptureAbortedError);
    expect(logged).toEqual([errors[0]?.message]);
    expect(devices.state.requestingCapture).toBe(false);
    expect(devices.state).toMatchObject({ cameraPermissionDenied: false, microphonePermissionDenied: false });
  });
});

describe('capture refusals (SPEC §8)', () => {
  it.each(['NotAllowedError', 'SecurityError'])('%s marks both permissions denied and reports a person-readable error', async (name) => {
    const { fake, capture, devices, media, errors, logged } = setup();
    fake.outcomes.push({ error: name });
    expect(await capture.captureUserMedia({ audio: true, video: true })).toBeUndefined();
    // Not asked again device by device: that would ask the person once more.
    expect(fake.requests).toHaveLength(1);
    expect(devices.state).toMatchObject({ cameraPermissionDenied: true, microphonePermissionDenied: true, requestingCapture: false });
    const [error] = errors;
    expect(error).toBeInstanceOf(CapturePermissionError);
    expect(error?.devices).toEqual(['camera', 'microphone']);
    expect(error?.reason).toBe(name);
    expect(error?.userMessage).toBe(
      "Parley isn't allowed to use your camera and microphone. Allow access in your browser's site settings, then try again.",
    );
    expect(error?.message).toBe(`getUserMedia failed (camera and microphone): ${name}: ${name} from the fake`);
    expect(logged).toEqual([error?.message]);
    expect(media.all()).toEqual([]);
  });

  it('a refusal the operating system made (Chromium: "Permission denied by system") says to allow it in the system’s privacy settings', async () => {
    const { fake, capture, devices, errors } = setup();
    fake.outcomes.push({ error: 'NotAllowedError', message: 'Permission denied by system' });
    await capture.captureUserMedia({ video: true });
    expect(devices.state).toMatchObject({ cameraPermissionDenied: true });
    expect(errors.map((error) => [error.name, error.reason, error.userMessage])).toEqual([
      ['CapturePermissionError', REFUSED_BY_SYSTEM, "Your system doesn't let this browser use your camera. Allow it for the browser in your system's privacy settings, then try again."],
    ]);
  });

  it('marks only what was asked for', async () => {
    const { fake, capture, devices, errors } = setup();
    fake.outcomes.push({ error: 'NotAllowedError' });
    await capture.captureUserMedia({ audio: true });
    expect(devices.state).toMatchObject({ cameraPermissionDenied: false, microphonePermissionDenied: true });
    expect(errors[0]?.userMessage).toContain('your microphone');
  });

  it('treats a missing track as a refusal of that device and keeps the one that arrived', async () => {
    const { fake, capture, devices, media, errors } = setup();
    fake.outcomes.push({ kinds: ['audio'] });
    const captured = await capture.captureUserMedia({ audio: true, video: true });
    expect(captured?.video).toBeUndefined();
    expect(media.get(captured?.audio ?? '')).toMatchObject({ kind: 'audio', shared: true });
    expect(devices.state).toMatchObject({ cameraPermissionDenied: true, microphonePermissionDenied: false });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CaptureTrackMissingError);
    expect(errors[0]?.devices).toEqual(['camera']);
  });

  it('explains other failures without touching permissions', async () => {
    const { fake, capture, devices, errors } = setup();
    fake.outcomes.push({ error: 'NotFoundError' }, { error: 'NotReadableError' });
    await capture.captureUserMedia({ video: true });
    await capture.captureUserMedia({ video: true });
    expect(errors.map((error) => [error.constructor, error.userMessage])).toEqual([
      [CaptureDeviceError, 'No camera was found. Connect one and try again.'],
      [CaptureDeviceError, "Your camera is in use by another app or can't be read. Close other apps that use it and try again."],
    ]);
    expect(devices.state.cameraPermissionDenied).toBe(false);
  });

  it('says of each device alone why it is not on, in short words and with what to do, and whether another app may hold it, for the preview to keep beside it', async () => {
    const { fake, capture, errors } = setup();
    fake.outcomes.push({ error: 'NotAllowedError' }, { error: 'NotReadableError' }, { error: 'NotFoundError' });
    await capture.captureUserMedia({ audio: true, video: true });
    await capture.captureUserMedia({ video: true });
    await capture.captureUserMedia({ audio: true });
    expect(errors.map((error) => error.devices.map((device) => error.troubleOf(device)))).toEqual([
      [
        { words: 'Your camera is blocked for Parley', advice: "Parley isn't allowed to use your camera. Allow access in your browser's site settings, then try again.", held: false },
        { words: 'Your microphone is blocked for Parley', advice: "Parley isn't allowed to use your microphone. Allow access in your browser's site settings, then try again.", held: false },
      ],
      [{ words: 'Your camera is in use by another app', advice: "Your camera is in use by another app or can't be read. Close other apps that use it and try again.", held: true }],
      [{ words: 'No microphone was found', advice: 'No microphone was found. Connect one and try again.', held: false }],
    ]);
  });

  it('clears an earlier denial once a capture of that device succeeds', async () => {
    const { fake, capture, devices } = setup();
    fake.outcomes.push({ error: 'NotAllowedError' });
    await capture.captureUserMedia({ video: true });
    await capture.captureUserMedia({ video: true });
    expect(devices.state.cameraPermissionDenied).toBe(false);
  });

  it('reports a browser without getUserMedia', async () => {
    const { capture, errors } = setup({ browserHasMediaDevices: false });
    expect(await capture.captureUserMedia({ audio: true })).toBeUndefined();
    expect(errors[0]).toBeInstanceOf(UserMediaUnsupportedError);
  });
});

describe('a permission prompt closed unanswered (Chromium: "Permission dismissed") is marked denied as SPEC §8 says, but said as closed, with the button that asks again, not as blocked in the site’s settings', () => {
  it('says the question was closed and which button asks again, marks both permissions denied, and does not ask again device by device', async () => {
    const { fake, capture, devices, errors } = setup();
    fake.outcomes.push({ error: 'NotAllowedError', message: 'Permission dismissed' });
    expect(await capture.captureUserMedia({ audio: true, video: true })).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    expect(devices.state).toMatchObject({ cameraPermissionDenied: true, microphonePermissionDenied: true });
    expect(errors.map((error) => [error.constructor, error.reason, error.userMessage])).toEqual([
      [CapturePromptDismissedError, PROMPT_DISMISSED, `The browser's question about your camera and microphone was closed unanswered. Press "Start camera" or "Unmute microphone" to be asked again.`],
    ]);
    expect(errors[0]?.troubleOf('microphone')).toEqual({
      words: "Your microphone wasn't allowed yet",
      advice: `The browser's question about your microphone was closed unanswered. Press "Unmute microphone" to be asked again.`,
      held: false,
    });
  });
});

describe('one device’s fault does not keep the other off: a request for both that fails is made again device by device (SPEC §8 capture errors)', () => {
  const kindsAsked = (fake: FakeMediaDevices) => fake.requests.map((request) => [Boolean(request.audio), Boolean(request.video)]);

  it('a camera another app holds: the microphone still starts, and only the camera is said', async () => {
    const { fake, capture, devices, media, errors } = setup();
    fake.outcomes.push({ error: 'NotReadableError' }, { error: 'NotReadableError' });
    const captured = await capture.captureUserMedia({ audio: true, video: true });
    expect(kindsAsked(fake)).toEqual([[true, true], [false, true], [true, false]]);
    expect(captured?.video).toBeUndefined();
    expect(media.local().map((item) => [item.id, item.kind, item.shared])).toEqual([[captured?.audio, 'audio', true]]);
    expect(errors.map((error) => [error.constructor, error.devices, error.userMessage])).toEqual([
      [CaptureDeviceError, ['camera'], "Your camera is in use by another app or can't be read. Close other apps that use it and try again."],
    ]);
    expect(devices.state).toMatchObject({ cameraPermissionDenied: false, microphonePermissionDenied: false, requestingCapture: false });
  });

  it('a microphone the system refuses: the camera still starts, and only the microphone is marked refused', async () => {
    const { fake, capture, devices, errors } = setup();
    const bySystem = { error: 'NotAllowedError', message: 'Permission denied by system' };
    fake.outcomes.push(bySystem, { kinds: ['video'] }, bySystem);
    const captured = await capture.captureUserMedia({ audio: true, video: true });
    expect(captured?.video).toBeDefined();
    expect(captured?.audio).toBeUndefined();
    expect(errors.map((error) => [error.constructor, error.devices, error.reason])).toEqual([[CapturePermissionError, ['microphone'], REFUSED_BY_SYSTEM]]);
    expect(devices.state).toMatchObject({ cameraPermissionDenied: false, microphonePermissionDenied: true });
  });

  it('both answered alone: their tracks share one stream, as one request’s do, and nothing is said', async () => {
    const { fake, capture, media, errors } = setup();
    fake.outcomes.push({ error: 'OverconstrainedError' });
    const captured = await capture.captureUserMedia({ audio: true, video: true });
    const stream = media.getStream(captured?.audio ?? '');
    expect(stream).toBeDefined();
    expect(media.getStream(captured?.video ?? '')).toBe(stream);
    expect(stream?.getTracks().map((track) => track.kind)).toEqual(['video', 'audio']);
    expect(errors).toEqual([]);
  });

  it('both failing alone as they failed together are said once, of both', async () => {
    const { fake, capture, errors } = setup();
    fake.outcomes.push({ error: 'NotReadableError' }, { error: 'NotReadableError' }, { error: 'NotReadableError' });
    expect(await capture.captureUserMedia({ audio: true, video: true })).toBeUndefined();
    expect(errors.map((error) => [error.devices, error.userMessage])).toEqual([
      [['camera', 'microphone'], "Your camera and microphone are in use by another app or can't be read. Close other apps that use them and try again."],
    ]);
  });

  it('each failing alone for a reason of its own is said of its own', async () => {
    const { fake, capture, errors } = setup();
    fake.outcomes.push({ error: 'NotReadableError' }, { error: 'NotReadableError' }, { error: 'NotFoundError' });
    expect(await capture.captureUserMedia({ audio: true, video: true })).toBeUndefined();
    expect(errors.map((error) => [error.devices, error.userMessage])).toEqual([
      [['camera'], "Your camera is in use by another app or can't be read. Close other apps that use it and try again."],
      [['microphone'], 'No microphone was found. Connect one and try again.'],
    ]);
  });
});

describe('audio processing (SPEC §5)', () => {
  it('is on by default, merged under the caller’s constraints', async () => {
    const { fake, capture } = setup();
    await capture.captureUserMedia({ audio: { deviceId: { exact: 'mic-2' }, noiseSuppression: false }, video: true });
    expect(fake.requests[0]).toEqual({
      audio: { autoGainControl: true, echoCancellation: true, noiseSuppression: false, deviceId: { exact: 'mic-2' } },
      video: {},
    });
  });

  it('is off when audioProcessing is false, or for music (which also hints the track)', async () => {
    const { fake, capture, media } = setup();
    await capture.captureUserMedia({ audio: true, audioProcessing: false });
    const music = await capture.captureUserMedia({ audio: true, audioHint: 'music' });
    const off = { autoGainControl: false, echoCancellation: false, noiseSuppression: false };
    expect(fake.requests.map((request) => request.audio)).toEqual([off, off]);
    expect(media.getTrack(music?.audio ?? '')?.contentHint).toBe('music');
  });
});

describe('a camera or microphone that stops at its source is said in words for the person, its item gone (SPEC §4 Media: ending a track removes the item)', () => {
  const endFromSource = (media: MediaItems, id: string | undefined) => (media.getTrack(id ?? '') as unknown as FakeTrack).endFromSource();

  it('an unplugged microphone, then camera: each is reported once, as it ends, and its item goes', async () => {
    const { capture, media, errors, logged } = setup();
    const captured = await capture.captureUserMedia({ audio: true, video: true });
    endFromSource(media, captured?.audio);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CaptureEndedError);
    expect(errors[0]?.devices).toEqual(['microphone']);
    expect(errors[0]?.userMessage).toBe('Your microphone stopped — it may have been unplugged. Plugged back in, it comes back by itself; or pick another and turn it on.');
    expect(logged).toEqual([`the microphone (track ${captured?.audio}) ended at its source`]);
    expect(media.local().map((item) => item.id)).toEqual([captured?.video]);

    endFromSource(media, captured?.video);
    expect(errors.map((error) => [error.devices, error.userMessage])).toEqual([
      [['microphone'], expect.any(String)],
      [['camera'], 'Your camera stopped — it may have been unplugged. Plugged back in, it comes back by itself; or pick another and turn it on.'],
    ]);
    expect(media.local()).toEqual([]);
  });

  it('a microphone we replace or remove ends unsaid', async () => {
    const { capture, media, errors } = setup();
    const first = await capture.captureUserMedia({ audio: true });
    const second = await capture.captureUserMedia({ audio: true, replaceAudio: first?.audio });
    media.remove(second?.audio ?? '');
    expect(media.local()).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('SPEC §4 Media: "Sharing a local item replaces the item it replaces and marks it shared": a capture replaces the microphone or camera it was told to, and shares unless asked not to', () => {
  it('releases the current microphone before capturing another, and replaces the camera it was told to, in its stream', async () => {
    const { capture, media } = setup();
    const first = await capture.captureUserMedia({ audio: true, video: true });
    const firstMicrophone = media.getTrack(first?.audio ?? '');
    const firstStream = media.getStream(first?.video ?? '');
    const second = await capture.captureUserMedia({ audio: true, video: true, replaceVideo: first?.video });
    expect(firstMicrophone?.readyState).toBe('ended');
    expect(media.local().map((item) => item.id)).toEqual([second?.audio, second?.video]);
    expect(media.shared()).toHaveLength(2);
    // The stream the mesh and the relay name the camera by (Call: a camera switched on the mesh keeps its stream).
    expect(media.getStream(second?.video ?? '')).toBe(firstStream);
    expect(firstStream?.getVideoTracks()).toEqual([media.getTrack(second?.video ?? '')]);
  });

  it('stops the microphone it replaces before capturing, keeping its item until the new one is shared in its place; without a new one, the old one goes', async () => {
    const { capture, fake, media } = setup();
    const first = (await capture.captureUserMedia({ audio: true }))?.audio ?? '';
    const firstTrack = media.getTrack(first);
    const removed: string[] = [];
    media.on('removed', (item) => removed.push(item.id));
    const atRequest: Array<{ readyState: string | undefined; kept: boolean }> = [];
    const getUserMedia = fake.getUserMedia.bind(fake);
    fake.getUserMedia = (constraints) => {
      atRequest.push({ readyState: firstTrack?.readyState, kept: media.get(first) !== undefined });
      return getUserMedia(constraints);
    };
    const second = (await capture.captureUserMedia({ audio: true, replaceAudio: first }))?.audio ?? '';
    expect(atRequest).toEqual([{ readyState: 'ended', kept: true }]);
    expect(removed).toEqual([first]);
    expect(media.shared().map((item) => item.id)).toEqual([second]);

    fake.outcomes.push({ error: 'NotReadableError' });
    expect(await capture.captureUserMedia({ audio: true, replaceAudio: second })).toBeUndefined();
    expect(media.local()).toEqual([]);
  });

  it('adds without sharing when asked', async () => {
    const { capture, media } = setup();
    const captured = await capture.captureUserMedia({ video: true, share: false, mirrored: false });
    expect(media.get(captured?.video ?? '')).toMatchObject({ shared: false, renderMirrored: false });
  });
});

describe('Captures run one at a time, a first one’s AbortError retries included (SPEC §8 capture retries)', () => {
  it('runs one capture at a time: a second request waits for the first one’s retries', async () => {
    const { clock, fake, capture } = setup();
    fake.outcomes.push({ error: 'AbortError' });
    const first = capture.captureUserMedia({ video: true });
    const second = capture.captureUserMedia({ audio: true });
    await clock.advance(0);
    expect(fake.requests.map((request) => Boolean(request.video))).toEqual([true]);
    await clock.advance(abortRetryDelayMs(1));
    await Promise.all([first, second]);
    expect(fake.requests.map((request) => Boolean(request.video))).toEqual([true, true, false]);
  });
});

describe('SPEC §5 "Screen capture needs display-media support; otherwise an error is logged"', () => {
  it('asks for the screen, a window or another tab, never this very tab (it would show the call inside itself), switchable to another tab as it runs', async () => {
    const { capture, fake, media } = setup({ withScreen: true });
    expect(capture.screenCaptureSupported).toBe(true);
    const captured = await capture.captureDisplay({ share: false });
    expect(fake.displayRequests).toEqual([{ video: true, audio: false, selfBrowserSurface: 'exclude', surfaceSwitching: 'include' }]);
    expect(media.get(captured?.video ?? '')).toMatchObject({ screenCapture: true, shared: false });
  });

  it('with the screen’s sound: taken as it is (no voice processing) and without what this page plays; part of the share, not a microphone, and kept when a new microphone is picked', async () => {
    const { capture, fake, media } = setup({ withScreen: true });
    const microphone = await capture.captureUserMedia({ audio: true });
    const screen = await capture.captureDisplay({ audio: true, audioHint: 'music' });
    expect(fake.displayRequests[0]?.audio).toEqual({ autoGainControl: false, echoCancellation: false, noiseSuppression: false, restrictOwnAudio: true });
    const sound = media.get(screen?.audio ?? '');
    expect(sound).toMatchObject({ kind: 'audio', screenCapture: true, shared: true, streamId: media.get(screen?.video ?? '')?.streamId });
    expect(media.getTrack(sound?.id ?? '')?.contentHint).toBe('music');
    const picked = await capture.captureUserMedia({ audio: true, replaceAudio: microphone?.audio });
    expect(media.local('audio').map((item) => item.id)).toEqual([sound?.id, picked?.audio]);
    expect(media.get(microphone?.audio ?? '')).toBeUndefined();
  });

  it('opens the browser’s picker at once while a camera is still slow to start ahead of it, for the click’s activation may not outlast that start; the screen is added after the camera', async () => {
    const { capture, fake, media } = setup({ withScreen: true });
    let cameraStarts = (): void => {};
    fake.userMediaHeld = new Promise<void>((resolve) => (cameraStarts = resolve));
    const camera = capture.captureUserMedia({ video: true });
    const screen = capture.captureDisplay();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.requests).toHaveLength(1);
    expect(fake.displayRequests).toHaveLength(1);
    expect(media.local()).toEqual([]);
    cameraStarts();
    const [cameraCaptured, screenCaptured] = await Promise.all([camera, screen]);
    expect(media.local('video').map((item) => item.id)).toEqual([cameraCaptured?.video, screenCaptured?.video]);
  });

  it('a screen picked after the tab let its media go (the capture queue closed meanwhile) is stopped, not kept', async () => {
    const { capture, fake, media, queue } = setup({ withScreen: true });
    let picked = (): void => {};
    fake.displayHeld = new Promise<void>((resolve) => (picked = resolve));
    fake.userMediaHeld = new Promise<void>(() => {});
    void capture.captureUserMedia({ video: true });
    const screen = capture.captureDisplay({ audio: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    queue.close();
    picked();
    await expect(screen).rejects.toThrow('captureDisplay was not run: the queue is closed');
    expect(fake.displayStreams[0]?.getTracks().map((track) => track.readyState)).toEqual(['ended', 'ended']);
    expect(media.local()).toEqual([]);
  });

  it('the person closing the browser’s picker is their choice: nothing is reported, nothing captured', async () => {
    const { capture, errors, fake, media } = setup({ withScreen: true });
    fake.displayErrors.push(new DOMException('Permission denied', 'NotAllowedError'));
    expect(await capture.captureDisplay()).toBeUndefined();
    expect(errors).toEqual([]);
    expect(media.local()).toEqual([]);
  });

  it('the system refusing the browser the screen is said with what to do; a capture that fails otherwise is said too', async () => {
    const { capture, errors, fake } = setup({ withScreen: true });
    fake.displayErrors.push(new DOMException('Permission denied by system', 'NotAllowedError'), new DOMException('Could not start video source', 'NotReadableError'));
    await capture.captureDisplay();
    await capture.captureDisplay();
    expect(errors.map((error) => [error.name, error.userMessage])).toEqual([
      ['ScreenCaptureError', "Your system doesn't let this browser share your screen. Allow screen recording for the browser in your system's privacy settings, then try again."],
      ['ScreenCaptureError', "Your screen couldn't be shared. Try again, or share a single window or tab."],
    ]);
  });

  it('logs and reports screen capture where getDisplayMedia is missing', async () => {
    const { capture, errors, logged } = setup();
    expect(capture.screenCaptureSupported).toBe(false);
    expect(await capture.captureDisplay()).toBeUndefined();
    expect(errors[0]).toBeInstanceOf(DisplayMediaUnsupportedError);
    expect(errors[0]?.userMessage).toBe("This browser can't share your screen.");
    expect(logged).toEqual(['Screen capture is not supported: navigator.mediaDevices.getDisplayMedia is missing']);
  });
});
