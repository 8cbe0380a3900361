import { describe, expect, it } from 'vitest';
import { InvalidMutePropertyError, MediaKindError } from '../../src/main-thread/media/errors';
import type { MediaItem } from '../../src/main-thread/media/MediaItem';
import { MediaItems } from '../../src/main-thread/media/MediaItems';
import { ManualClock } from '../support/ManualClock';

/**
 * Fake track: Node has no MediaStreamTrack. It holds only what MediaItems touches. As in browsers,
 * stop() ends it without an 'ended' event; `endFromSource()` is what an unplugged device does.
 */
class FakeTrack extends EventTarget {
  enabled = true;
  muted = false;
  contentHint = '';
  readyState: MediaStreamTrackState = 'live';
  constructor(
    readonly kind: 'audio' | 'video',
    readonly id: string,
  ) {
    super();
  }
  stop(): void {
    this.readyState = 'ended';
  }
  endFromSource(): void {
    this.readyState = 'ended';
    this.dispatchEvent(new Event('ended'));
  }
}

const track = (kind: 'audio' | 'video', id: string) => new FakeTrack(kind, id);
const live = (fake: FakeTrack) => fake as unknown as MediaStreamTrack;
/** Fake stream: only its id is read. */
const stream = (id = 'stream') => ({ id }) as unknown as MediaStream;

function setup() {
  const clock = new ManualClock();
  const media = new MediaItems({ clock });
  const events: string[] = [];
  media.on('added', (item) => events.push(`added ${item.id}`));
  media.on('removed', (item) => events.push(`removed ${item.id}`));
  media.on('localMuteChanged', (item, muted) => events.push(`${muted ? 'muted' : 'unmuted'} ${item.id}`));
  return { clock, media, events };
}

const SPEC_FIELDS = [
  'id', 'kind', 'source', 'owner', 'roomAddress', 'trackId', 'streamId', 'name', 'shared', 'screenCapture',
  'localDisabled', 'remoteDisabled', 'externalDisabled', 'renderMirrored', 'speaking', 'inputDetected',
  'inputLost', 'lastSpokeAt', 'volume', 'profile', 'replaces', 'loaded', 'width', 'height', 'createdAt',
];

describe('local media kind (SPEC §5)', () => {
  it('refuses a video track as local audio, and an audio track as local video or screen, in the spec’s words', () => {
    const { media } = setup();
    expect(() => media.addLocalAudio(live(track('video', 'v')), stream())).toThrow(new MediaKindError('audio', 'video'));
    expect(() => media.addLocalAudio(live(track('video', 'v')), stream())).toThrow('Incorrect media type. Expected audio, got: video');
    expect(() => media.addLocalVideo(live(track('audio', 'a')), stream())).toThrow('Incorrect media type. Expected video, got: audio');
    expect(() => media.addLocalScreen(live(track('audio', 'a')), stream())).toThrow('Incorrect media type. Expected video, got: audio');
    expect(media.all()).toEqual([]);
  });
});

describe('media items (SPEC §3 fields, SPEC §4 rules)', () => {
  it('holds every SPEC §3 field as a clonable record, the live track beside it', () => {
    const { media, clock } = setup();
    const camera = track('video', 'cam');
    const item = media.addLocalVideo(live(camera), stream('s1'), { name: 'Camera' });
    expect(Object.keys(item).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(structuredClone(item)).toEqual(item);
    expect(item).toMatchObject({
      id: 'cam', kind: 'video', source: 'local', trackId: 'cam', streamId: 's1', name: 'Camera', shared: false,
      renderMirrored: true, screenCapture: false, localDisabled: false, volume: -Infinity, createdAt: clock.now(),
    });
    expect(media.getTrack('cam')).toBe(camera);
  });

  it('marks a screen capture, never mirrored, hinted as detail', () => {
    const { media } = setup();
    const screen = track('video', 'screen');
    expect(media.addLocalScreen(live(screen), stream())).toMatchObject({ screenCapture: true, renderMirrored: false });
    expect(screen.contentHint).toBe('detail');
  });

  it('sharing marks the item shared and removes (and stops) the item it replaces', () => {
    const { media, events } = setup();
    const oldCamera = track('video', 'old');
    media.addLocalVideo(live(oldCamera), stream());
    media.share('old');
    media.addLocalVideo(live(track('video', 'new')), stream(), { replaces: 'old' });
    expect(media.get('old')?.shared).toBe(true);

    const shared = media.share('new');
    expect(shared).toMatchObject({ shared: true, replaces: undefined });
    expect(media.get('old')).toBeUndefined();
    expect(oldCamera.readyState).toBe('ended');
    expect(events).toEqual(['added old', 'added new', 'removed old']);
  });

  it('adding a replacement for an unshared item drops that item at once and takes over what it replaced', () => {
    const { media } = setup();
    media.addLocalVideo(live(track('video', 'a')), stream());
    media.share('a');
    media.addLocalVideo(live(track('video', 'b')), stream(), { replaces: 'a' });
    const c = media.addLocalVideo(live(track('video', 'c')), stream(), { replaces: 'b' });
    expect(media.get('b')).toBeUndefined();
    expect(c.replaces).toBe('a');
  });

  it('unsharing marks the item unshared, keeps it, and removes the media that replaces it', () => {
    const { media } = setup();
    const camera = track('video', 'cam');
    const replacement = track('video', 'next');
    media.addLocalVideo(live(camera), stream());
    media.share('cam');
    media.addLocalVideo(live(replacement), stream(), { replaces: 'cam' });

    expect(media.unshare('cam')).toMatchObject({ shared: false });
    expect(media.get('cam')).toBeDefined();
    expect(camera.readyState).toBe('live');
    expect(media.get('next')).toBeUndefined();
    expect(replacement.readyState).toBe('ended');
  });

  it('a track that ends removes its item, unsharing it first', () => {
    const { media, events } = setup();
    const microphone = track('audio', 'mic');
    media.addLocalAudio(live(microphone), stream());
    media.share('mic');
    const sharedStates: boolean[] = [];
    media.on('updated', (item) => sharedStates.push(item.shared));

    microphone.endFromSource();
    expect(media.get('mic')).toBeUndefined();
    expect(sharedStates).toEqual([false]);
    expect(events).toEqual(['added mic', 'removed mic']);
  });

  it('stops listening to a removed item’s track', () => {
    const { media, events } = setup();
    const microphone = track('audio', 'mic');
    media.addLocalAudio(live(microphone), stream());
    media.remove('mic', false);
    expect(microphone.readyState).toBe('live');
    microphone.endFromSource();
    expect(events).toEqual(['added mic', 'removed mic']);
  });

  it('muting a local item disables its track and reports it once, for the call engine to tell peers', () => {
    const { media, events } = setup();
    const microphone = track('audio', 'mic');
    media.addLocalAudio(live(microphone), stream());
    media.addLocalVideo(live(track('video', 'cam')), stream());

    media.muteSelf();
    media.muteSelf();
    expect(microphone.enabled).toBe(false);
    expect(media.get('mic')?.localDisabled).toBe(true);
    expect(media.get('cam')?.localDisabled).toBe(false);
    media.unmuteSelf();
    expect(microphone.enabled).toBe(true);
    expect(events).toEqual(['added mic', 'added cam', 'muted mic', 'unmuted mic']);
  });

  it('pauses camera video, and screens only when asked', () => {
    const { media } = setup();
    media.addLocalVideo(live(track('video', 'cam')), stream());
    media.addLocalScreen(live(track('video', 'screen')), stream());
    media.pauseVideo(false);
    expect([media.get('cam')?.localDisabled, media.get('screen')?.localDisabled]).toEqual([true, false]);
    media.pauseVideo();
    expect(media.get('screen')?.localDisabled).toBe(true);
  });

  it('follows the browser muting a track (externalDisabled)', () => {
    const { media } = setup();
    const camera = track('video', 'cam');
    media.addLocalVideo(live(camera), stream());
    camera.dispatchEvent(new Event('mute'));
    expect(media.get('cam')?.externalDisabled).toBe(true);
    camera.dispatchEvent(new Event('unmute'));
    expect(media.get('cam')?.externalDisabled).toBe(false);
  });

  it('says a camera or microphone the system stops as off for the others (localMuteChanged), and on when it is back unless turned off here meanwhile; a screen keeps its share', () => {
    const { media, events } = setup();
    const camera = track('video', 'cam');
    const microphone = track('audio', 'mic');
    const screen = track('video', 'screen');
    media.addLocalVideo(live(camera), stream());
    media.addLocalAudio(live(microphone), stream());
    media.addLocalScreen(live(screen), stream());
    camera.dispatchEvent(new Event('mute'));
    microphone.dispatchEvent(new Event('mute'));
    screen.dispatchEvent(new Event('mute'));
    expect(['cam', 'mic', 'screen'].map((id) => media.isOffForOthers(id))).toEqual([true, true, false]);
    camera.dispatchEvent(new Event('unmute'));
    media.setLocalDisabled('mic', true);
    microphone.dispatchEvent(new Event('unmute'));
    expect(['cam', 'mic'].map((id) => media.isOffForOthers(id))).toEqual([false, true]);
    expect(events.filter((event) => !event.startsWith('added'))).toEqual(['muted cam', 'muted mic', 'unmuted cam']);
    // The system's mute never touches the person's own switch.
    expect([camera.enabled, microphone.enabled]).toEqual([true, false]);
  });

  it('adds remote media with its owner, low profile for video, silenced when the owner is muted here', () => {
    const { media, events } = setup();
    const audio = track('audio', 'remote-a');
    const base = { stream: stream(), owner: 'room@muc/bob', roomAddress: 'room@muc', screenCapture: false };
    const remoteAudio = media.addRemoteMedia({ ...base, id: 'ra', track: live(audio), ownerMuted: true });
    const remoteVideo = media.addRemoteMedia({ ...base, id: 'rv', track: live(track('video', 'remote-v')), ownerMuted: true });
    expect(remoteAudio).toMatchObject({ source: 'remote', owner: 'room@muc/bob', profile: undefined, localDisabled: true });
    expect(remoteVideo).toMatchObject({ profile: 'low', localDisabled: false, screenCapture: false });
    expect(audio.enabled).toBe(false);
    expect(events.filter((event) => event.startsWith('muted'))).toEqual([]);
  });

  it('applies a peer’s mute to the receiving item, and refuses any property but audio or video', () => {
    const { media } = setup();
    const base = { stream: stream(), owner: 'room@muc/bob', roomAddress: 'room@muc', ownerMuted: false };
    media.addRemoteMedia({ ...base, id: 'ra', track: live(track('audio', 'x')), screenCapture: false });
    media.addRemoteMedia({ ...base, id: 'rs', track: live(track('video', 'y')), screenCapture: true });
    const receiving = { receivingAudioMediaId: 'ra', receivingVideoMediaId: 'rs' };

    media.setRemoteMuted(receiving, 'audio', true);
    expect(media.get('ra')?.remoteDisabled).toBe(true);
    expect(media.peerActivity('room@muc/bob')).toEqual({ hasActiveMicrophone: false, hasActiveCamera: false, hasActiveScreenCapture: true });
    expect(() => media.setRemoteMuted(receiving, 'screen', true)).toThrow(InvalidMutePropertyError);
    expect(() => media.setRemoteMuted(receiving, '', false)).toThrow('Invalid mute property');
  });

  it('fills loaded, width and height from the playback probe', async () => {
    const clock = new ManualClock();
    const probed: MediaItem[] = [];
    const media = new MediaItems({
      clock,
      probeLoaded: async (item) => {
        probed.push(item);
        return { loaded: true, width: 640, height: 480 };
      },
    });
    media.addLocalVideo(live(track('video', 'cam')), stream());
    await clock.advance(0);
    expect(probed.map((item) => item.id)).toEqual(['cam']);
    expect(media.get('cam')).toMatchObject({ loaded: true, width: 640, height: 480 });
  });
});

describe('SPEC §4 Media: an item is reported updated only when a write changes it', () => {
  it('reports a write only when it changes something', () => {
    const { media } = setup();
    media.addLocalAudio(live(track('audio', 'mic')), stream());
    const updates: number[] = [];
    media.on('updated', (item) => updates.push(item.volume));
    media.update('mic', { volume: -50 });
    media.update('mic', { volume: -50 });
    media.update('mic', { volume: -Infinity });
    expect(updates).toEqual([-50, -Infinity]);
    expect(media.update('gone', { volume: 0 })).toBeUndefined();
  });
});
