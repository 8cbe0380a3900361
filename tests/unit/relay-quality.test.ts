import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { receivedPathsAtom } from '../../src/main-thread/call/callAtoms';
import { layerOfWidth, ReceivedPaths, senderWidthOf } from '../../src/main-thread/call/receive/ReceivedPaths';
import { cameraEncodings, screenEncodings } from '../../src/main-thread/call/relay/simulcast';
import { DEFAULT_SENDER_WIDTH, profileForTile, relaySenderWidth } from '../../src/main-thread/call/receive/tileProfile';
import { SIMULCAST_LAYERS, TOTAL_VIDEO_BITRATE_BPS } from '../../src/protocol/constants';

describe('PROTOCOL.md simulcast profile: a receiver asks for the layer its tile needs (profileForTile)', () => {
  it('hidden or empty tiles ask for off; full screen for high', () => {
    expect(profileForTile({ visible: false, width: 1280, height: 720 })).toBe('off');
    expect(profileForTile({ visible: true, width: 0, height: 0 })).toBe('off');
    expect(profileForTile({ visible: true, width: 100, height: 60, fullScreen: true })).toBe('high');
  });

  it('small tiles get low, mid-size medium, large high (against a 1280-wide sender by default)', () => {
    expect(DEFAULT_SENDER_WIDTH).toBe(1280);
    expect(profileForTile({ visible: true, width: 320, height: 180 })).toBe('low');
    expect(profileForTile({ visible: true, width: 480, height: 270 })).toBe('low');
    expect(profileForTile({ visible: true, width: 481, height: 270 })).toBe('medium');
    expect(profileForTile({ visible: true, width: 960, height: 540 })).toBe('medium');
    expect(profileForTile({ visible: true, width: 1200, height: 675 })).toBe('high');
  });

  it('counts device pixels and a tall tile by the width its height needs at 16:9', () => {
    expect(profileForTile({ visible: true, width: 320, height: 180, pixelRatio: 2 })).toBe('medium');
    expect(profileForTile({ visible: true, width: 200, height: 400 })).toBe('medium');
  });

  it('follows a wider sender', () => {
    expect(profileForTile({ visible: true, width: 640, height: 360 }, 1920)).toBe('low');
  });
});

describe('relay layers as the receiver measures them', () => {
  it('judges a frame width against the sender width', () => {
    expect(layerOfWidth(320, 1280)).toBe('low');
    expect(layerOfWidth(640, 1280)).toBe('medium');
    expect(layerOfWidth(1280, 1280)).toBe('high');
    expect(senderWidthOf(undefined)).toBe(DEFAULT_SENDER_WIDTH);
    expect(senderWidthOf(1920)).toBe(1920);
  });

  it('takes the width relay senders capture at from the config’s tiers, when no wider frame was seen', () => {
    const tiers = { 0: { width: 960, height: 540, frameRate: 15 }, 2: { width: 320, height: 240, frameRate: 15 } };
    expect(relaySenderWidth(tiers)).toBe(960);
    expect(relaySenderWidth()).toBe(DEFAULT_SENDER_WIDTH);
    expect(layerOfWidth(400, senderWidthOf(undefined, relaySenderWidth(tiers)))).toBe('medium');
    expect(layerOfWidth(400, senderWidthOf(undefined))).toBe('low');
  });
});

describe('ReceivedPaths: the path and layer each received item arrives at, from the frame sizes its element shows', () => {
  const camera = { roomAddress: 'room@rooms.example', owner: 'room@rooms.example/bob', kind: 'video' as const, requestedProfile: undefined };

  it('a relay video waits for its first frame, then names the layer each size is, judged against the widest frame seen', () => {
    const store = createStore();
    const paths = new ReceivedPaths(store);
    paths.add({ ...camera, mediaId: 'v', path: 'relay' });
    const shown = () => store.get(receivedPathsAtom)['v'];
    expect(shown()).toMatchObject({ path: 'relay', layer: undefined, frameWidth: undefined });
    paths.setFrameSize('v', { width: 320, height: 180 });
    expect(shown()).toMatchObject({ layer: 'low', frameWidth: 320, frameHeight: 180 });
    paths.setFrameSize('v', { width: 1920, height: 1080 });
    expect(shown()).toMatchObject({ layer: 'high', frameWidth: 1920 });
    expect(paths.senderWidth('v')).toBe(1920);
    paths.setFrameSize('v', { width: 960, height: 540 });
    expect(shown()).toMatchObject({ layer: 'medium', frameWidth: 960 });
  });

  it('a relay video asked for again after a pause names the layer of its last frame at once, before any new size shows', () => {
    const store = createStore();
    const paths = new ReceivedPaths(store);
    paths.add({ ...camera, mediaId: 'v', path: 'relay' });
    paths.setFrameSize('v', { width: 320, height: 180 });
    paths.setRequestedProfile('v', 'off');
    expect(store.get(receivedPathsAtom)['v']).toMatchObject({ requestedProfile: 'off', layer: 'off' });
    paths.setRequestedProfile('v', 'low');
    expect(store.get(receivedPathsAtom)['v']).toMatchObject({ requestedProfile: 'low', layer: 'low', frameWidth: 320 });
  });

  it('a paused relay video says off whatever size it last showed; a direct one has a size and no layer; audio and unknown items take no size', () => {
    const store = createStore();
    const paths = new ReceivedPaths(store);
    paths.add({ ...camera, mediaId: 'v', path: 'relay' });
    paths.add({ ...camera, mediaId: 'm', path: 'mesh' });
    paths.add({ ...camera, mediaId: 'a', path: 'relay', kind: 'audio' });
    paths.setRequestedProfile('v', 'off');
    paths.setFrameSize('v', { width: 1280, height: 720 });
    paths.setFrameSize('m', { width: 640, height: 480 });
    paths.setFrameSize('a', { width: 640, height: 480 });
    paths.setFrameSize('gone', { width: 640, height: 480 });
    const all = store.get(receivedPathsAtom);
    expect(all['v']).toMatchObject({ layer: 'off', frameWidth: 1280 });
    expect(all['m']).toMatchObject({ layer: undefined, frameWidth: 640, frameHeight: 480 });
    expect(all['a']).toMatchObject({ frameWidth: undefined });
    expect(Object.keys(all).sort()).toEqual(['a', 'm', 'v']);
    paths.dispose();
    expect(store.get(receivedPathsAtom)).toEqual({});
  });
});

describe('simulcast encodings (SPEC §9)', () => {
  it('camera: low / medium / high at scale 4 / 2 / 1, the budget shared by pixels', () => {
    const encodings = cameraEncodings(TOTAL_VIDEO_BITRATE_BPS);
    expect(encodings.map(({ rid, scaleResolutionDownBy }) => ({ rid, scaleResolutionDownBy }))).toEqual(SIMULCAST_LAYERS.map((layer) => ({ ...layer })));
    const bitrates = encodings.map((encoding) => encoding.maxBitrate ?? 0);
    expect(bitrates).toEqual([85714, 342857, 1371428]);
    expect(bitrates.reduce((sum, bitrate) => sum + bitrate, 0)).toBeLessThanOrEqual(TOTAL_VIDEO_BITRATE_BPS);
    expect(cameraEncodings(undefined).every((encoding) => encoding.maxBitrate === undefined)).toBe(true);
  });

  it('camera: every layer is sent until the relay says which it wants (LAYERS_WANTED); then those up to it', () => {
    expect(cameraEncodings(undefined).map((encoding) => encoding.active)).toEqual([true, true, true]);
    expect(cameraEncodings(undefined, 0).map((encoding) => encoding.active)).toEqual([true, false, false]);
    expect(cameraEncodings(TOTAL_VIDEO_BITRATE_BPS, 1).map((encoding) => encoding.active)).toEqual([true, true, false]);
    expect(cameraEncodings(TOTAL_VIDEO_BITRATE_BPS, 2).map((encoding) => encoding.active)).toEqual([true, true, true]);
  });

  it('screen: one encoding with the whole budget', () => {
    expect(screenEncodings(900_000)).toEqual([{ maxBitrate: 900_000 }]);
  });
});
