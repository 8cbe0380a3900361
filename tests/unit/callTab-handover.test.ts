import { describe, expect, it } from 'vitest';
import { handoverMessage, ownMediaChange } from '../../src/main-thread/callTab/callHandover';
import type { MediaItem } from '../../src/main-thread/media';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import { BOB, harness, joinListeningOnly, ROOM, settle, startedHarnesses } from './callTab-fakes';
import { OWN_MEDIA_DEFAULTS } from '../../src/shared-worker/rooms/callRecord';

/**
 * Issue 13 "Call state that survives a handover": when the call moves to another tab of yours (the
 * one running it closed, crashed or went away), your mute, camera-off and screen share come along
 * through the session's call record, and the new tab says so. Over the call tab's fakes
 * (tests/unit/callTab-fakes.ts: a fake Web Lock grant stands for the other tab going away).
 */

const open = startedHarnesses();

const MUTED_CAMERA_OFF = { ...OWN_MEDIA_DEFAULTS, microphoneMuted: true, cameraOff: true };

/** The tab running the call, where you muted your microphone and turned your camera off. */
async function inCallMutedCameraOff(): Promise<ReturnType<typeof harness>> {
  const h = open({ joined: true });
  await settle();
  h.runtime.setMicrophoneMuted(true);
  await h.runtime.toggleCamera();
  await settle();
  return h;
}

/** A tab of yours showing the call another tab runs; it takes the call over when `grantLock` is called. */
async function waitingTab(options: Parameters<typeof harness>[0] = {}) {
  const h = open({ joined: true, lockHeldElsewhere: true, grantAtOnce: false, ...options });
  const added: MediaItem[] = [];
  h.runtime.media.on('added', (item) => added.push({ ...item }));
  await settle();
  expect(h.store.get(h.runtime.atoms.phase)).toBe('elsewhere');
  return { h, added };
}

/** Your microphone and camera in the call: shared, and whether each is muted / off. */
const sharedMedia = (h: ReturnType<typeof harness>) => h.runtime.media.local().map(({ kind, shared, localDisabled }) => ({ kind, shared, localDisabled }));
const MUTED_AND_OFF_SHARED = [
  { kind: 'audio', shared: true, localDisabled: true },
  { kind: 'video', shared: true, localDisabled: true },
];

async function takeOver(h: ReturnType<typeof harness>): Promise<void> {
  h.engines[0]?.grantLock();
  await settle();
  expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
}

describe('the tab running the call keeps your own media on the call record', () => {
  it('muting, turning the camera off and back go to the record once per change', async () => {
    const h = await inCallMutedCameraOff();
    expect(h.store.get(sessionStateAtom).calls[ROOM]?.ownMedia).toEqual(MUTED_CAMERA_OFF);
    await h.runtime.toggleCamera();
    await settle();
    expect(h.ownMediaWrites).toEqual([{ microphoneMuted: true }, { cameraOff: true }, { cameraOff: false }]);
  });

  it('what does not run is written as what you want of it: a tab taking over, wanting what it carries, does not wipe it', () => {
    const nothingRuns = { microphone: undefined, camera: undefined, screenIds: [] };
    const wantsNeither = { microphone: false, camera: false };
    expect(ownMediaChange(MUTED_CAMERA_OFF, nothingRuns, {}, wantsNeither)).toBeUndefined();
    expect(ownMediaChange({ ...MUTED_CAMERA_OFF, sharingScreen: true }, nothingRuns, {}, wantsNeither)).toEqual({ sharingScreen: false });
  });

  it('why the camera did not start goes to the record, for your other tabs to say, and goes from it once the camera runs', async () => {
    const h = open({ joined: true });
    await settle();
    const ownMedia = () => h.store.get(sessionStateAtom).calls[ROOM]?.ownMedia;
    h.mediaDevices.captured[0]?.find((track) => track.kind === 'video')?.endFromSource();
    await settle();
    const stopped = 'Your camera stopped — it may have been unplugged. Plugged back in, it comes back by itself; or pick another and turn it on.';
    expect(ownMedia()).toMatchObject({ cameraTrouble: stopped, microphoneTrouble: '' });
    h.mediaDevices.cameraFailsWith = 'NotReadableError';
    await h.runtime.toggleCamera();
    await settle();
    const held = "Your camera is in use by another app or can't be read. Close other apps that use it and try again.";
    expect(ownMedia()).toMatchObject({ cameraTrouble: held });
    h.mediaDevices.cameraFailsWith = undefined;
    await h.runtime.toggleCamera();
    await settle();
    expect(h.runtime.media.local().some((item) => item.kind === 'video')).toBe(true);
    expect(ownMedia()).toMatchObject({ cameraTrouble: '' });
    expect(h.ownMediaWrites.filter((write) => 'cameraTrouble' in write)).toEqual([{ cameraTrouble: stopped }, { cameraTrouble: held }, { cameraTrouble: '' }]);
  });
});

/** The tab running the call, joined with camera and microphone left off: nothing of yours runs. */
async function inCallListeningOnly(): Promise<ReturnType<typeof harness>> {
  const h = open();
  await joinListeningOnly(h);
  expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
  expect(h.runtime.media.local()).toEqual([]);
  return h;
}

describe('a camera or microphone you left off when joining stays off when the call moves: the record says it is off, not its default', () => {
  it('the record says muted and off, and the tab taking the call over never sends either live', async () => {
    const before = await inCallListeningOnly();
    const record = before.store.get(sessionStateAtom).calls[ROOM]!.ownMedia;
    expect(record).toMatchObject({ microphoneMuted: true, cameraOff: true });
    const { h, added } = await waitingTab({ ownMedia: record });
    await takeOver(h);
    expect(added.filter((item) => !item.localDisabled)).toEqual([]);
    expect(h.runtime.media.local().filter((item) => !item.localDisabled)).toEqual([]);
  });

  it('the page reloaded in that call keeps them muted and off, and joins again so', async () => {
    const before = await inCallListeningOnly();
    const kept = before.runtime.ownMediaInCall();
    expect(kept).toEqual({ microphoneMuted: true, cameraOff: true, sharingScreen: false });
    const after = open();
    await settle();
    await after.runtime.rejoinAfterReload(kept!);
    after.deliverCallRecord();
    await settle();
    expect(after.runtime.media.local().filter((item) => !item.localDisabled)).toEqual([]);
  });
});

describe('a tab taking the call over starts as you left it', () => {
  it('the microphone starts muted and the camera off: neither track is ever enabled, and the camera is never opened (its light stays out)', async () => {
    const { h, added } = await waitingTab({ ownMedia: MUTED_CAMERA_OFF });
    await takeOver(h);
    expect(added.map(({ kind, localDisabled }) => ({ kind, localDisabled }))).toEqual([
      { kind: 'video', localDisabled: true },
      { kind: 'audio', localDisabled: true },
    ]);
    expect(h.runtime.media.local().map(({ shared, localDisabled }) => ({ shared, localDisabled }))).toEqual([
      { shared: true, localDisabled: true },
      { shared: true, localDisabled: true },
    ]);
    expect(h.mediaDevices.requests.map((request) => Boolean(request.video))).toEqual([false]);
    const camera = h.store.get(h.runtime.atoms.local).camera;
    expect(camera && h.runtime.media.getTrack(camera.itemId)?.getSettings().deviceId).toBe('stand-in');
    expect(h.store.get(h.runtime.atoms.local)).toMatchObject({ microphone: { muted: true }, camera: { off: true } });
    // What the record carries stays: the new tab confirms it, it does not overwrite it.
    expect(h.store.get(sessionStateAtom).calls[ROOM]?.ownMedia).toEqual(MUTED_CAMERA_OFF);
    // Your own Peer record never says your microphone is on.
    expect(h.reports.filter((report) => report.change.hasActiveMicrophone === true)).toEqual([]);
  });

  it('unmuting in the new tab works as ever and is kept for the next move', async () => {
    const { h } = await waitingTab({ ownMedia: MUTED_CAMERA_OFF });
    await takeOver(h);
    await h.runtime.toggleMicrophone();
    await settle();
    expect(h.store.get(h.runtime.atoms.local).microphone?.muted).toBe(false);
    expect(h.store.get(sessionStateAtom).calls[ROOM]?.ownMedia.microphoneMuted).toBe(false);
  });

  it('nothing muted: the new tab starts with microphone and camera on, as before', async () => {
    const { h, added } = await waitingTab();
    await takeOver(h);
    expect(added.map((item) => item.localDisabled)).toEqual([false, false]);
  });

  it('a screen share is not restarted (the browser needs a click): the record forgets it and the notice offers it again', async () => {
    const { h } = await waitingTab({ ownMedia: { ...OWN_MEDIA_DEFAULTS, sharingScreen: true } });
    await takeOver(h);
    expect(h.store.get(h.runtime.atoms.local).screenIds).toEqual([]);
    expect(h.store.get(h.runtime.atoms.handover)).toMatchObject({ moved: true, screenShareEnded: true });
    expect(h.store.get(sessionStateAtom).calls[ROOM]?.ownMedia.sharingScreen).toBe(false);
  });

  it('push-to-talk, deafen and per-person volume are the session’s: the new tab applies them as they are', async () => {
    const { h, added } = await waitingTab();
    h.setPreferences({ pushToTalk: true, globalVolumeLimit: 0 });
    h.runtime.setPeerVolume(BOB, 0.3);
    await takeOver(h);
    // Push-to-talk: the new microphone starts muted while the key is up.
    expect(added.find((item) => item.kind === 'audio')?.localDisabled).toBe(true);
    expect(h.store.get(sessionStateAtom).peers[BOB]?.volumeLimit).toBe(0.3);
    expect(h.store.get(sessionStateAtom).preferences).toMatchObject({ pushToTalk: true, globalVolumeLimit: 0 });
  });
});

describe('the new tab says the call moved here, in plain words', () => {
  it('the notice names the move and how your media stands until you dismiss it', async () => {
    const { h } = await waitingTab({ ownMedia: MUTED_CAMERA_OFF });
    await takeOver(h);
    const handover = h.store.get(h.runtime.atoms.handover);
    expect(handover).toEqual({ moved: true, microphoneMuted: true, cameraOff: true, screenShareEnded: false });
    expect(handoverMessage(handover!, { pushToTalk: false, globalVolumeLimit: 1 })).toBe("Your call moved to this tab — you're muted and your camera is off.");
    h.runtime.dismissHandover();
    expect(h.store.get(h.runtime.atoms.handover)).toBeUndefined();
  });

  it('push-to-talk, deafen and an ended screen share are said too', () => {
    const handover = { moved: true, microphoneMuted: false, cameraOff: false, screenShareEnded: true };
    expect(handoverMessage(handover, { pushToTalk: true, globalVolumeLimit: 0 })).toBe(
      "Your call moved to this tab — push-to-talk is on (hold Space or \"Hold to talk\" to talk), your camera is on and you can't hear the others (deafened). Your screen share stopped; share it again if you still want to.",
    );
  });

  it('a call this tab joined itself shows no notice', async () => {
    const h = open();
    await settle();
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(h.store.get(h.runtime.atoms.handover)).toBeUndefined();
  });

  it('leaving the call clears the notice', async () => {
    const { h } = await waitingTab({ ownMedia: MUTED_CAMERA_OFF });
    await takeOver(h);
    h.setCallJoined(false);
    await settle();
    expect(h.store.get(h.runtime.atoms.handover)).toBeUndefined();
  });
});

describe('a page reloaded in the call, with no tab of yours running it since, joins it again as you left it (callAfterReload)', () => {
  it('what the page keeps as it goes is your media in the call; the page after it joins muted, camera off, its share ended, and says so', async () => {
    const before = await inCallMutedCameraOff();
    expect(before.runtime.ownMediaInCall()).toEqual({ microphoneMuted: true, cameraOff: true, sharingScreen: false });
    await before.runtime.hangUp();
    before.deliverCallRecord();
    await settle();
    expect(before.runtime.ownMediaInCall(), 'out of the call nothing is kept').toBeUndefined();

    const after = open();
    await settle();
    expect(after.store.get(after.runtime.atoms.phase)).toBe('preview');
    await after.runtime.rejoinAfterReload({ microphoneMuted: true, cameraOff: true, sharingScreen: true });
    after.deliverCallRecord();
    await settle();
    expect(after.store.get(after.runtime.atoms.phase)).toBe('in-call');
    expect(sharedMedia(after)).toEqual(MUTED_AND_OFF_SHARED);
    expect(after.store.get(after.runtime.atoms.handover)).toEqual({ moved: false, microphoneMuted: true, cameraOff: true, screenShareEnded: true });
    expect(handoverMessage(after.store.get(after.runtime.atoms.handover)!, { pushToTalk: false, globalVolumeLimit: 1 })).toBe(
      "You're back in the call — you're muted and your camera is off. Your screen share stopped; share it again if you still want to.",
    );
  });

  it('the page’s preview capture still on its way as the page joins again: what it brings starts muted and off, never live', async () => {
    const h = harness();
    const enabledOnArrival: Array<{ kind: string; localDisabled: boolean }> = [];
    h.runtime.media.on('added', (item) => enabledOnArrival.push({ kind: item.kind, localDisabled: item.localDisabled }));
    let captured!: () => void;
    h.mediaDevices.starting = new Promise((resolve) => (captured = resolve));
    h.runtime.start();
    await settle();
    expect(h.mediaDevices.requests, 'the preview’s capture is on its way').toHaveLength(1);
    const rejoined = h.runtime.rejoinAfterReload({ microphoneMuted: true, cameraOff: true, sharingScreen: false });
    await settle();
    h.mediaDevices.starting = undefined;
    captured();
    await rejoined;
    h.deliverCallRecord();
    await settle();
    expect(h.store.get(h.runtime.atoms.phase)).toBe('in-call');
    expect(sharedMedia(h)).toEqual(MUTED_AND_OFF_SHARED);
    expect(enabledOnArrival, 'neither track was live for a moment').toEqual([
      { kind: 'audio', localDisabled: true },
      { kind: 'video', localDisabled: true },
    ]);
    expect(h.mediaDevices.requests, 'nothing captured twice').toHaveLength(1);
    h.runtime.dispose();
  });
});
