import { describe, expect, it } from 'vitest';
import { TOTAL_VIDEO_BITRATE_BPS, VIDEO_RESOLUTION_TIERS } from '../../src/protocol/constants';
import type { Logger } from '../../src/common/logger';
import { maxBitratePerVideo } from '../../src/main-thread/media/videoBitrate';
import {
  adjustVideoCaptureResolution,
  captureResolutionTier,
  resolutionConstraintsFor,
  selectResolutionTier,
} from '../../src/main-thread/media/videoResolution';

const ALL_SUPPORTED: MediaTrackSupportedConstraints = { width: true, height: true, frameRate: true };

/** A track's view for the pure decision: its current settings and constraints as plain objects. */
const trackState = (settings: MediaTrackSettings, constraints: MediaTrackConstraints = {}) => ({
  getSettings: () => settings,
  getConstraints: () => constraints,
});

describe('capture resolution tiers (SPEC §9 defaults: 0, 1, 2, 3, 5)', () => {
  it.each([
    [0, 1280, 720, 30],
    [1, 800, 600, 30],
    [2, 640, 480, 30],
    [3, 320, 240, 15],
    [4, 320, 240, 15],
    [5, 320, 240, 10],
    [12, 320, 240, 10],
  ])('%i outgoing videos → %ix%i at %i fps (largest threshold ≤ count)', (count, width, height, frameRate) => {
    expect(selectResolutionTier(VIDEO_RESOLUTION_TIERS, count)).toEqual({ width, height, frameRate });
  });

  it('uses the lowest tier below every threshold, and nothing for an empty table', () => {
    const tiers = { 2: { width: 640, height: 480, frameRate: 30 }, 4: { width: 320, height: 240, frameRate: 15 } };
    expect(selectResolutionTier(tiers, 0)).toEqual(tiers[2]);
    expect(selectResolutionTier(tiers, 3)).toEqual(tiers[2]);
    expect(selectResolutionTier({}, 3)).toBeUndefined();
  });

  it('counts outgoing videos as receiving peers × shared videos in the mesh', () => {
    expect(captureResolutionTier({ videoReceivingPeers: 1, sharedVideoStreams: 1, relayInUse: false, relayPending: false })).toEqual(VIDEO_RESOLUTION_TIERS[1]);
    expect(captureResolutionTier({ videoReceivingPeers: 2, sharedVideoStreams: 2, relayInUse: false, relayPending: false })).toEqual(VIDEO_RESOLUTION_TIERS[3]);
    expect(captureResolutionTier({ videoReceivingPeers: 0, sharedVideoStreams: 1, relayInUse: false, relayPending: false })).toEqual(VIDEO_RESOLUTION_TIERS[0]);
  });

  it('captures at the lowest threshold’s tier through the relay, which picks simulcast layers per receiver', () => {
    expect(captureResolutionTier({ videoReceivingPeers: 8, sharedVideoStreams: 1, relayInUse: true, relayPending: false })).toEqual(VIDEO_RESOLUTION_TIERS[0]);
  });

  it('takes the relay’s tier as soon as the relay is on its way: a move to the relay changes the camera once, not to the mesh’s tier first', () => {
    expect(captureResolutionTier({ videoReceivingPeers: 2, sharedVideoStreams: 1, relayInUse: false, relayPending: true })).toEqual(VIDEO_RESOLUTION_TIERS[0]);
  });
});

describe('resolution constraints (SPEC §5: only supported settings, only on a change of 1 or more)', () => {
  const tier = { width: 320, height: 240, frameRate: 15 };

  it('asks for the tier as ideals when the track differs', () => {
    expect(resolutionConstraintsFor(tier, trackState({ width: 640, height: 480, frameRate: 30 }), ALL_SUPPORTED)).toEqual({
      width: { ideal: 320 },
      height: { ideal: 240 },
      frameRate: { ideal: 15 },
    });
  });

  it('changes nothing when every setting is within less than 1 of the tier', () => {
    expect(resolutionConstraintsFor(tier, trackState({ width: 320, height: 240.4, frameRate: 14.2 }), ALL_SUPPORTED)).toBeUndefined();
  });

  it('changes everything when one setting differs by exactly 1', () => {
    expect(resolutionConstraintsFor(tier, trackState({ width: 320, height: 240, frameRate: 14 }), ALL_SUPPORTED)).toBeDefined();
  });

  it('does not ask again for what the constraints already ask (ideal, exact or a bare number)', () => {
    const delivered = { width: 352, height: 288, frameRate: 15 };
    expect(resolutionConstraintsFor(tier, trackState(delivered, { width: { ideal: 320 }, height: { exact: 240 }, frameRate: 15 }), ALL_SUPPORTED)).toBeUndefined();
    expect(resolutionConstraintsFor(tier, trackState(delivered, { width: { ideal: 640 }, height: { ideal: 240 } }), ALL_SUPPORTED)).toBeDefined();
  });

  it('includes only the settings the browser supports, and nothing when it supports none', () => {
    expect(resolutionConstraintsFor(tier, trackState({ width: 640, height: 480 }), { width: true, height: true })).toEqual({
      width: { ideal: 320 },
      height: { ideal: 240 },
    });
    expect(resolutionConstraintsFor(tier, trackState({ width: 640 }), {})).toBeUndefined();
  });

  it('says so when the camera stays smaller than the tier although the browser took the constraints', async () => {
    const infos: string[] = [];
    const logger: Logger = { info: (message) => infos.push(message), error: () => {} };
    // Fake track: what Chromium does when another capture holds the device open at 640×480.
    const held = { ...trackState({ width: 640, height: 480, frameRate: 30 }), readyState: 'live', applyConstraints: () => Promise.resolve() };
    await adjustVideoCaptureResolution([held] as unknown as MediaStreamTrack[], { width: 1280, height: 720, frameRate: 30 }, ALL_SUPPORTED, logger);
    expect(infos).toEqual([
      'camera 640×480 → 1280×720 at 30 fps',
      'camera stays 640×480: the device cannot capture larger, or another capture holds it at that size',
    ]);
  });

  it('logs a refused change with the spec’s words and carries on with the next track', async () => {
    const errors: string[] = [];
    const logger: Logger = { info: () => {}, error: (message) => errors.push(message) };
    const applied: MediaTrackConstraints[] = [];
    // Fake tracks: a browser rejects applyConstraints on ideals only in rare device states.
    const refusing = {
      ...trackState({ width: 640, height: 480, frameRate: 30 }),
      readyState: 'live',
      applyConstraints: () => Promise.reject(new DOMException('device busy', 'NotReadableError')),
    };
    const accepting = {
      ...trackState({ width: 640, height: 480, frameRate: 30 }),
      readyState: 'live',
      applyConstraints: (constraints: MediaTrackConstraints) => {
        applied.push(constraints);
        return Promise.resolve();
      },
    };
    await adjustVideoCaptureResolution([refusing, accepting] as unknown as MediaStreamTrack[], tier, ALL_SUPPORTED, logger);
    expect(errors).toEqual(['Could not adjust video capture resolution: device busy']);
    expect(applied).toHaveLength(1);
  });
});

describe('video bitrate budget (SPEC §9: 1,800,000 ÷ (receiving peers × shared videos))', () => {
  it.each([
    [1, 1, false, 1_800_000],
    [2, 1, false, 900_000],
    [4, 1, false, 450_000],
    [3, 2, false, 300_000],
    [7, 1, false, 257_142],
    [5, 2, true, 900_000],
    [9, 1, true, 1_800_000],
  ])('%i peers × %i videos (relay %s) → %i bps each', (videoReceivingPeers, sharedVideoStreams, relayInUse, expected) => {
    expect(maxBitratePerVideo({ videoReceivingPeers, sharedVideoStreams, relayInUse, relayPending: false })).toBe(expected);
  });

  it('divides by the real count, not min(count, 1)', () => {
    const load = { videoReceivingPeers: 3, sharedVideoStreams: 1, relayInUse: false, relayPending: false };
    expect(maxBitratePerVideo(load)).toBe(TOTAL_VIDEO_BITRATE_BPS / 3);
  });

  it('is split among the peers while the relay is only on its way (the mesh carries the video meanwhile)', () => {
    expect(maxBitratePerVideo({ videoReceivingPeers: 2, sharedVideoStreams: 1, relayInUse: false, relayPending: true })).toBe(TOTAL_VIDEO_BITRATE_BPS / 2);
  });

  it('gives the whole budget when there is nothing to divide', () => {
    expect(maxBitratePerVideo({ videoReceivingPeers: 0, sharedVideoStreams: 1, relayInUse: false, relayPending: false })).toBe(TOTAL_VIDEO_BITRATE_BPS);
    expect(maxBitratePerVideo({ videoReceivingPeers: 3, sharedVideoStreams: 0, relayInUse: false, relayPending: false })).toBe(TOTAL_VIDEO_BITRATE_BPS);
  });
});
