import { describe, expect, it } from 'vitest';
import { describeTracks } from '../../src/main-thread/call/descriptionInfo';
import { peerMediaFacts } from '../../src/main-thread/call/peerMedia';
import { planOutgoingSessions, USER_STREAM_KEY, type ShareableMedia } from '../../src/main-thread/call/sessionPlan';
import { callTiles } from '../../src/main-thread/callTab/callTiles';
import { localMediaState } from '../../src/main-thread/callTab/localMediaState';
import { MediaItems } from '../../src/main-thread/media';
import { ManualClock } from '../support/ManualClock';
import { BOB, peer, ROOM, SELF } from './callTab-fakes';
import { FakeStream, FakeTrack } from './track-fakes';

const asTrack = (track: FakeTrack) => track as unknown as MediaStreamTrack;
const asStream = (stream: FakeStream) => stream as unknown as MediaStream;

/** Your microphone, and a screen shared with its sound (one stream, as getDisplayMedia gives them). */
function sharing() {
  const media = new MediaItems({ clock: new ManualClock() });
  const voiceTrack = new FakeTrack('audio');
  const microphone = media.addLocalAudio(asTrack(voiceTrack), asStream(new FakeStream([voiceTrack])));
  const screenTrack = new FakeTrack('video');
  const soundTrack = new FakeTrack('audio');
  const stream = new FakeStream([screenTrack, soundTrack]);
  const screen = media.addLocalScreen(asTrack(screenTrack), asStream(stream));
  const sound = media.addLocalScreenAudio(asTrack(soundTrack), asStream(stream));
  for (const item of [microphone, screen, sound]) media.share(item.id);
  return { media, microphone: microphone.id, screen: screen.id, sound: sound.id, soundTrack };
}

/** What Bob sends us: his voice, and his screen with its sound (their items as the sessions add them). */
function receivingFromBob({ voiceMuted = false, soundSpeaking = false, withScreen = true } = {}) {
  const media = new MediaItems({ clock: new ManualClock() });
  const add = (id: string, kind: 'audio' | 'video', streamId: string, screenCapture: boolean) => {
    const track = new FakeTrack(kind);
    return media.addRemoteMedia({ id, track: asTrack(track), stream: asStream(Object.assign(new FakeStream([track]), { id: streamId })), owner: BOB, roomAddress: ROOM, screenCapture, ownerMuted: false });
  };
  add('bob-voice', 'audio', 'bob-user', false);
  if (voiceMuted) media.update('bob-voice', { remoteDisabled: true });
  if (withScreen) add('bob-screen', 'video', 'bob-screen-stream', true);
  add('bob-sound', 'audio', 'bob-screen-stream', true);
  if (soundSpeaking) media.update('bob-sound', { speaking: true, lastSpokeAt: 5 });
  return media;
}

const tilesOf = (media: MediaItems) => callTiles({ peers: [peer(SELF, { displayName: 'Alice' }), peer(BOB, { displayName: 'Bob', joinedCall: true })], items: media.all(), selfDisplayName: 'Alice' });

describe("A screen shared with its sound (beyond SPEC §4 Media: a tab's or the system's audio with a screen share): part of the share, never the person's voice", () => {
  it('yours: muting your microphone leaves it on, and it ends with the screen however the screen ends', () => {
    const { media, microphone, screen, sound, soundTrack } = sharing();
    expect(localMediaState(media.all())).toMatchObject({ microphone: { itemId: microphone }, screenIds: [screen] });
    media.muteSelf();
    expect([media.get(microphone)?.localDisabled, media.get(sound)?.localDisabled]).toEqual([true, false]);
    media.remove(screen);
    expect(media.get(sound)).toBeUndefined();
    expect(soundTrack.readyState).toBe('ended');
    expect(media.local().map((item) => item.id)).toEqual([microphone]);
  });

  it("yours: your screen's tile says it goes with its sound, and plays nothing of it to you", () => {
    const { media } = sharing();
    const own = callTiles({ peers: [peer(SELF, { displayName: 'Alice' })], items: media.all(), selfDisplayName: 'Alice' }).find((tile) => tile.kind === 'screen');
    expect(own).toMatchObject({ isSelf: true, withSound: true, audioItemIds: [] });
  });

  it("theirs: plays in their screen's tile; their tile is muted, unlit and without a microphone by their voice alone", () => {
    const media = receivingFromBob({ voiceMuted: true, soundSpeaking: true });
    const [screenTile, bobTile] = tilesOf(media);
    expect(screenTile).toMatchObject({ kind: 'screen', videoItemId: 'bob-screen', audioItemIds: ['bob-sound'], withSound: true });
    expect(bobTile).toMatchObject({ kind: 'camera', audioItemIds: ['bob-voice'], muted: true, speaking: false, lastSpokeAt: undefined, withSound: false });
    const activity = media.peerActivity(BOB);
    expect(activity).toEqual({ hasActiveMicrophone: false, hasActiveCamera: false, hasActiveScreenCapture: true });
    expect(peerMediaFacts(activity, media.forPeer(BOB), false).muted).toBe(true);
  });

  it('theirs: with no voice of theirs arriving, their muted state is what it was, not the sound’s', () => {
    const media = receivingFromBob();
    media.remove('bob-voice');
    expect(peerMediaFacts(media.peerActivity(BOB), media.forPeer(BOB), false, true).muted).toBe(true);
    expect(media.peerActivity(BOB).hasActiveMicrophone).toBe(false);
  });

  it("theirs: a sound whose screen has not arrived plays in the person's tile, and still is not their voice", () => {
    const media = receivingFromBob({ voiceMuted: true, withScreen: false });
    const [bobTile] = tilesOf(media);
    expect(bobTile).toMatchObject({ kind: 'camera', audioItemIds: ['bob-voice', 'bob-sound'], muted: true });
  });

  it('on the wire: it travels in the screen’s session, unmarked as 1.30.3 does; people who asked for audio only get our voice alone', () => {
    const voice: ShareableMedia = { id: 'voice', kind: 'audio', streamId: 'user', screenCapture: false };
    const screen: ShareableMedia = { id: 'screen', kind: 'video', streamId: 'screen-stream', screenCapture: true };
    const sound: ShareableMedia = { id: 'sound', kind: 'audio', streamId: 'screen-stream', screenCapture: true };
    const plan = planOutgoingSessions({
      inCall: true,
      peers: [
        { address: 'r/b', joinedCall: true, requestingMedia: 'video' },
        { address: 'r/c', joinedCall: true, requestingMedia: 'audio' },
      ],
      shared: [voice, screen, sound],
    });
    expect(plan.map((session) => [session.peerAddress, session.streamKey, session.media.map((item) => item.id)])).toEqual([
      ['r/b', USER_STREAM_KEY, ['voice']],
      ['r/b', 'screen:screen-stream', ['screen', 'sound']],
      ['r/c', USER_STREAM_KEY, ['voice']],
    ]);
    expect(
      describeTracks([
        { kind: 'video', trackId: 'screen-track', name: undefined, screenCapture: true },
        { kind: 'audio', trackId: 'sound-track', name: undefined, screenCapture: true },
      ]).map((content) => content.name),
    ).toEqual(['video']);
  });
});
