import { describe, expect, it } from 'vitest';
import { EarlyPreviewCapture, withPreviewCapture, type MediaDevicesApi, type PermissionsApi, type PreviewCapture } from '../../src/main-thread/media';
import { FakeMediaDevices, harness, settle } from './callTab-fakes';

/** The Permissions API saying `camera` and `microphone`; a name it does not know throws, as Firefox's does. */
function permissions(camera: PermissionState | 'unknown', microphone: PermissionState | 'unknown'): PermissionsApi {
  const states: Record<string, PermissionState | 'unknown'> = { camera, microphone };
  return {
    query: async ({ name }: PermissionDescriptor) => {
      const state = states[name];
      if (state === undefined || state === 'unknown') throw new TypeError(`'${name}' is not a valid PermissionName`);
      return { state } as PermissionStatus;
    },
  };
}

const VIDEO = { width: { ideal: 1280 } };

function started(devices: FakeMediaDevices, api: PermissionsApi | undefined): EarlyPreviewCapture {
  return EarlyPreviewCapture.start(devices as unknown as MediaDevicesApi, api, VIDEO);
}

function kindsAsked(devices: FakeMediaDevices): Array<[boolean, boolean]> {
  return devices.requests.map((request) => [Boolean(request.audio), Boolean(request.video)]);
}

describe('The preview asks for camera and microphone as the room page loads, unless the person refused them (issue 14, the join path; SPEC §2 "Request Media")', () => {
  it('asks for both at once where the browser allows them or will ask, and where it cannot say', async () => {
    for (const api of [permissions('granted', 'granted'), permissions('prompt', 'prompt'), permissions('unknown', 'unknown'), undefined]) {
      const devices = new FakeMediaDevices();
      await started(devices, api).take({ audio: true, video: true });
      expect(kindsAsked(devices)).toEqual([[true, true]]);
      expect(devices.requests[0]?.video).toEqual(VIDEO);
    }
  });

  it('does not ask for a kind the person refused, and asks nothing when both were', async () => {
    const microphoneOnly = new FakeMediaDevices();
    await started(microphoneOnly, permissions('denied', 'prompt')).take({ audio: true });
    expect(kindsAsked(microphoneOnly)).toEqual([[true, false]]);
    const nothing = new FakeMediaDevices();
    expect(await started(nothing, permissions('denied', 'denied')).take({ audio: true, video: true })).toBeUndefined();
    expect(nothing.requests).toHaveLength(0);
  });

  it('gives its stream to the first request of the same kinds on the default devices, once', async () => {
    const devices = new FakeMediaDevices();
    const wrapped = withPreviewCapture(devices as unknown as MediaDevicesApi, started(devices, permissions('granted', 'granted')));
    const first = await wrapped.getUserMedia({ audio: { echoCancellation: true }, video: { height: { ideal: 720 } } });
    const second = await wrapped.getUserMedia({ audio: true, video: true });
    expect(devices.requests).toHaveLength(2);
    expect(second).not.toBe(first);
    expect(first.getTracks().map((track) => track.readyState)).toEqual(['live', 'live']);
  });

  it('lets go of (stops) its tracks when the first request asks for other kinds or names a device, or when released untaken', async () => {
    for (const request of [{ audio: true }, { audio: true, video: { deviceId: { exact: 'other-camera' } } }]) {
      const devices = new FakeMediaDevices();
      const capture = started(devices, permissions('granted', 'granted'));
      expect(await capture.take(request)).toBeUndefined();
      expect(await earlyTracksOf(devices)).toEqual(['ended', 'ended']);
    }
    const devices = new FakeMediaDevices();
    const capture = started(devices, permissions('granted', 'granted'));
    capture.release();
    expect(await earlyTracksOf(devices)).toEqual(['ended', 'ended']);
    expect(await capture.take({ audio: true, video: true })).toBeUndefined();
  });
});

/** The states of the tracks the fake captured first, once that capture and what follows it have run. */
async function earlyTracksOf(devices: FakeMediaDevices): Promise<MediaStreamTrackState[]> {
  await settle();
  return devices.captured[0]?.map((track) => track.readyState) ?? [];
}

describe('A call runtime disposed before its preview took the page’s early capture lets it go: the camera and microphone go off (issue 14, the join path)', () => {
  it('disposed unstarted (the room’s view went while the call’s code loaded), it releases the capture it was handed', () => {
    let released = 0;
    const previewCapture: PreviewCapture = { take: async () => undefined, release: () => (released += 1) };
    harness({ previewCapture }).runtime.dispose();
    expect(released).toBeGreaterThan(0);
  });
});
