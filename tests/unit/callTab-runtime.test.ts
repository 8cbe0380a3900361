import { afterEach, describe, expect, it, vi } from 'vitest';
import { heldPeersAtom } from '../../src/main-thread/call/callAtoms';
import { CapturePermissionError } from '../../src/main-thread/media';
import { callAtomFamily, sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import { VIDEO_RESOLUTION_TIERS, VOLUME } from '../../src/protocol/constants';
import { profileForTile } from '../../src/main-thread/call/receive/tileProfile';
import { ANALYSIS_WORKER_RESTARTS, CAPTURE_TIER_SETTLE_MS, MICROPHONE_SILENT_AFTER_MS, VOICE_ANALYSIS_DELAY_MS, TILE_SHRINK_REPORT_DELAY_MS } from '../../src/protocol/clientDefaults';
import type { VideoSendLoad } from '../../src/main-thread/media';
import type { CallTabCommands } from '../../src/main-thread/callTab/sessionCommands';
import { BOB, FakeTileObservers, harness, joinListeningOnly, keyEvent, monitorOf, peer, ROOM, settle, SELF } from './callTab-fakes';
import { FakeStream, FakeTrack, receivedTrack } from './track-fakes';
import { OWN_MEDIA_DEFAULTS } from '../../src/shared-worker/rooms/callRecord';

/** The call tab's flow over fakes (tests/unit/callTab-fakes.ts): what it captures, when it joins, what it tells the session. */

let current: ReturnType<typeof harness> | undefined;
function open(options: Parameters<typeof harness>[0] = {}): ReturnType<typeof harness> {
  current = harness(options);
  current.runtime.start();
  return current;
}
afterEach(() => {
  current?.runtime.dispose();
  current = undefined;
});

function local(h: ReturnType<typeof harness>) {
  return h.store.get(h.runtime.atoms.local);
}

/** The preview of a tab whose camera another app holds (the fake's NotReadableError, until the test clears it). */
async function openWithCameraHeld(): Promise<ReturnType<typeof harness>> {
  const h = harness();
  h.mediaDevices.cameraFailsWith = 'NotReadableError';
  h.runtime.start();
  current = h;
  await settle();
  return h;
}

/** The preview of a computer with no device of `kind` plugged in. */
async function openWithout(kind: 'audioinput' | 'videoinput'): Promise<ReturnType<typeof harness>> {
  const h = harness();
  h.mediaDevices.plug(kind, false);
  h.runtime.start();
  current = h;
  await settle();
  return h;
}

/** A tab that runs the call, in it with camera and microphone. */
async function inTheCall(): Promise<ReturnType<typeof harness>> {
  const h = open();
  await settle();
  await h.runtime.joinCall();
  h.deliverCallRecord();
  await settle();
  return h;
}

/** The session's commands the harness gave the runtime: a test makes one fail. */
function sessionCommandsOf(h: ReturnType<typeof harness>): CallTabCommands {
  return (h.runtime as unknown as { readonly options: { readonly commands: CallTabCommands } }).options.commands;
}

/** The device the track of a local item (a running camera or microphone) captures from: 'stand-in' for a camera let go. */
function deviceOf(h: ReturnType<typeof harness>, running: { itemId: string } | undefined): string | undefined {
  return running && h.runtime.media.getTrack(running.itemId)?.getSettings().deviceId;
}

function localItems(h: ReturnType<typeof harness>) {
  return h.runtime.media.local().map(({ kind, shared, localDisabled }) => ({ kind, shared, localDisabled }));
}

describe('The preview before the call: camera and microphone captured at once where granted (or taken from the page’s early capture, issue 14), at SPEC §9’s top tier, shared with nobody; after a refusal, asked again only on "Request Media" (SPEC §2, §8 capture refusals)', () => {
  it('captures camera and microphone at once where access was granted, without offering them to anyone', async () => {
    const h = open();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('preview');
    expect(h.mediaDevices.requests).toHaveLength(1);
    expect(localItems(h)).toEqual([
      { kind: 'audio', shared: false, localDisabled: false },
      { kind: 'video', shared: false, localDisabled: false },
    ]);
    // The capture starts at the top tier (SPEC §9: nobody receives yet).
    expect(h.mediaDevices.requests[0]?.video).toMatchObject({ width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } });
    expect(h.store.get(h.runtime.atoms.requestMediaOffered)).toBe(false);
    expect(h.engines).toHaveLength(0);
  });

  it('where the browser will ask first, asks for camera and microphone at once: its prompt shows on the pre-join screen', async () => {
    const h = open({ labelled: false });
    await settle();
    expect(h.mediaDevices.requests.map((request) => [Boolean(request.audio), Boolean(request.video)])).toEqual([[true, true]]);
    expect(localItems(h)).toHaveLength(2);
  });

  it('until the preview knows what it captures, its camera is starting and "Request Media" is not offered: nothing says off that is on its way', async () => {
    let answer = (): void => undefined;
    const h = open({ permissionsAnswered: new Promise<void>((resolve) => (answer = resolve)) });
    await settle();
    // The devices are listed (access granted), nothing runs yet, no capture is under way.
    expect(h.store.get(h.runtime.atoms.devices)).toMatchObject({ hasCamera: true, requestingCapture: false });
    expect(localItems(h)).toEqual([]);
    expect(h.store.get(h.runtime.atoms.previewStarting)).toBe(true);
    expect(h.store.get(h.runtime.atoms.requestMediaOffered)).toBe(false);
    answer();
    await settle();
    expect(localItems(h)).toHaveLength(2);
    expect(h.store.get(h.runtime.atoms.previewStarting)).toBe(false);
  });

  it('a preview that captures nothing stops starting: a refusal offers "Request Media" once known', async () => {
    let answer = (): void => undefined;
    const h = open({ labelled: false, refused: true, permissionsAnswered: new Promise<void>((resolve) => (answer = resolve)) });
    await settle();
    expect(h.store.get(h.runtime.atoms.requestMediaOffered)).toBe(false);
    answer();
    await settle();
    expect(h.store.get(h.runtime.atoms.previewStarting)).toBe(false);
    expect(h.store.get(h.runtime.atoms.requestMediaOffered)).toBe(true);
  });

  it('names who is in the call once the room is joined, and before that claims nobody', () => {
    const h = harness();
    const setJoined = (joined: boolean) =>
      h.store.set(sessionStateAtom, (state) => ({ ...state, rooms: { ...state.rooms, 'room-1': { ...state.rooms['room-1']!, joined, roomState: joined ? 'joined' : 'joining' } } }));
    setJoined(false);
    expect(h.store.get(h.runtime.atoms.othersInCall)).toBeUndefined();
    // Read again: the memoised value of "nobody known yet" is kept, not taken for an earlier one.
    expect(h.store.get(h.runtime.atoms.othersInCall)).toBeUndefined();
    setJoined(true);
    expect(h.store.get(h.runtime.atoms.othersInCall)).toEqual(['Bob']);
  });

  it('through our own lost connection names who was in the call when it dropped, not "nobody known"', () => {
    const h = harness();
    const before = Object.values(h.store.get(sessionStateAtom).peers);
    h.store.set(sessionStateAtom, (state) => ({
      ...state,
      peers: {},
      rooms: { ...state.rooms, 'room-1': { ...state.rooms['room-1']!, joined: false, roomState: 'interrupted', peopleBeforeOutage: before } },
    }));
    expect(h.store.get(h.runtime.atoms.othersInCall)).toEqual(['Bob']);
  });

  it('a person who refused camera and microphone is not asked again until they click "Request Media"; the preview says why they are not on', async () => {
    const h = open({ labelled: false, refused: true });
    await settle();
    expect(h.mediaDevices.requests).toHaveLength(0);
    expect(h.store.get(h.runtime.atoms.requestMediaOffered)).toBe(true);
    expect(h.store.get(h.runtime.atoms.problem)).toBe(new CapturePermissionError('', ['camera', 'microphone'], 'denied').userMessage);
    await h.runtime.requestMedia();
    expect(h.mediaDevices.requests).toHaveLength(1);
    expect(h.store.get(h.runtime.atoms.requestMediaOffered)).toBe(false);
  });

  it('explains a refusal in words for the person', async () => {
    const h = open({ labelled: false, refused: true });
    await settle();
    h.mediaDevices.failNextWith = 'NotAllowedError';
    await h.runtime.requestMedia();
    const problem = h.store.get(h.runtime.atoms.problem);
    expect(problem).toBe(new CapturePermissionError('', ['camera', 'microphone'], 'NotAllowedError').userMessage);
    expect(h.store.get(h.runtime.atoms.devices).cameraPermissionDenied).toBe(true);
    h.runtime.dismissProblem();
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
  });

  it('takes the camera and microphone the page asked for as it loaded instead of asking again, and lets go of a capture it did not take', async () => {
    const early = new FakeStream([new FakeTrack('audio'), new FakeTrack('video')]);
    const offered: MediaStreamConstraints[] = [];
    let released = 0;
    const h = open({
      previewCapture: {
        take: async (constraints) => {
          offered.push(constraints);
          return early as unknown as MediaStream;
        },
        release: () => (released += 1),
      },
    });
    await settle();
    expect(offered.map((request) => [Boolean(request.audio), Boolean(request.video)])).toEqual([[true, true]]);
    expect(h.mediaDevices.requests).toHaveLength(0);
    expect(h.runtime.media.local().map((item) => h.runtime.media.getTrack(item.id))).toEqual(early.getTracks());
    expect(released).toBe(1);
  });
});

/** An <audio> element whose play() the autoplay policy refuses until `allowed` (Node has none). */
function autoplayHeldAudio(): HTMLAudioElement & { allowed: boolean } {
  const element = {
    allowed: false,
    volume: 1,
    play: () => (element.allowed ? Promise.resolve() : Promise.reject(new DOMException('no gesture yet', 'NotAllowedError'))),
  };
  return element as unknown as HTMLAudioElement & { allowed: boolean };
}

describe('"Request Media" turns on only what you want on: on "waiting for a click before it plays the call" it plays the call, and turns on no camera or microphone you left off (SPEC §2 "Request Media")', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('someone who joined with camera and microphone off only listens: no notice offers their devices, and the click that lets the call play captures nothing', async () => {
    // Node has no MediaStream: attachAudio only wraps the item's one track in one.
    vi.stubGlobal('MediaStream', FakeStream);
    const h = open();
    await joinListeningOnly(h);
    const offered = () => h.store.get(h.runtime.atoms.requestMediaOffered);
    expect(offered(), 'nothing of theirs is wanted on').toBe(false);
    const element = autoplayHeldAudio();
    h.runtime.attachAudio(receivedTrack(h.runtime.media, 'bob-voice', 'audio', BOB, ROOM).id, element);
    await settle();
    expect(offered(), 'the browser waits for a click to play Bob').toBe(true);
    const capturesBefore = h.mediaDevices.requests.length;
    element.allowed = true;
    await h.runtime.requestMedia();
    await settle();
    expect(h.store.get(h.runtime.atoms.playbackBlocked)).toBe(false);
    expect(h.mediaDevices.requests).toHaveLength(capturesBefore);
    expect(h.runtime.media.local()).toEqual([]);
    expect(offered()).toBe(false);
  });
});

describe('A camera or microphone that did not start keeps why beside it until it runs, after its notice is dismissed (SPEC §8 capture errors in words for the person)', () => {
  it('a camera another app holds: the microphone starts, the camera keeps its words and what to do until a camera runs', async () => {
    const h = await openWithCameraHeld();
    const troubles = () => h.store.get(h.runtime.atoms.deviceTroubles);
    expect(local(h).microphone).toBeDefined();
    expect(troubles()).toEqual({
      camera: { words: 'Your camera is in use by another app', advice: "Your camera is in use by another app or can't be read. Close other apps that use it and try again.", held: true },
    });
    h.runtime.dismissProblem();
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
    expect(troubles().camera?.words).toBe('Your camera is in use by another app');
    // Pressed again while the camera is still held: the same words, nothing else changed.
    await h.runtime.toggleCamera();
    expect(troubles()).toEqual({ camera: expect.objectContaining({ words: 'Your camera is in use by another app' }) });
    h.mediaDevices.cameraFailsWith = undefined;
    await h.runtime.toggleCamera();
    expect(local(h).camera).toMatchObject({ off: false });
    expect(troubles()).toEqual({});
  });

  it('in the preview, a camera another app held is asked for again when you come back to the page: quietly while it is still held, and it starts once that app let it go', async () => {
    const h = await openWithCameraHeld();
    const troubles = () => h.store.get(h.runtime.atoms.deviceTroubles);
    const cameraRequests = () => h.mediaDevices.requests.filter((request) => request.video).length;
    expect(troubles().camera).toMatchObject({ held: true });
    h.runtime.dismissProblem();
    const asked = cameraRequests();

    h.pageWindow.dispatchEvent(new Event('focus'));
    await settle();
    expect(cameraRequests()).toBe(asked + 1);
    // Still held: nothing said again, nothing changed.
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
    expect(troubles().camera).toMatchObject({ words: 'Your camera is in use by another app' });

    h.mediaDevices.cameraFailsWith = undefined;
    h.pageWindow.dispatchEvent(new Event('focus'));
    await settle();
    expect(local(h).camera).toMatchObject({ off: false });
    expect(troubles()).toEqual({});
    // Nothing held any more: coming back asks for nothing.
    h.pageWindow.dispatchEvent(new Event('focus'));
    await settle();
    expect(cameraRequests()).toBe(asked + 2);
  });

  it('coming back to the page asks again neither in the call (a camera starting by itself would show you unasked) nor for a device you refused', async () => {
    const h = await openWithCameraHeld();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    const asked = h.mediaDevices.requests.length;
    h.pageWindow.dispatchEvent(new Event('focus'));
    await settle();
    expect(h.mediaDevices.requests).toHaveLength(asked);

    const refused = open({ labelled: false, refused: true });
    await settle();
    expect(refused.store.get(refused.runtime.atoms.deviceTroubles).camera).toMatchObject({ held: false });
    refused.pageWindow.dispatchEvent(new Event('focus'));
    await settle();
    expect(refused.mediaDevices.requests).toHaveLength(0);
    h.runtime.dispose();
  });

  it('on a page that may not capture (http on a LAN address), joining says to open Parley over https, not that no camera is plugged in', async () => {
    const h = open({ noMediaDevices: true });
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(h.store.get(h.runtime.atoms.problem)).toBe("This browser can't use a camera or microphone here. Use a current browser and open Parley over https.");
    expect(h.store.get(h.runtime.atoms.deviceTroubles)).toMatchObject({ camera: { words: "This browser can't use a camera here" }, microphone: { words: "This browser can't use a microphone here" } });
  });

  it('camera and microphone refused before the preview asked: each keeps that it is blocked, and one that runs later loses its words while the other keeps them', async () => {
    const h = open({ labelled: false, refused: true });
    await settle();
    const troubles = () => h.store.get(h.runtime.atoms.deviceTroubles);
    expect(Object.fromEntries(Object.entries(troubles()).map(([device, trouble]) => [device, trouble.words]))).toEqual({
      camera: 'Your camera is blocked for Parley',
      microphone: 'Your microphone is blocked for Parley',
    });
    await h.runtime.toggleMicrophone();
    expect(local(h).microphone).toBeDefined();
    expect(Object.keys(troubles())).toEqual(['camera']);
  });
});

describe('A computer with no camera (or no microphone): the preview, the device’s button and its list say none was found — never that it is off, about to turn on, or waiting for access — and one plugged in starts in the preview (beyond SPEC §8)', () => {
  it('no camera listed: the microphone starts, the camera keeps "No camera was found" without a notice, and is not "on" after hanging up until one is plugged in', async () => {
    const h = await openWithout('videoinput');
    const troubles = () => h.store.get(h.runtime.atoms.deviceTroubles);
    const toggles = () => h.store.get(h.runtime.atoms.deviceToggles);
    expect(local(h).microphone).toBeDefined();
    expect(local(h).camera).toBeUndefined();
    expect(troubles()).toEqual({ camera: { words: 'No camera was found', advice: 'No camera was found. Connect one and try again.', held: false } });
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
    expect(toggles().camera).toMatchObject({ on: false, enabled: false });

    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    await h.runtime.hangUp();
    await settle();
    expect(toggles().camera.on).toBe(false);
    expect(toggles().microphone.on).toBe(true);
    expect(troubles().camera?.words).toBe('No camera was found');

    // Plugged in after leaving, it is what the next join turns on: nothing is captured before.
    h.mediaDevices.plug('videoinput', true);
    await settle();
    expect(troubles()).toEqual({});
    expect(local(h).camera).toBeUndefined();
    expect(toggles().camera.on).toBe(true);
  });

  it('a camera plugged in while the preview has none starts in the preview, as it would have at first', async () => {
    const h = await openWithout('videoinput');
    expect(h.store.get(h.runtime.atoms.deviceTroubles).camera?.words).toBe('No camera was found');

    h.mediaDevices.plug('videoinput', true);
    await settle();
    expect(local(h).camera).toMatchObject({ off: false });
    expect(h.store.get(h.runtime.atoms.deviceTroubles)).toEqual({});
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
  });

  it('no microphone listed: the camera starts, the microphone keeps "No microphone was found"; one plugged in during the call is said no more, and waits for you to unmute', async () => {
    const h = await openWithout('audioinput');
    expect(local(h).camera).toMatchObject({ off: false });
    expect(local(h).microphone).toBeUndefined();
    expect(h.store.get(h.runtime.atoms.deviceTroubles)).toEqual({ microphone: expect.objectContaining({ words: 'No microphone was found' }) });

    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    const requestsBefore = h.mediaDevices.requests.length;
    h.mediaDevices.plug('audioinput', true);
    await settle();
    expect(h.store.get(h.runtime.atoms.deviceTroubles)).toEqual({});
    expect(h.mediaDevices.requests).toHaveLength(requestsBefore);
    expect(local(h).microphone).toBeUndefined();
  });
});

describe('A camera turned off lets its device go — its light goes out — and is opened again when turned on (beyond the spec)', () => {
  it('in the call: off, its track stops and a stand-in holding no device takes its place, off and shared, the others told once; on, it is captured anew in that place, and the others are told it is on only once it runs', async () => {
    const h = await inTheCall();
    const camera = h.mediaDevices.captured[0]!.find((track) => track.kind === 'video')!;
    const told: Array<{ off: boolean; device: string | undefined }> = [];
    h.runtime.media.on('localMuteChanged', (item, off) => {
      if (item.kind === 'video') told.push({ off, device: deviceOf(h, { itemId: item.id }) });
    });
    const requestsBefore = h.mediaDevices.requests.length;

    await h.runtime.toggleCamera();
    expect(camera.readyState).toBe('ended');
    const standIn = local(h).camera!;
    expect(standIn).toMatchObject({ off: true });
    expect(deviceOf(h, standIn)).toBe('stand-in');
    expect(h.runtime.media.local('video').map(({ shared, localDisabled }) => ({ shared, localDisabled }))).toEqual([{ shared: true, localDisabled: true }]);
    expect(h.mediaDevices.requests).toHaveLength(requestsBefore);
    expect(told).toEqual([{ off: true, device: 'videoinput-device' }]);

    await h.runtime.toggleCamera();
    expect(h.mediaDevices.requests.slice(requestsBefore).map((request) => [Boolean(request.audio), Boolean(request.video)])).toEqual([[false, true]]);
    const relit = local(h).camera!;
    expect(relit).toMatchObject({ off: false });
    expect(deviceOf(h, relit)).toBe('videoinput-device');
    expect(h.runtime.media.getTrack(relit.itemId)?.readyState).toBe('live');
    expect(h.runtime.media.local('video').map(({ shared, localDisabled }) => ({ shared, localDisabled }))).toEqual([{ shared: true, localDisabled: false }]);
    expect(told).toEqual([
      { off: true, device: 'videoinput-device' },
      { off: false, device: 'videoinput-device' },
    ]);
  });

  it('turned on while another app holds the camera: the stand-in stays, off, and the person is told why', async () => {
    const h = await inTheCall();
    await h.runtime.toggleCamera();
    h.mediaDevices.cameraFailsWith = 'NotReadableError';
    await h.runtime.toggleCamera();
    const camera = local(h).camera!;
    expect(camera).toMatchObject({ off: true });
    expect(deviceOf(h, camera)).toBe('stand-in');
    expect(h.store.get(h.runtime.atoms.problem)).toMatch(/camera/i);
    expect(h.store.get(h.runtime.atoms.deviceTroubles).camera).toBeDefined();
  });

  it('in the preview: off lets the camera go, and joining with it off opens none: the stand-in is what the call is sent', async () => {
    const h = open();
    await settle();
    const camera = h.mediaDevices.captured[0]!.find((track) => track.kind === 'video')!;
    await h.runtime.toggleCamera();
    expect(camera.readyState).toBe('ended');
    const requestsBefore = h.mediaDevices.requests.length;
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    expect(h.mediaDevices.requests.slice(requestsBefore).some((request) => Boolean(request.video))).toBe(false);
    const joinedWith = local(h).camera!;
    expect(joinedWith).toMatchObject({ off: true });
    expect(deviceOf(h, joinedWith)).toBe('stand-in');
    expect(h.runtime.media.local('video').map(({ shared }) => shared)).toEqual([true]);
  });
});

describe('Picking a camera or microphone replaces the one running, muted or off as that one was (SPEC §4 Media: sharing a local item replaces the item it replaces); the one already running captures nothing; one that cannot be used gives the working one back and is said; with none running, the pick starts the one you want on', () => {
  const cameraDevice = (h: ReturnType<typeof harness>) => deviceOf(h, local(h).camera);
  const microphoneDevice = (h: ReturnType<typeof harness>) => deviceOf(h, local(h).microphone);

  it('keeps a new microphone muted when the one it replaces was; a camera picked while off is not opened until it is turned on', async () => {
    const h = open();
    await settle();
    h.runtime.setMicrophoneMuted(true);
    await h.runtime.toggleCamera();
    await h.runtime.selectMicrophone('other-microphone');
    await h.runtime.selectCamera('other-camera');
    expect(h.mediaDevices.requests.slice(1).map((request) => [request.audio, request.video])).toEqual([[{ deviceId: { exact: 'other-microphone' } }, false]]);
    expect(local(h)).toMatchObject({ microphone: { muted: true }, camera: { off: true } });
    expect(h.runtime.media.local()).toHaveLength(2);
    await h.runtime.toggleCamera();
    expect(h.mediaDevices.requests.slice(2).map((request) => [request.audio, request.video])).toEqual([[false, expect.objectContaining({ deviceId: { exact: 'other-camera' } })]]);
    expect(local(h)).toMatchObject({ camera: { off: false } });
    expect(cameraDevice(h)).toBe('other-camera');
  });

  it('a microphone picked is asked for with the old one closed, its voice analysis’s clone too: a browser that allows one live microphone opens the new one', async () => {
    const h = open();
    await settle();
    const before = local(h).microphone!.itemId;
    const analysed = monitorOf(h.monitors, before);
    expect(analysed.track.readyState).toBe('live');
    let answer!: () => void;
    h.mediaDevices.starting = new Promise((resolve) => (answer = resolve));
    const picked = h.runtime.selectMicrophone('other-microphone');
    await settle();
    expect(h.mediaDevices.requests).toHaveLength(2);
    // Asked for now: nothing of the old microphone is open, not even the clone its analysis hears through.
    expect(h.runtime.media.getTrack(before)?.readyState).toBe('ended');
    expect(analysed.track.readyState).toBe('ended');
    expect(analysed.stopped).toBe(true);
    h.mediaDevices.starting = undefined;
    answer();
    await picked;
    await settle();
    expect(microphoneDevice(h)).toBe('other-microphone');
    expect(monitorOf(h.monitors, local(h).microphone!.itemId).track.readyState).toBe('live');
  });

  it('a camera picked while the preview’s camera is still starting replaces it once it runs', async () => {
    current = harness();
    const h = current;
    let started!: () => void;
    h.mediaDevices.starting = new Promise((resolve) => (started = resolve));
    h.runtime.start();
    await settle();
    expect(h.mediaDevices.requests).toHaveLength(1);
    const picked = h.runtime.selectCamera('other-camera');
    h.mediaDevices.starting = undefined;
    started();
    await picked;
    expect(h.mediaDevices.requests.slice(1).map((request) => request.video)).toEqual([expect.objectContaining({ deviceId: { exact: 'other-camera' } })]);
    expect(cameraDevice(h)).toBe('other-camera');
    expect(localItems(h).filter((item) => item.kind === 'video')).toHaveLength(1);
  });

  it('picking the camera that already runs captures nothing', async () => {
    const h = open();
    await settle();
    await h.runtime.selectCamera(cameraDevice(h)!);
    expect(h.mediaDevices.requests).toHaveLength(1);
  });

  it('a microphone picked that cannot be used gives the one that worked back, muted as it was, and says so with what to do', async () => {
    const h = open();
    await settle();
    h.runtime.setMicrophoneMuted(true);
    h.mediaDevices.failNextWith = 'NotReadableError';
    await h.runtime.selectMicrophone('other-microphone');
    await settle();
    expect(local(h).microphone).toMatchObject({ muted: true });
    expect(microphoneDevice(h)).toBe('audioinput-device');
    expect(h.store.get(h.runtime.atoms.selectedDevices).microphone).toBe('audioinput-device');
    expect(h.store.get(h.runtime.atoms.problem)).toBe(
      "The microphone you picked couldn't be used, so your previous one is on again. Your microphone is in use by another app or can't be read. Close other apps that use it and try again.",
    );
    // The picker works on: another pick replaces it.
    await h.runtime.selectMicrophone('third-microphone');
    expect(microphoneDevice(h)).toBe('third-microphone');
    expect(local(h).microphone).toMatchObject({ muted: true });
  });

  it('picking a camera or microphone while none runs starts the one you want on; after leaving the call it is only remembered for the next join', async () => {
    const h = open({ labelled: false, refused: true });
    await settle();
    await h.runtime.selectCamera('other-camera');
    expect(h.mediaDevices.requests.map((request) => request.video)).toEqual([expect.objectContaining({ deviceId: { exact: 'other-camera' } })]);
    expect(cameraDevice(h)).toBe('other-camera');
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await h.runtime.hangUp();
    h.deliverCallRecord();
    await settle();
    const capturesBefore = h.mediaDevices.requests.length;
    await h.runtime.selectMicrophone('other-microphone');
    expect(h.mediaDevices.requests).toHaveLength(capturesBefore);
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    expect(microphoneDevice(h)).toBe('other-microphone');
  });
});

describe('a camera or microphone that stops mid-call is said to the person, not lost unnoticed (SPEC §4 Media: ending a track removes the item)', () => {
  it('the microphone unplugged in the call: it goes, and the call tab says so in plain words until the person captures another', async () => {
    const h = await inTheCall();
    const microphone = h.mediaDevices.captured[0]?.find((track) => track.kind === 'audio');
    microphone?.endFromSource();
    expect(local(h).microphone).toBeUndefined();
    expect(h.store.get(h.runtime.atoms.problem)).toBe('Your microphone stopped — it may have been unplugged. Plugged back in, it comes back by itself; or pick another and turn it on.');

    await h.runtime.toggleMicrophone();
    expect(local(h).microphone).toMatchObject({ muted: false });
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
  });

  it('the camera and microphone the system stops in the call (another app took them, a privacy switch): the person is told, is shown off and muted as the others are told while their own "on" stands, and "Try again" captures each anew in its place', async () => {
    const h = await inTheCall();
    const [microphone, camera] = (['audio', 'video'] as const).map((kind) => h.mediaDevices.captured[0]!.find((track) => track.kind === kind)!);
    const stopped = () => h.store.get(h.runtime.atoms.stoppedBySystem);
    const selfTile = () => h.store.get(h.runtime.atoms.tiles).find((tile) => tile.isSelf)!;
    expect(stopped()).toEqual({ camera: false, microphone: false });

    const ownMedia = () => h.store.get(sessionStateAtom).calls[ROOM]?.ownMedia;

    camera!.muteFromSource();
    expect(stopped()).toEqual({ camera: true, microphone: false });
    expect(h.store.get(h.runtime.atoms.deviceToggles).camera.on).toBe(true);
    expect(selfTile().videoItemId).toBeUndefined();
    expect(h.self()).toMatchObject({ hasActiveCamera: false, muted: false });
    microphone!.muteFromSource();
    expect(stopped()).toEqual({ camera: true, microphone: true });
    expect(selfTile().muted).toBe(true);
    expect(h.self()).toMatchObject({ hasActiveCamera: false, hasActiveMicrophone: false, muted: true });
    // Your other tabs (a pop-out chat) read it from the call record: stopped, not turned off.
    await settle();
    expect(ownMedia()).toMatchObject({ cameraStopped: true, microphoneStopped: true, cameraOff: false, microphoneMuted: false });

    const requestsBefore = h.mediaDevices.requests.length;
    await h.runtime.restartStoppedDevices();
    expect(h.mediaDevices.requests.slice(requestsBefore).map((request) => [Boolean(request.audio), Boolean(request.video)])).toEqual([[true, true]]);
    expect([microphone!.readyState, camera!.readyState]).toEqual(['ended', 'ended']);
    expect(stopped()).toEqual({ camera: false, microphone: false });
    expect(local(h)).toMatchObject({ microphone: { muted: false, stopped: false }, camera: { off: false, stopped: false } });
    expect(h.self()).toMatchObject({ hasActiveCamera: true, hasActiveMicrophone: true, muted: false });
    await settle();
    expect(ownMedia()).toMatchObject({ cameraStopped: false, microphoneStopped: false });
    // Nothing stopped: "Try again" captures nothing.
    await h.runtime.restartStoppedDevices();
    expect(h.mediaDevices.requests).toHaveLength(requestsBefore + 1);
  });

  it('a microphone unplugged in the call comes back by itself once the browser lists it again, muted as it was, and what was said of it goes; a camera turned off holds no device, so its unplugging says and captures nothing', async () => {
    const h = await inTheCall();
    const [microphone, camera] = (['audio', 'video'] as const).map((kind) => h.mediaDevices.captured[0]!.find((track) => track.kind === kind)!);
    await h.runtime.toggleCamera();
    h.runtime.setMicrophoneMuted(true);
    expect(camera!.readyState).toBe('ended');
    h.mediaDevices.plug('videoinput', false);
    h.mediaDevices.plug('audioinput', false);
    microphone!.endFromSource();
    await settle();
    expect(local(h)).toMatchObject({ camera: { off: true }, microphone: undefined });
    expect(h.store.get(h.runtime.atoms.deviceTroubles)).toEqual({ microphone: expect.objectContaining({ words: 'Your microphone stopped' }) });
    const requestsBefore = h.mediaDevices.requests.length;

    h.mediaDevices.plug('videoinput', true);
    await settle();
    expect(h.mediaDevices.requests).toHaveLength(requestsBefore);
    h.mediaDevices.plug('audioinput', true);
    await settle();
    expect(h.mediaDevices.requests.slice(requestsBefore).map((request) => [Boolean(request.audio), Boolean(request.video)])).toEqual([[true, false]]);
    expect(local(h).microphone).toMatchObject({ muted: true });
    expect(localItems(h)).toEqual([
      { kind: 'video', shared: true, localDisabled: true },
      { kind: 'audio', shared: true, localDisabled: true },
    ]);
    expect(h.store.get(h.runtime.atoms.deviceTroubles)).toEqual({});
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
    // Back once: listing it again later captures nothing more.
    h.mediaDevices.plug('audioinput', true);
    await settle();
    expect(h.mediaDevices.requests).toHaveLength(requestsBefore + 1);
  });

  it('a camera whose device list without it was read before its track ended comes back too once plugged back in', async () => {
    const h = await inTheCall();
    h.mediaDevices.plug('videoinput', false);
    await settle();
    h.mediaDevices.captured[0]!.find((track) => track.kind === 'video')!.endFromSource();
    await settle();
    expect(local(h).camera).toBeUndefined();
    h.mediaDevices.plug('videoinput', true);
    await settle();
    expect(local(h).camera).toMatchObject({ off: false });
    expect(h.store.get(h.runtime.atoms.deviceTroubles)).toEqual({});
  });

  it('a camera unplugged before you left the call is not turned on by being plugged back in after', async () => {
    const h = await inTheCall();
    h.mediaDevices.plug('videoinput', false);
    h.mediaDevices.captured[0]!.find((track) => track.kind === 'video')!.endFromSource();
    await settle();
    await h.runtime.hangUp();
    await settle();
    const requestsBefore = h.mediaDevices.requests.length;
    h.mediaDevices.plug('videoinput', true);
    await settle();
    expect(h.mediaDevices.requests).toHaveLength(requestsBefore);
    expect(local(h).camera).toBeUndefined();
  });

  it('a camera the person turned off is not said when the system stops it, nor turned on when the system gives it back', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    await settle();
    const camera = h.mediaDevices.captured[0]!.find((track) => track.kind === 'video')!;
    await h.runtime.toggleCamera();
    camera.muteFromSource();
    expect(h.store.get(h.runtime.atoms.stoppedBySystem).camera).toBe(false);
    camera.muteFromSource(false);
    expect(local(h).camera).toMatchObject({ off: true, stopped: false });
  });
});

describe('Joining and leaving the call (SPEC §4 Call: join sets joined, leave clears it; the call’s media goes with it), run by one tab of yours (ARCHITECTURE.md "Call ownership", "Call handover")', () => {
  it('"Join call" joins the call and asks for the call lock together, then offers the preview’s media', async () => {
    const h = open();
    await settle();
    const [previewMicrophone, previewCamera] = h.runtime.media.local().map((item) => item.id);
    await h.runtime.joinCall();
    expect(h.log.filter((entry) => !entry.startsWith('threshold'))).toEqual(['joinCall', 'engine start']);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    // The very same tracks, now shared: no second capture.
    expect(h.runtime.media.shared().map((item) => item.id)).toEqual([previewMicrophone, previewCamera]);
    expect(h.mediaDevices.requests).toHaveLength(1);
    h.deliverCallRecord();
    await settle();
    expect(h.engines).toHaveLength(1);
  });

  it('the room hears of the call while the call lock is still being granted (issue 14: the grant is not on the join path); the media goes out once it is', async () => {
    const h = open({ grantAtOnce: false });
    await settle();
    const joining = h.runtime.joinCall();
    await settle();
    expect(h.log.filter((entry) => !entry.startsWith('threshold'))).toEqual(['joinCall', 'engine start']);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('joining');
    expect(localItems(h).some((item) => item.shared)).toBe(false);
    h.engines[0]?.grantLock();
    await joining;
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(localItems(h).every((item) => item.shared)).toBe(true);
  });

  it('a call that cannot start in this tab is left again: the room does not keep you in a call you are not in', async () => {
    const h = open({ unsupported: true });
    await settle();
    await h.runtime.joinCall();
    expect(h.log.filter((entry) => !entry.startsWith('threshold'))).toEqual(['joinCall', 'engine start', 'leaveCall']);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('unsupported');
    expect(h.store.get(h.runtime.atoms.problem)).toMatch(/can't make calls/);
  });

  it('a runtime started in the join the page sent before it was up joins that call as its own: the record saying joined already is not a call to take over', async () => {
    // The pending preview's click: the join reached the session as the room's address came, before the call's code (useRoomCallRuntime).
    current = harness({ joined: true });
    const h = current;
    h.runtime.start({ joinCall: true });
    await settle();
    expect(h.log.filter((entry) => !entry.startsWith('threshold'))).toEqual(['joinCall', 'engine start']);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(localItems(h).every((item) => item.shared)).toBe(true);
  });

  it('a runtime started in a join says when the call’s lock has answered — granted, or held by another tab — so that the stage mounts after it, not before (issue 14, the join path)', async () => {
    current = harness({ joined: true, grantAtOnce: false });
    const h = current;
    let answered = false;
    void h.runtime.start({ joinCall: true }).then(() => (answered = true));
    await settle();
    expect(h.log).toContain('engine start');
    expect(answered).toBe(false);
    h.engines[0]?.grantLock();
    await settle();
    expect(answered).toBe(true);

    const elsewhere = harness({ joined: true, lockHeldElsewhere: true, grantAtOnce: false });
    let answeredElsewhere = false;
    void elsewhere.runtime.start({ joinCall: true }).then(() => (answeredElsewhere = true));
    await settle();
    expect(elsewhere.store.get(elsewhere.runtime.atoms.phase)).toBe('elsewhere');
    expect(answeredElsewhere).toBe(true);
    elsewhere.runtime.dispose();
  });

  it('joined while another tab of yours ran the call, which hung up before its lock came free: this tab joins the call again as it takes it', async () => {
    // The pending preview's click in a second tab, before that tab knew the first one runs the call.
    current = harness({ joined: true, lockHeldElsewhere: true, grantAtOnce: false });
    const h = current;
    h.runtime.start({ joinCall: true });
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('elsewhere');
    // The first tab hangs up: the record says left, and the call's lock comes free.
    h.setCallJoined(false);
    h.engines[0]?.grantLock();
    await settle();
    expect(h.log.filter((entry) => entry === 'joinCall')).toHaveLength(2);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    h.deliverCallRecord();
    h.deliverCallRecord();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(h.engines).toHaveLength(1);
  });

  it('after hanging up, the preview’s toggles say what the next join turns on, capturing nothing; turned off there, the join leaves it off', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    h.runtime.setMicrophoneMuted(true);
    await h.runtime.hangUp();
    h.deliverCallRecord();
    await settle();
    expect(h.runtime.media.local()).toEqual([]);
    // Muted when you left: the join would keep you so; the camera was on.
    expect(h.store.get(h.runtime.atoms.joinWith)).toEqual({ camera: true, microphone: false });
    const capturesBefore = h.mediaDevices.requests.length;
    await h.runtime.toggleCamera();
    await h.runtime.toggleMicrophone();
    await settle();
    expect(h.store.get(h.runtime.atoms.joinWith)).toEqual({ camera: false, microphone: true });
    expect(h.mediaDevices.requests).toHaveLength(capturesBefore);
    expect(h.runtime.media.local()).toEqual([]);

    await h.runtime.joinCall();
    await settle();
    expect(h.mediaDevices.requests.slice(capturesBefore)).toEqual([expect.objectContaining({ video: false })]);
    expect(local(h).camera).toBeUndefined();
    expect(local(h).microphone?.muted).toBe(false);
    // In the call a toggle of what does not run starts it, as ever.
    await h.runtime.toggleCamera();
    await settle();
    expect(local(h).camera?.off).toBe(false);
  });

  it('a camera asked for by the join that arrives after hanging up is let go at once: after leaving, its light stays off', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await h.runtime.hangUp();
    h.deliverCallRecord();
    await settle();
    let deliver!: () => void;
    h.mediaDevices.starting = new Promise((resolve) => (deliver = resolve));
    const capturesBefore = h.mediaDevices.captured.length;
    void h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    await h.runtime.hangUp();
    h.deliverCallRecord();
    deliver();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('preview');
    expect(h.runtime.media.local()).toEqual([]);
    const late = h.mediaDevices.captured.slice(capturesBefore).flat();
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((track) => track.readyState === 'ended')).toBe(true);
  });

  it('the preview’s camera and microphone still starting as you join and hang up are let go as they arrive: after leaving, the light stays off, and the next join does as its toggles say', async () => {
    current = harness();
    const h = current;
    let deliver!: () => void;
    h.mediaDevices.starting = new Promise((resolve) => (deliver = resolve));
    h.runtime.start();
    await settle();
    expect(h.mediaDevices.requests, 'the preview’s capture is on its way').toHaveLength(1);
    void h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    await h.runtime.hangUp();
    h.deliverCallRecord();
    h.mediaDevices.starting = undefined;
    deliver();
    await settle();
    expect(h.store.get(h.runtime.atoms.leftCall)).toBe(true);
    expect(h.runtime.media.local()).toEqual([]);
    expect(h.mediaDevices.captured.flat().every((track) => track.readyState === 'ended')).toBe(true);
    await h.runtime.toggleCamera();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    expect(localItems(h)).toEqual([{ kind: 'audio', shared: true, localDisabled: false }]);
  });

  it('a screen picked after the call left this tab is let go at once: no screen runs, or waits to be sent, outside a call', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    let pick!: () => void;
    h.mediaDevices.picking = new Promise((resolve) => (pick = resolve));
    const sharing = h.runtime.startScreenShare();
    await settle();
    await h.runtime.hangUp();
    h.deliverCallRecord();
    pick();
    await sharing;
    await settle();
    expect(h.runtime.media.local()).toEqual([]);
    const screen = h.mediaDevices.captured.flat().find((track) => track.deviceId === 'screen');
    expect(screen?.readyState).toBe('ended');
  });

  it('hanging up leaves the call, then closes the engine and stops the media; the record catching up late does not restart the call', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await h.runtime.hangUp();
    expect(h.engines[0]?.closed).toBe(true);
    expect(h.runtime.media.local()).toEqual([]);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('preview');
    // The room hears you left before your sessions end: the peers do not offer you new ones meanwhile.
    expect(h.log.filter((entry) => entry === 'leaveCall' || entry === 'engine close')).toEqual(['leaveCall', 'engine close']);
    // Back in the preview, it says you left; no "Request Media" banner repeats that the camera and microphone are off.
    expect(h.store.get(h.runtime.atoms.leftCall)).toBe(true);
    expect(h.store.get(h.runtime.atoms.requestMediaOffered)).toBe(false);
    // The worker's patch is not here yet: an update of the record that still says joined starts nothing again.
    h.setCallJoined(true);
    await settle();
    expect(h.engines).toHaveLength(1);
    h.deliverCallRecord();
    await settle();
    expect(h.engines).toHaveLength(1);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('preview');
  });

  it('a hang-up the session could not do is said: you are still in the call, and Hang up again leaves it', async () => {
    const h = await inTheCall();
    vi.spyOn(sessionCommandsOf(h).rooms, 'leaveCall').mockRejectedValueOnce(new Error('not connected'));
    await h.runtime.hangUp();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(h.store.get(h.runtime.atoms.problem)).toBe('You are still in the call: leaving failed. Check your connection and press Hang up again.');
    await h.runtime.hangUp();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('preview');
    expect(h.store.get(h.runtime.atoms.problem)).toBeUndefined();
  });

  it('a call another tab runs: this tab says so, keeps no camera, and takes the call over when the lock comes', async () => {
    const h = open({ joined: true, lockHeldElsewhere: true, grantAtOnce: false });
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('elsewhere');
    expect(h.mediaDevices.requests).toHaveLength(0);
    h.engines[0]?.grantLock();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(h.mediaDevices.requests).toHaveLength(1);
    expect(localItems(h).every((item) => item.shared)).toBe(true);
  });

  it('"Move call here" in a tab that shows the call runs elsewhere: it takes the call at once, with your mute and camera, and says it moved', async () => {
    const h = open({ joined: true, lockHeldElsewhere: true, grantAtOnce: false, ownMedia: { ...OWN_MEDIA_DEFAULTS, microphoneMuted: true } });
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('elsewhere');
    h.runtime.moveCallHere();
    await settle();
    expect(h.log).toContain('engine take over');
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(h.store.get(h.runtime.atoms.handover)).toMatchObject({ moved: true, microphoneMuted: true, cameraOff: false });
    expect(local(h).microphone?.muted).toBe(true);
    // Nothing left: the call was not left and joined again.
    expect(h.log.filter((entry) => entry === 'joinCall' || entry === 'leaveCall')).toEqual([]);
  });

  it('the call taken by another tab of yours ("Move call here" there): this one lets it go without leaving it, says nothing of your media as they go, and waits', async () => {
    const h = open({ joined: true });
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    const writes = h.ownMediaWrites.length;
    h.nextEngines.lockHeldElsewhere = true;
    h.nextEngines.grantAtOnce = false;
    h.engines[0]?.takenElsewhere();
    await settle();
    expect(h.engines[0]?.closed).toBe(true);
    expect(h.runtime.media.local()).toEqual([]);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('elsewhere');
    expect(h.log).not.toContain('leaveCall');
    // The call record keeps the mute and camera the other tab resumes with.
    expect(h.ownMediaWrites.slice(writes)).toEqual([]);
    // Waiting for the lock again: it takes the call back if that tab goes away.
    expect(h.engines).toHaveLength(2);
    h.engines[1]?.grantLock();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
  });

  it('a call joined elsewhere and left elsewhere: this tab runs it meanwhile, then lets go of it and its media', async () => {
    const h = open({ joined: true });
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(localItems(h).map((item) => item.shared)).toEqual([true, true]);
    h.setCallJoined(false);
    await settle();
    expect(h.engines[0]?.closed).toBe(true);
    expect(h.runtime.media.local()).toEqual([]);
    expect(h.store.get(h.runtime.atoms.phase)).toBe('preview');
  });
});

describe('the camera follows SPEC §9’s tier of what we send, once it has settled (CAPTURE_TIER_SETTLE_MS)', () => {
  const load = (videoReceivingPeers: number): VideoSendLoad => ({ videoReceivingPeers, sharedVideoStreams: 1, relayInUse: false, relayPending: false });
  /** In the call, its engine running. */
  const inCall = async () => {
    const h = await inTheCall();
    return h;
  };
  const appliedWidths = (h: ReturnType<typeof harness>) => h.mediaDevices.captured.flat().flatMap((track) => (track.kind === 'video' ? track.applied.map((constraints) => constraints.width) : []));

  it('people arriving one after another change the camera’s size once, after the last arrival has held for the settle time, not during the joins', async () => {
    const h = await inCall();
    const call = h.engines[0]!;
    call.sendLoad(load(1));
    await h.clock.advance(CAPTURE_TIER_SETTLE_MS - 500);
    call.sendLoad(load(2));
    await h.clock.advance(CAPTURE_TIER_SETTLE_MS - 1);
    expect(appliedWidths(h)).toEqual([]);
    await h.clock.advance(1);
    await settle();
    expect(appliedWidths(h)).toEqual([{ ideal: VIDEO_RESOLUTION_TIERS[2]!.width }]);
  });

  it('a tier that the load passes through within the settle time is never captured', async () => {
    const h = await inCall();
    h.engines[0]!.sendLoad(load(1));
    await h.clock.advance(CAPTURE_TIER_SETTLE_MS / 2);
    h.engines[0]!.sendLoad(load(0));
    await h.clock.advance(CAPTURE_TIER_SETTLE_MS);
    await settle();
    // Only the tier it settled at: the top one.
    expect(appliedWidths(h)).toEqual([{ ideal: VIDEO_RESOLUTION_TIERS[0]!.width }]);
  });

  it('a call left behind leaves no size: the next join’s camera starts at the top tier, not at the last call’s', async () => {
    const h = await inCall();
    h.engines[0]!.sendLoad(load(2));
    await h.clock.advance(CAPTURE_TIER_SETTLE_MS);
    await settle();
    expect(appliedWidths(h)).toEqual([{ ideal: VIDEO_RESOLUTION_TIERS[2]!.width }]);
    await h.runtime.hangUp();
    h.deliverCallRecord();
    await settle();
    const capturesBefore = h.mediaDevices.requests.length;
    await h.runtime.joinCall();
    await settle();
    expect(h.mediaDevices.requests.slice(capturesBefore).map((request) => request.video)).toEqual([expect.objectContaining({ width: { ideal: VIDEO_RESOLUTION_TIERS[0]!.width } })]);
  });
});

describe('voice analysis starts VOICE_ANALYSIS_DELAY_MS after a voice arrives, and at once for your microphone while the preview shows its level (issue 14)', () => {
  const analysed = (h: ReturnType<typeof harness>) => h.monitors.map((monitor) => monitor.itemId);

  it('your microphone is analysed as it is captured; Bob’s voice only once it has been here the delay, off his join’s first frames', async () => {
    const h = open();
    await settle();
    const microphone = local(h).microphone!.itemId;
    expect(analysed(h)).toEqual([microphone]);
    const bobVoice = receivedTrack(h.runtime.media, 'bob-voice', 'audio', BOB, ROOM);
    await h.clock.advance(VOICE_ANALYSIS_DELAY_MS - 1);
    expect(analysed(h)).toEqual([microphone]);
    await h.clock.advance(1);
    expect(analysed(h)).toEqual([microphone, bobVoice.id]);
  });

  it('your microphone captured as you join (the click came before the capture) is analysed once it has been here the delay, off the join’s first frames', async () => {
    current = harness({ joined: true });
    const h = current;
    h.runtime.start({ joinCall: true });
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    const microphone = local(h).microphone!.itemId;
    expect(analysed(h)).toEqual([]);
    await h.clock.advance(VOICE_ANALYSIS_DELAY_MS - 1);
    expect(analysed(h)).toEqual([]);
    await h.clock.advance(1);
    expect(analysed(h)).toEqual([microphone]);
    expect(monitorOf(h.monitors, microphone).analysisOptions).toEqual({ volumeReports: true });
  });

  it("a shared screen's sound is nobody's voice: never analysed, and no longer once its screen mark comes after it", async () => {
    const h = open();
    await settle();
    const sound = receivedTrack(h.runtime.media, 'bob-sound', 'audio', BOB, ROOM, { screenCapture: true });
    const markedLate = receivedTrack(h.runtime.media, 'bob-late-sound', 'audio', BOB, ROOM);
    await h.clock.advance(VOICE_ANALYSIS_DELAY_MS);
    expect(analysed(h)).not.toContain(sound.id);
    expect(monitorOf(h.monitors, markedLate.id).stopped).toBe(false);
    h.runtime.media.update(markedLate.id, { screenCapture: true });
    expect(monitorOf(h.monitors, markedLate.id).stopped).toBe(true);
  });

  it('a voice gone before the delay is never analysed', async () => {
    const h = open();
    await settle();
    const bobVoice = receivedTrack(h.runtime.media, 'bob-voice', 'audio', BOB, ROOM);
    h.runtime.media.remove(bobVoice.id);
    await h.clock.advance(VOICE_ANALYSIS_DELAY_MS);
    expect(analysed(h)).not.toContain(bobVoice.id);
  });
});

describe('SPEC §3 Peer speaking, yours: what the room is told of your voice follows the call, your mute, push-to-talk and the microphone that runs, and is said again where the room’s record differs', () => {
  it('speaking goes to the room only in the call and unmuted; speaking muted shows the hint instead', async () => {
    const h = open();
    await settle();
    const microphone = local(h).microphone!.itemId;
    monitorOf(h.monitors, microphone).report(true);
    expect(h.spoken).toEqual([]);
    // The local microphone is analysed through an enabled clone, so muting does not deafen the analysis.
    expect(monitorOf(h.monitors, microphone).track.enabled).toBe(true);

    await h.runtime.joinCall();
    expect(h.spoken).toEqual([true]);
    h.runtime.setMicrophoneMuted(true);
    expect(h.spoken).toEqual([true, false]);
    expect(h.store.get(h.runtime.atoms.mutedWhileSpeaking)).toBe(true);
    monitorOf(h.monitors, microphone).report(false);
    expect(h.store.get(h.runtime.atoms.mutedWhileSpeaking)).toBe(false);
    expect(h.runtime.media.get(microphone)).toMatchObject({ speaking: false, lastSpokeAt: 1_000, inputDetected: true, volume: -90 });
  });

  it('a microphone switched while you speak stops speaking for the room as the old one closes, not once the new one has started', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    monitorOf(h.monitors, local(h).microphone!.itemId).report(true);
    expect(h.spoken).toEqual([true]);
    let answer!: () => void;
    h.mediaDevices.starting = new Promise((resolve) => (answer = resolve));
    const picked = h.runtime.selectMicrophone('other-microphone');
    await settle();
    expect(h.spoken).toEqual([true, false]);
    expect(h.self().speaking).toBe(false);
    h.mediaDevices.starting = undefined;
    answer();
    await picked;
  });

  it('under push-to-talk, speaking without holding the key shows no “you are muted” hint: the microphone is muted between turns on purpose', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.setPreferences({ pushToTalk: true });
    const microphone = local(h).microphone!.itemId;
    expect(local(h).microphone?.muted).toBe(true);
    monitorOf(h.monitors, microphone).report(true);
    expect(h.runtime.media.get(microphone)?.speaking).toBe(true);
    expect(h.store.get(h.runtime.atoms.mutedWhileSpeaking)).toBe(false);
  });

  it('after a lost connection, your speaking is said again once the room is rejoined: the room’s new record of you is what it knows, not what this tab last sent', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    const microphone = local(h).microphone!.itemId;
    monitorOf(h.monitors, microphone).report(true);
    expect(h.spoken).toEqual([true]);
    const before = h.self();
    // The connection drops: the room is interrupted and its people, you too, are cleared (SPEC §4); what you say meanwhile goes nowhere.
    h.store.set(sessionStateAtom, (state) => ({
      ...state,
      rooms: { 'room-1': { ...state.rooms['room-1']!, roomState: 'interrupted', joined: false } },
      peers: Object.fromEntries(Object.entries(state.peers).filter(([address]) => address !== SELF)),
    }));
    monitorOf(h.monitors, microphone).report(false, 2_000);
    monitorOf(h.monitors, microphone).report(true, 3_000);
    expect(h.spoken).toEqual([true]);
    // Rejoined: a new record of you, which says you do not speak.
    h.store.set(sessionStateAtom, (state) => ({
      ...state,
      rooms: { 'room-1': { ...state.rooms['room-1']!, roomState: 'joined', joined: true } },
      peers: { ...state.peers, [SELF]: { ...before, joinedRoomAt: 4_000, speaking: false } },
    }));
    expect(h.spoken).toEqual([true, true]);
    expect(h.self().speaking).toBe(true);
  });

  it('a tab that takes the call over corrects a record that still says you speak (the tab that ran the call closed while you spoke)', async () => {
    const h = open({ joined: true, lockHeldElsewhere: true, grantAtOnce: false });
    h.store.set(sessionStateAtom, (state) => ({ ...state, peers: { ...state.peers, [SELF]: { ...state.peers[SELF]!, speaking: true, lastSpokeAt: 500 } } }));
    await settle();
    expect(h.spoken).toEqual([]);
    h.engines[0]?.grantLock();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(h.spoken).toEqual([false]);
    expect(h.self().speaking).toBe(false);
  });

  it('push-to-talk mutes the microphone except while Space or "Hold to talk" is held, and gives the old state back when turned off', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.setPreferences({ pushToTalk: true });
    expect(local(h).microphone?.muted).toBe(true);
    const down = keyEvent('keydown', 'Space');
    h.pageWindow.dispatchEvent(down);
    expect(down.defaultPrevented).toBe(true);
    expect(local(h).microphone?.muted).toBe(false);
    expect(h.store.get(h.runtime.atoms.talkHeld)).toBe(true);
    h.pageWindow.dispatchEvent(keyEvent('keyup', 'Space'));
    expect(local(h).microphone?.muted).toBe(true);
    h.pageWindow.dispatchEvent(keyEvent('keydown', 'KeyA'));
    expect(local(h).microphone?.muted).toBe(true);
    h.runtime.holdToTalk(true);
    expect(local(h).microphone?.muted).toBe(false);
    expect(h.store.get(h.runtime.atoms.talkHeld)).toBe(true);
    h.runtime.holdToTalk(false);
    expect(local(h).microphone?.muted).toBe(true);
    h.setPreferences({ pushToTalk: false });
    expect(local(h).microphone?.muted).toBe(false);
  });
});

describe('SPEC §3 Media item inputLost: a microphone that sends no sound is said while it is on and matters, never guessed from what was not heard', () => {
  it('your microphone that delivers no sound at all is said as such while it is on (the others hear nothing of you), until it delivers some; muted, it is not', async () => {
    const h = open();
    await settle();
    const microphone = local(h).microphone!.itemId;
    const monitor = monitorOf(h.monitors, microphone);
    const silent = () => h.store.get(h.runtime.atoms.microphoneSilent);
    monitor.reportSilence(50);
    await h.clock.advance(MICROPHONE_SILENT_AFTER_MS - 1);
    expect(silent()).toBe(false);
    await h.clock.advance(1);
    expect(h.runtime.media.get(microphone)?.inputLost).toBe(h.clock.now());
    expect(silent()).toBe(true);
    // A report of the same silence keeps it lost.
    monitor.reportSilence(3_100);
    expect(silent()).toBe(true);
    h.runtime.setMicrophoneMuted(true);
    expect(silent()).toBe(false);
    h.runtime.setMicrophoneMuted(false);
    expect(silent()).toBe(true);
    monitor.report(true, 4_000);
    expect(h.runtime.media.get(microphone)).toMatchObject({ inputDetected: true, inputLost: undefined });
    expect(silent()).toBe(false);
    // Gone silent after some sound, it is said again.
    monitor.reportSilence(6_000, { afterSound: true });
    expect(silent()).toBe(true);
  });

  it('a microphone heard within MICROPHONE_SILENT_AFTER_MS is never said to send no sound', async () => {
    const h = open();
    await settle();
    monitorOf(h.monitors, local(h).microphone!.itemId).report(false, 500);
    await h.clock.advance(2 * MICROPHONE_SILENT_AFTER_MS);
    expect(h.store.get(h.runtime.atoms.microphoneSilent)).toBe(false);
  });

  it('a microphone whose analysis failed for good (started again ANALYSIS_WORKER_RESTARTS times) is not said to send no sound: what it did not hear is unknown', async () => {
    const h = open();
    await settle();
    for (let failure = 0; failure <= ANALYSIS_WORKER_RESTARTS; failure += 1) {
      monitorOf(h.monitors, local(h).microphone!.itemId).end(new Error('the worker stopped'));
      await settle();
    }
    await h.clock.advance(2 * MICROPHONE_SILENT_AFTER_MS);
    expect(h.store.get(h.runtime.atoms.microphoneSilent)).toBe(false);
  });

  it('a microphone the system mutes (the track’s muted: no frames come, so no silence is heard) is not speaking and has no input, here and for the room, until it is back and heard afresh', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    const microphone = local(h).microphone!.itemId;
    const capturedMicrophone = h.mediaDevices.captured[0]!.find((track) => track.kind === 'audio')!;
    const before = monitorOf(h.monitors, microphone);
    before.report(true, 1_000);
    expect(h.spoken).toEqual([true]);
    capturedMicrophone.muteFromSource();
    expect(h.runtime.media.get(microphone)).toMatchObject({ externalDisabled: true, speaking: false, inputLost: h.clock.now(), volume: -Infinity });
    expect(h.spoken).toEqual([true, false]);
    expect(h.self().speaking).toBe(false);
    const selfTile = () => h.store.get(h.runtime.atoms.tiles).find((tile) => tile.isSelf);
    expect(selfTile()).toMatchObject({ speaking: false });
    // A report already on its way when the frames stopped changes nothing.
    before.report(true, 2_050);
    expect(h.runtime.media.get(microphone)?.speaking).toBe(false);
    expect(h.spoken).toEqual([true, false]);
    // Back: what the old analysis heard no longer holds; a fresh one starts at once.
    capturedMicrophone.muteFromSource(false);
    await settle();
    const after = monitorOf(h.monitors, microphone);
    expect(after).not.toBe(before);
    expect(before.stopped).toBe(true);
    after.report(true, 3_000);
    expect(h.runtime.media.get(microphone)).toMatchObject({ externalDisabled: false, speaking: true, inputLost: undefined });
    expect(h.spoken).toEqual([true, false, true]);
    expect(selfTile()).toMatchObject({ speaking: true });
  });
});

describe('Issue 14 a steady call that costs little: volume reports reach the level meter alone, and only your own microphone’s come on their own', () => {
  it('a volume report alone reaches the level meter without re-deriving the items and tiles (issue 14: the steady call’s scripting)', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    const microphone = local(h).microphone!.itemId;
    monitorOf(h.monitors, microphone).report(true, 1_000, -40);
    const [items, tiles] = [h.store.get(h.runtime.atoms.items), h.store.get(h.runtime.atoms.tiles)];
    monitorOf(h.monitors, microphone).report(true, 1_250, -35);
    expect(h.store.get(h.runtime.atoms.volumes)[microphone]).toBe(-35);
    expect(h.runtime.media.get(microphone)?.volume).toBe(-35);
    expect(h.store.get(h.runtime.atoms.items)).toBe(items);
    expect(h.store.get(h.runtime.atoms.tiles)).toBe(tiles);
    monitorOf(h.monitors, microphone).report(false, 1_500, -35);
    expect(h.store.get(h.runtime.atoms.items)).not.toBe(items);
  });

  it('only your microphone’s volume is reported on its own (the preview’s meter shows it); a remote voice’s comes with its state changes (issue 14: the steady call’s scripting)', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    const microphone = local(h).microphone!.itemId;
    const bobVoice = receivedTrack(h.runtime.media, 'bob-voice', 'audio', BOB, ROOM);
    await h.clock.advance(VOICE_ANALYSIS_DELAY_MS);
    expect(monitorOf(h.monitors, microphone).analysisOptions).toEqual({ volumeReports: true });
    expect(monitorOf(h.monitors, bobVoice.id).analysisOptions).toEqual({ volumeReports: false });
    monitorOf(h.monitors, bobVoice.id).report(true, 1_000, -42);
    expect(h.runtime.media.get(bobVoice.id)).toMatchObject({ speaking: true, volume: -42 });
  });
});

describe('SPEC §3 Peer: your muted, camera and screen facts, deafen, per-person volume and the voice threshold reach the session', () => {
  it('your muted, camera and screen facts reach your own peer record while you are in the call, and clear when you leave', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    expect(h.self()).toMatchObject({ muted: false, hasActiveMicrophone: true, hasActiveCamera: true });
    h.runtime.setMicrophoneMuted(true);
    expect(h.self()).toMatchObject({ muted: true, hasActiveMicrophone: false });
    await h.runtime.hangUp();
    expect(h.self()).toMatchObject({ muted: false, hasActiveMicrophone: false, hasActiveCamera: false });
    expect(h.reports.every((report) => report.peerAddress === SELF)).toBe(true);
  });

  it('deafen and per-person volume go to the session; the voice threshold follows its preference', async () => {
    const h = open();
    await settle();
    h.runtime.setDeafened(true);
    h.runtime.setPeerVolume(BOB, 0.3);
    await settle();
    const session = h.store.get(sessionStateAtom);
    expect(session.preferences.globalVolumeLimit).toBe(VOLUME.deafenedGlobalLimit);
    expect(session.peers[BOB]?.volumeLimit).toBe(0.3);
    h.runtime.setDeafened(false);
    await settle();
    expect(h.store.get(sessionStateAtom).preferences.globalVolumeLimit).toBe(VOLUME.globalLimitDefault);
    h.setPreferences({ voiceActivityThreshold: -50 });
    expect(h.log).toContain('threshold -50');
  });
});

describe("your microphone and camera asked for from another tab of yours (the pop-out chat): the call's tab does what its own buttons would, and only that", () => {
  it('in the call, each ask sets the device to the value asked (asked twice, it stays so), and the record says so', async () => {
    const h = await inTheCall();
    h.askOwnMedia({ microphoneMuted: true });
    h.askOwnMedia({ microphoneMuted: true });
    await settle();
    expect(local(h).microphone?.muted).toBe(true);
    expect(h.self()).toMatchObject({ muted: true, hasActiveMicrophone: false });
    h.askOwnMedia({ cameraOff: true, microphoneMuted: false });
    await settle();
    expect(local(h).microphone?.muted).toBe(false);
    expect(local(h).camera?.off).toBe(true);
    expect(h.self()).toMatchObject({ muted: false, hasActiveCamera: false });
    h.askOwnMedia({ cameraOff: false });
    await settle();
    expect(local(h).camera?.off).toBe(false);
    expect(h.store.get(callAtomFamily(ROOM))?.ownMedia).toMatchObject({ microphoneMuted: false, cameraOff: false });
  });

  it('a camera on by your word but stopped by the system (shown off there, as the others see it), asked on, is tried again', async () => {
    const h = await inTheCall();
    h.mediaDevices.captured[0]!.find((track) => track.kind === 'video')!.muteFromSource();
    expect(h.self().hasActiveCamera).toBe(false);
    const requestsBefore = h.mediaDevices.requests.length;
    h.askOwnMedia({ cameraOff: false });
    await settle();
    expect(h.mediaDevices.requests.slice(requestsBefore).map((request) => [Boolean(request.audio), Boolean(request.video)])).toEqual([[false, true]]);
    expect(local(h).camera).toMatchObject({ off: false, stopped: false });
    expect(h.self().hasActiveCamera).toBe(true);
  });

  it('out of the call nothing changes: the preview is not the call', async () => {
    const h = open();
    await settle();
    h.askOwnMedia({ microphoneMuted: true, cameraOff: true });
    await settle();
    expect(local(h).microphone?.muted).toBe(false);
    expect(local(h).camera?.off).toBe(false);
  });

  it('while push-to-talk holds the microphone, an ask for it does nothing (its button there is disabled too); the camera still follows', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.setPreferences({ pushToTalk: true });
    h.askOwnMedia({ microphoneMuted: false, cameraOff: true });
    await settle();
    expect(local(h).microphone?.muted).toBe(true);
    expect(local(h).camera?.off).toBe(true);
  });

  it('with no microphone running, an ask to unmute starts one, as the button would', async () => {
    const h = open({ refused: true });
    await settle();
    // The call's own capture is refused again: you are in the call with neither device.
    h.mediaDevices.failNextWith = 'NotAllowedError';
    await h.runtime.joinCall();
    await settle();
    expect(local(h).microphone).toBeUndefined();
    h.askOwnMedia({ microphoneMuted: false });
    await settle();
    expect(local(h).microphone?.muted).toBe(false);
  });

  it('a runtime that is gone no longer follows the asks', async () => {
    const h = open();
    await settle();
    expect(h.ownMediaRequestFollowers.size).toBe(1);
    h.runtime.dispose();
    expect(h.ownMediaRequestFollowers.size).toBe(0);
  });
});

/** A <video> element as attachVideo uses it (Node has none): it plays, and says its frame size by its events. */
function fakeVideoElement(): HTMLVideoElement & { showFrames(width: number, height: number, event: 'loadedmetadata' | 'resize'): void } {
  const element = Object.assign(new EventTarget(), {
    videoWidth: 0,
    videoHeight: 0,
    play: () => Promise.resolve(),
    showFrames(width: number, height: number, event: 'loadedmetadata' | 'resize') {
      element.videoWidth = width;
      element.videoHeight = height;
      element.dispatchEvent(new Event(event));
    },
  });
  return element as unknown as ReturnType<typeof fakeVideoElement>;
}

describe('whom the call keeps although the room says they left goes to the session, so that every tab reads their leave as a reconnection (CallRecord heldPeers)', () => {
  it('the held addresses are sent once per change, the room\'s call record holds them, and nobody is sent once the call lets them go', async () => {
    const h = open({ joined: true });
    await h.runtime.joinCall();
    await settle();
    const bob = peer(BOB, { displayName: 'Bob', joinedCall: true });
    // As the call's DepartureHold writes them: Bob's media still arrives after the room said he left.
    h.store.set(heldPeersAtom, { [ROOM]: [bob] });
    await settle();
    expect(h.heldPeerWrites).toEqual([[BOB]]);
    expect(h.store.get(sessionStateAtom).calls[ROOM]?.heldPeers.map((held) => held.address)).toEqual([BOB]);
    // A new record of the same person (his media facts changed) is no change of whom the call keeps.
    h.store.set(heldPeersAtom, { [ROOM]: [{ ...bob, muted: true }] });
    await settle();
    expect(h.heldPeerWrites).toEqual([[BOB]]);
    h.store.set(heldPeersAtom, {});
    await settle();
    expect(h.heldPeerWrites).toEqual([[BOB], []]);
    expect(h.store.get(sessionStateAtom).calls[ROOM]?.heldPeers).toEqual([]);
  });
});

describe('remote video quality follows the tile (PROTOCOL.md simulcast profile)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('the size of the frames a remote video shows goes to the engine at its first frame and at every change, not after it is detached; your own video’s does not', async () => {
    vi.stubGlobal('MediaStream', FakeStream);
    const h = open({ tileObservers: new FakeTileObservers() });
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    const bobCamera = receivedTrack(h.runtime.media, 'bob-camera', 'video', BOB, ROOM);
    const element = fakeVideoElement();
    const detach = h.runtime.attachVideo(bobCamera.id, element);
    const [engine] = h.engines;
    expect(engine?.frameSizes).toEqual([]);
    element.showFrames(320, 180, 'loadedmetadata');
    element.showFrames(1280, 720, 'resize');
    detach();
    element.showFrames(640, 360, 'resize');
    expect(engine?.frameSizes).toEqual([
      { mediaId: 'bob-camera', size: { width: 320, height: 180 } },
      { mediaId: 'bob-camera', size: { width: 1280, height: 720 } },
    ]);
    const [ownCamera] = h.runtime.media.local('video');
    if (!ownCamera) throw new Error('no camera of your own');
    const ownElement = fakeVideoElement();
    h.runtime.attachVideo(ownCamera.id, ownElement);
    ownElement.showFrames(640, 480, 'resize');
    expect(engine?.frameSizes).toHaveLength(2);
  });

  /** In the call, with Bob's video `id` received and shown in a tile of 300×225: the profiles the tiles asked of the engine. */
  async function inCallShowing(id: string, { screenCapture = false } = {}) {
    // Node has no MediaStream: attachVideo only wraps the item's one track in one.
    vi.stubGlobal('MediaStream', FakeStream);
    const observers = new FakeTileObservers();
    const h = open({ tileObservers: observers });
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    const received = receivedTrack(h.runtime.media, id, 'video', BOB, ROOM, { screenCapture });
    const element = fakeVideoElement();
    h.runtime.attachVideo(received.id, element);
    observers.show(element, 300, 225);
    const [engine] = h.engines;
    const profiles = () => engine?.tileNeeds.map(({ mediaId, need }) => [mediaId, profileForTile(need)]);
    return { h, profiles };
  }

  it('each remote tile’s need goes to the engine, and the enlarged tile asks for the best layer until it is put back', async () => {
    const { h, profiles } = await inCallShowing('bob-camera');
    expect(profiles()).toEqual([['bob-camera', 'low']]);

    h.runtime.toggleEnlarged(`camera:${BOB}`);
    expect(h.store.get(h.runtime.atoms.enlargedTile)).toBe(`camera:${BOB}`);
    h.runtime.toggleEnlarged(`camera:${BOB}`);
    expect(h.store.get(h.runtime.atoms.enlargedTile)).toBeUndefined();
    // Put back it needs less, which it says once it has for TILE_SHRINK_REPORT_DELAY_MS.
    expect(profiles()).toEqual([
      ['bob-camera', 'low'],
      ['bob-camera', 'high'],
    ]);
    await h.clock.advance(TILE_SHRINK_REPORT_DELAY_MS);
    expect(profiles()).toEqual([
      ['bob-camera', 'low'],
      ['bob-camera', 'high'],
      ['bob-camera', 'low'],
    ]);
  });

  it('a screen Bob starts sharing takes the stage and asks for his best layer; sent back to the grid, it stays there as the tiles change, and the speaker view leaves it there too (ScreenStage)', async () => {
    const { h, profiles } = await inCallShowing('bob-screen', { screenCapture: true });
    expect(h.store.get(h.runtime.atoms.enlargedTile)).toBe('screen:bob-screen');
    expect(profiles()).toEqual([['bob-screen', 'high']]);
    expect([...h.store.get(h.runtime.atoms.screensPutBack)]).toEqual([]);

    h.runtime.toggleEnlarged('screen:bob-screen');
    receivedTrack(h.runtime.media, 'bob-camera', 'video', BOB, ROOM);
    expect(h.store.get(h.runtime.atoms.tiles).map((tile) => tile.key)).toEqual(['screen:bob-screen', `camera:${BOB}`, 'camera:self']);
    expect(h.store.get(h.runtime.atoms.enlargedTile)).toBeUndefined();
    expect([...h.store.get(h.runtime.atoms.screensPutBack)]).toEqual([BOB]);
  });
});
