import { describe, expect, it } from 'vitest';
import {
  ATTENTION_MS,
  CAPTURE_ABORT_RETRIES,
  CHAT,
  CLIENT_VERSION,
  CONFIG_REQUEST,
  DEFAULT_PREFERENCES,
  DEVICES_REFRESH_MS,
  KEEPALIVE_INTERVAL_MS,
  MEDIA_RELAY,
  NETWORK_EVENTS,
  RECONNECT,
  ROOM_CONFIG_REQUEST,
  SESSION_TERMINATION,
  SIMULCAST_LAYERS,
  TOTAL_VIDEO_BITRATE_BPS,
  VIDEO_LOADED_CHECK_TIMEOUT_MS,
  VIDEO_RESOLUTION_TIERS,
  VOICE_ACTIVITY,
  VOLUME,
} from '../../src/protocol/constants';

/**
 * Every value of src/protocol/constants.ts that SPEC.md gives, against the plain number SPEC.md
 * gives (the code and the other tests use the constants, so only this file catches a wrong one).
 * One describe per SPEC section; each case quotes the SPEC sentence it holds.
 */

describe('SPEC §3 "Entities and their fields"', () => {
  it('Peer: "volumeLimit (default 0.8)"', () => {
    expect(VOLUME.peerLimitDefault).toBe(0.8);
  });

  it('User preferences: "displayName (default \'Anonymous\' when no configured name exists), globalVolumeLimit (1), mediaEnabled (true), pushToTalk (false), requestingMedia (video), voiceActivityThreshold (-65)"', () => {
    expect(DEFAULT_PREFERENCES).toMatchObject({
      displayName: 'Anonymous',
      globalVolumeLimit: 1,
      mediaEnabled: true,
      pushToTalk: false,
      requestingMedia: 'video',
      voiceActivityThreshold: -65,
    });
  });
});

describe('SPEC §4 "States and transitions"', () => {
  it('Chat state: "Composing turns to paused after 10 s without change."', () => {
    expect(CHAT.pausedAfterMs).toBe(10_000);
  });

  it('Attention request: "a peer\'s requestingAttention stays true for 5 s, then false."', () => {
    expect(ATTENTION_MS).toBe(5_000);
  });

  it('Session termination: "Connections are then recomputed after 500 ms (failed-transport) or 2 s." "A disconnected or interrupted session still in that state after 5 s is ended as failed-transport."', () => {
    expect(SESSION_TERMINATION).toEqual({ recomputeAfterFailedTransportMs: 500, recomputeAfterOtherErrorMs: 2_000, interruptedTimeoutMs: 5_000 });
  });

  it('Media relay: "the server\'s minimum peer count (from config, default 2). It is disabled after the count stays below the minimum for 5 s."', () => {
    expect(MEDIA_RELAY).toEqual({ defaultMinimumPeers: 2, shutdownDelayMs: 5_000 });
  });
});

describe('SPEC §5 "Validation rules"', () => {
  it('"Chat sends on Enter unless Shift is held, or unless sendOnEnter is false": sendOnEnter is on by default', () => {
    expect(DEFAULT_PREFERENCES.sendOnEnter).toBe(true);
  });
});

describe('SPEC §7 "The calls it makes"', () => {
  it('Config request: "Up to 10 attempts 1 s apart; each attempt times out after 10 s."', () => {
    expect(CONFIG_REQUEST).toEqual({ attempts: 10, retryDelayMs: 1_000, timeoutMs: 10_000 });
  });

  it('Room config request: "Up to 5 attempts 1 s apart."', () => {
    // Its timeoutMs is Parley's own: SPEC gives the room config request no timeout.
    expect(ROOM_CONFIG_REQUEST).toMatchObject({ attempts: 5, retryDelayMs: 1_000 });
  });

  it('Signalling: "Keepalive every 90 s. Reconnect after (attempts+1) seconds plus up to 2 s random."', () => {
    expect(KEEPALIVE_INTERVAL_MS).toBe(90_000);
    expect(RECONNECT).toEqual({ stepMs: 1_000, maxJitterMs: 2_000 });
  });

  it('Browser network events: "online triggers a reconnect after a random delay of up to 5 s … Offline triggers a disconnect after 5 s if still offline."', () => {
    expect(NETWORK_EVENTS).toEqual({ onlineMaxDelayMs: 5_000, offlineDisconnectDelayMs: 5_000 });
  });
});

describe('SPEC §8 "Error catalogue"', () => {
  it('Media capture: "AbortError retries up to 12 times with increasing delay."', () => {
    expect(CAPTURE_ABORT_RETRIES).toBe(12);
  });
});

describe('SPEC §9 "Business constants and limits"', () => {
  it('"Client library version 1.30.3."', () => {
    expect(CLIENT_VERSION).toBe('1.30.3');
  });

  it('"Video resolution tiers (peer-count threshold: size, frame rate): 0: 1280x720 at 30; 1: 800x600 at 30; 2: 640x480 at 30; 3: 320x240 at 15; 5: 320x240 at 10."', () => {
    expect(VIDEO_RESOLUTION_TIERS).toEqual({
      0: { width: 1280, height: 720, frameRate: 30 },
      1: { width: 800, height: 600, frameRate: 30 },
      2: { width: 640, height: 480, frameRate: 30 },
      3: { width: 320, height: 240, frameRate: 15 },
      5: { width: 320, height: 240, frameRate: 10 },
    });
  });

  it('"Total video bitrate budget 1,800,000"', () => {
    expect(TOTAL_VIDEO_BITRATE_BPS).toBe(1_800_000);
  });

  it('"Simulcast layers: low (scale down 4), medium (scale down 2), high." (high at full size)', () => {
    expect(SIMULCAST_LAYERS).toEqual([
      { rid: 'low', scaleResolutionDownBy: 4 },
      { rid: 'medium', scaleResolutionDownBy: 2 },
      { rid: 'high', scaleResolutionDownBy: 1 },
    ]);
  });

  it('"Voice activity: default threshold -65 dB; analysis interval 50 ms; history 10 samples; speaking turns on at 5 or more of the last 10 above threshold …; frequency range 85 to 300 Hz; FFT size 512; smoothing 0.1; audio context resume retry every 1 s."', () => {
    expect(VOICE_ACTIVITY).toEqual({
      defaultThresholdDb: -65,
      intervalMs: 50,
      historySize: 10,
      speakingOnAtLeast: 5,
      minFrequencyHz: 85,
      maxFrequencyHz: 300,
      fftSize: 512,
      smoothing: 0.1,
      audioContextResumeRetryMs: 1_000,
    });
    expect(DEFAULT_PREFERENCES.voiceActivityThreshold).toBe(-65);
  });

  it('"Peer volume limit default 0.8; global limit 1. Deafen sets global limit 0; undeafen sets 1."', () => {
    expect(VOLUME).toEqual({ peerLimitDefault: 0.8, globalLimitDefault: 1, deafenedGlobalLimit: 0 });
    expect(DEFAULT_PREFERENCES.globalVolumeLimit).toBe(1);
  });

  it('"Device list refresh every 3 s. … Video media-loaded check times out at 500 ms." (The update queue, 100 ms at priority 1, is not built: constants.ts says why.)', () => {
    expect(DEVICES_REFRESH_MS).toBe(3_000);
    expect(VIDEO_LOADED_CHECK_TIMEOUT_MS).toBe(500);
  });

  it('"Chat grouping window 300 s by default. Typing paused after 10 s. Real-time text sent every 700 ms, first send at 100 ms. Chat scroll sticks to the bottom within 30 px."', () => {
    expect(CHAT).toEqual({ groupingWindowMs: 300_000, pausedAfterMs: 10_000, rttIntervalMs: 700, rttFirstSendMs: 100, scrollStickPx: 30 });
  });

  it('"Attention flag 5 s. Relay shutdown delay 5 s. Keepalive 90 s."', () => {
    expect(ATTENTION_MS).toBe(5_000);
    expect(MEDIA_RELAY.shutdownDelayMs).toBe(5_000);
    expect(KEEPALIVE_INTERVAL_MS).toBe(90_000);
  });

  it('"Config retry: 10 times at 1 s, 10 s timeout. Room config retry: 5 times."', () => {
    expect(CONFIG_REQUEST).toEqual({ attempts: 10, retryDelayMs: 1_000, timeoutMs: 10_000 });
    expect(ROOM_CONFIG_REQUEST.attempts).toBe(5);
  });
});
