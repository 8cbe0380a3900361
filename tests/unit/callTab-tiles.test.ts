import { describe, expect, it } from 'vitest';
import { callTiles } from '../../src/main-thread/callTab/callTiles';
import { localMediaState } from '../../src/main-thread/callTab/localMediaState';
import type { MediaItem } from '../../src/main-thread/media';
import { BOB, peer, ROOM, SELF } from './callTab-fakes';

const CAROL = `${ROOM}/carol`;

function item(id: string, overrides: Partial<MediaItem>): MediaItem {
  return {
    id,
    kind: 'video',
    source: 'local',
    owner: undefined,
    roomAddress: undefined,
    trackId: id,
    streamId: 'camera-stream',
    name: undefined,
    shared: true,
    screenCapture: false,
    localDisabled: false,
    remoteDisabled: false,
    externalDisabled: false,
    renderMirrored: false,
    speaking: false,
    inputDetected: false,
    inputLost: undefined,
    lastSpokeAt: undefined,
    volume: -Infinity,
    profile: undefined,
    replaces: undefined,
    loaded: true,
    width: undefined,
    height: undefined,
    createdAt: 0,
    ...overrides,
  };
}

const microphone = item('mic', { kind: 'audio' });
const camera = item('cam', { renderMirrored: true });
const screen = item('screen', { streamId: 'screen-stream', screenCapture: true });
const screenAudio = item('screen-audio', { kind: 'audio', streamId: 'screen-stream', screenCapture: true });
const remote = (id: string, owner: string, overrides: Partial<MediaItem> = {}) => item(id, { source: 'remote', owner, roomAddress: ROOM, streamId: `${owner}-stream`, ...overrides });

const self = peer(SELF, { displayName: 'Alice' });
const bob = peer(BOB, { displayName: 'Bob', joinedCall: true });
const carol = peer(CAROL, { displayName: 'Carol', joinedCall: true });

describe('Your own media (SPEC §3 Media item screenCapture): the microphone is told from audio shared with a screen, the camera from the screen', () => {
  it('tells the microphone from audio shared with a screen, and the camera from the screen', () => {
    expect(localMediaState([microphone, camera, screen, screenAudio])).toEqual({
      microphone: { itemId: 'mic', muted: false, stopped: false, offForOthers: false, silent: false, speaking: false },
      camera: { itemId: 'cam', off: false, stopped: false, offForOthers: false, mirrored: true },
      screenIds: ['screen'],
    });
    expect(localMediaState([screenAudio, screen]).microphone).toBeUndefined();
  });
});

describe('Call tiles: a tile per person in the call or sending media, the others\' screens first (SPEC §3 Peer speaking, muted, lastSpokeAt, volumeLimit; Media item remoteDisabled)', () => {
  it('orders the others\' screens first, then the others as they arrived, then yourself and your own screen', () => {
    const tiles = callTiles({
      peers: [self, bob, carol],
      items: [microphone, camera, screen, remote('bob-cam', BOB), remote('bob-mic', BOB, { kind: 'audio' }), remote('carol-screen', CAROL, { screenCapture: true })],
      selfDisplayName: 'Alice',
    });
    expect(tiles.map((tile) => tile.key)).toEqual(['screen:carol-screen', `camera:${BOB}`, `camera:${CAROL}`, 'camera:self', 'screen:screen']);
    expect(tiles[1]).toMatchObject({ displayName: 'Bob', videoItemId: 'bob-cam', audioItemIds: ['bob-mic'], mirrored: false, volumeLimit: 0.8 });
    // Carol sends only her screen: her camera tile shows her without video.
    expect(tiles[2]).toMatchObject({ displayName: 'Carol', videoItemId: undefined, audioItemIds: [] });
    expect(tiles[3]).toMatchObject({ isSelf: true, displayName: 'Alice', videoItemId: 'cam', mirrored: true, muted: false, volumeLimit: undefined });
  });

  it('shows the others only while they are in the call or send media', () => {
    const tiles = callTiles({ peers: [self, { ...bob, joinedCall: false }], items: [], selfDisplayName: 'Alice' });
    expect(tiles.map((tile) => tile.key)).toEqual(['camera:self']);
  });

  it('says muted when every audio a person sends is muted, or their record says so; no ring while muted', () => {
    const mutedAudio = remote('bob-mic', BOB, { kind: 'audio', remoteDisabled: true, speaking: true });
    const [bobTile] = callTiles({ peers: [bob], items: [mutedAudio], selfDisplayName: 'Alice' });
    expect(bobTile).toMatchObject({ muted: true, speaking: false });
    const [fromRecord] = callTiles({ peers: [{ ...bob, muted: true }], items: [], selfDisplayName: 'Alice' });
    expect(fromRecord?.muted).toBe(true);
  });

  it('lights a person up from their announcement or from our analysis of their audio', () => {
    const [announced] = callTiles({ peers: [{ ...bob, speaking: true }], items: [], selfDisplayName: 'Alice' });
    const [heard] = callTiles({ peers: [bob], items: [remote('bob-mic', BOB, { kind: 'audio', speaking: true })], selfDisplayName: 'Alice' });
    expect([announced?.speaking, heard?.speaking]).toEqual([true, true]);
  });

  it('says when a person last started speaking: the later of their announcement and our analysis of their audio', () => {
    const [announcedLater] = callTiles({ peers: [{ ...bob, lastSpokeAt: 20 }], items: [remote('bob-mic', BOB, { kind: 'audio', lastSpokeAt: 10 })], selfDisplayName: 'Alice' });
    const [heardLater] = callTiles({ peers: [{ ...bob, lastSpokeAt: 20 }], items: [remote('bob-mic', BOB, { kind: 'audio', lastSpokeAt: 30 })], selfDisplayName: 'Alice' });
    const [never] = callTiles({ peers: [bob], items: [remote('bob-mic', BOB, { kind: 'audio' })], selfDisplayName: 'Alice' });
    expect([announcedLater?.lastSpokeAt, heardLater?.lastSpokeAt, never?.lastSpokeAt]).toEqual([20, 30, undefined]);
  });

  it('shows yourself without video while your camera is off, muted while your microphone is, and lit only while unmuted', () => {
    const tiles = callTiles({ peers: [self], items: [{ ...microphone, localDisabled: true, speaking: true }, { ...camera, localDisabled: true }], selfDisplayName: 'Alice' });
    expect(tiles).toEqual([expect.objectContaining({ key: 'camera:self', videoItemId: undefined, muted: true, speaking: false })]);
    const [speaking] = callTiles({ peers: [self], items: [{ ...microphone, speaking: true }], selfDisplayName: 'Alice' });
    expect(speaking).toMatchObject({ muted: false, speaking: true });
  });

  it('says you are muted while you have no microphone, but not while it is on its way', () => {
    const [none] = callTiles({ peers: [self], items: [], selfDisplayName: 'Alice' });
    expect(none?.muted).toBe(true);
    const [starting] = callTiles({ peers: [self], items: [], selfDisplayName: 'Alice', selfMicrophoneStarting: true });
    expect(starting?.muted).toBe(false);
    const [mutedMeanwhile] = callTiles({ peers: [self], items: [{ ...microphone, localDisabled: true }], selfDisplayName: 'Alice', selfMicrophoneStarting: true });
    expect(mutedMeanwhile?.muted).toBe(true);
  });

  it('a remote video its sender paused shows no video', () => {
    const tiles = callTiles({ peers: [bob], items: [remote('bob-cam', BOB, { remoteDisabled: true })], selfDisplayName: 'Alice' });
    expect(tiles[0]?.videoItemId).toBeUndefined();
  });
});
