import { describe, expect, it } from 'vitest';
import { VOICE_ACTIVITY } from '../../src/protocol/constants';
import { DEFAULT_INPUT_LOST_AFTER_MS, VoiceActivityDetector, type VoiceActivitySample } from '../../src/worker/VoiceActivityDetector';

/**
 * −40 dBFS, in the AES17 sense where a full-scale sine is 0 dBFS: a sine of peak amplitude
 * 10^(−40/20) = 0.01 of full scale (RMS 0.00707).
 */
const MINUS_40_DBFS_PEAK = 10 ** (-40 / 20);

interface Segment {
  readonly seconds: number;
  /** Omitted: digital silence. */
  readonly frequencyHz?: number;
  readonly amplitude?: number;
}

/** Mono PCM of consecutive segments; each tone starts at phase 0. */
function pcm(sampleRate: number, segments: readonly Segment[]): Float32Array {
  const total = segments.reduce((sum, segment) => sum + Math.round(segment.seconds * sampleRate), 0);
  const samples = new Float32Array(total);
  let offset = 0;
  for (const { seconds, frequencyHz, amplitude = MINUS_40_DBFS_PEAK } of segments) {
    const length = Math.round(seconds * sampleRate);
    if (frequencyHz !== undefined) {
      for (let n = 0; n < length; n++) samples[offset + n] = amplitude * Math.sin((2 * Math.PI * frequencyHz * n) / sampleRate);
    }
    offset += length;
  }
  return samples;
}

/** Feeds `samples` in chunks of `chunkSize` (the last one shorter) and collects every analysis sample. */
function analyse(samples: Float32Array, sampleRate: number, chunkSize: number, detector = new VoiceActivityDetector()): VoiceActivitySample[] {
  const taken: VoiceActivitySample[] = [];
  for (let offset = 0; offset < samples.length; offset += chunkSize) {
    taken.push(...detector.push(samples.subarray(offset, offset + chunkSize), sampleRate));
  }
  return taken;
}

/** Indices of the samples at which `speaking` changed, with the new value. */
function speakingChanges(samples: readonly VoiceActivitySample[]): Array<[number, boolean]> {
  const changes: Array<[number, boolean]> = [];
  let speaking = false;
  for (const sample of samples) {
    if (sample.speaking !== speaking) changes.push([sample.index, sample.speaking]);
    speaking = sample.speaking;
  }
  return changes;
}

const TEN_MS_AT_48K = 480;

describe('VoiceActivityDetector (SPEC §9)', () => {
  it('samples every 50 ms of audio: 1 s gives 20 samples, stamped 50, 100, … 1000 ms', () => {
    const samples = analyse(pcm(48_000, [{ seconds: 1 }]), 48_000, TEN_MS_AT_48K);
    expect(samples).toHaveLength(1_000 / VOICE_ACTIVITY.intervalMs);
    expect(samples.map((sample) => sample.index)).toEqual([...Array(20).keys()]);
    expect(samples[0]!.streamTimeMs).toBe(50);
    expect(samples.at(-1)!.streamTimeMs).toBe(1_000);
  });

  it('a 150 Hz tone at −40 dBFS turns speaking on at the 5th sample above threshold and off after 10 quiet samples', () => {
    const samples = analyse(pcm(48_000, [{ seconds: 1, frequencyHz: 150 }, { seconds: 1 }]), 48_000, TEN_MS_AT_48K);
    // Windowed 512-point spectrum of a 0.01-peak sine: about 20·log10(0.01/2 · 0.42) ≈ −53.6 dB on a bin
    // centre, a little less between bins (150 Hz lies between 93.75 and 187.5 Hz at 48 kHz).
    const toneLevels = samples.slice(1, 20).map((sample) => sample.levelDb);
    for (const level of toneLevels) {
      expect(level).toBeGreaterThan(-56);
      expect(level).toBeLessThan(-53);
    }
    // Every tone sample (0–19) is above −65 dB; the history holds 5 of them at sample 4.
    expect(samples.slice(0, 20).every((sample) => sample.aboveThreshold)).toBe(true);
    expect(samples.slice(0, 4).some((sample) => sample.speaking)).toBe(false);
    // Silence from sample 20 (smoothing leaves 0.1·|X|, 20 dB down, already below −65 dB):
    // the 10th quiet sample, 29, empties the history of above-threshold samples.
    expect(samples.slice(20).every((sample) => !sample.aboveThreshold)).toBe(true);
    expect(speakingChanges(samples)).toEqual([
      [4, true],
      [29, false],
    ]);
  });

  it('a 2 kHz tone at the same level, and silence, never turn speaking on', () => {
    const tone = analyse(pcm(48_000, [{ seconds: 2, frequencyHz: 2_000 }]), 48_000, TEN_MS_AT_48K);
    // Only the window's far side lobes reach 85–300 Hz: far below any sensible threshold.
    expect(Math.max(...tone.map((sample) => sample.levelDb))).toBeLessThan(-120);
    expect(tone.some((sample) => sample.speaking)).toBe(false);

    const silence = analyse(pcm(48_000, [{ seconds: 2 }]), 48_000, TEN_MS_AT_48K);
    expect(silence.every((sample) => sample.levelDb === -Infinity && !sample.speaking)).toBe(true);
  });

  it('the threshold decides: above the tone level nothing happens, and a runtime change applies from the next sample', () => {
    const tone = pcm(48_000, [{ seconds: 2, frequencyHz: 150 }]);
    expect(speakingChanges(analyse(tone, 48_000, TEN_MS_AT_48K, new VoiceActivityDetector({ thresholdDb: -50 })))).toEqual([]);

    const detector = new VoiceActivityDetector({ thresholdDb: -50 });
    const first = analyse(tone.subarray(0, 24_000), 48_000, TEN_MS_AT_48K, detector);
    expect(first).toHaveLength(10);
    expect(first.some((sample) => sample.aboveThreshold)).toBe(false);
    detector.setThreshold(VOICE_ACTIVITY.defaultThresholdDb);
    const rest = analyse(tone.subarray(24_000), 48_000, TEN_MS_AT_48K, detector);
    // Samples 10–14 are the first five above −65 dB.
    expect(speakingChanges(rest)).toEqual([[14, true]]);

    expect(() => detector.setThreshold(Number.NaN)).toThrow(RangeError);
    expect(() => new VoiceActivityDetector({ thresholdDb: -Infinity })).toThrow(RangeError);
  });

  it('judges the band as SimpleWebRTC 1.30.3’s Hark does, by the mean of its bins (1 and 2 at 48 kHz), not the loudest: a −40 dBFS tone at the band’s top, 281 Hz, is not speech', () => {
    // Its bins 1 and 2 read about −75 and −59 dB (a mean of about −66 to −67), bin 3 about −54.5.
    const samples = analyse(pcm(48_000, [{ seconds: 1, frequencyHz: 281.25 }]), 48_000, TEN_MS_AT_48K);
    for (const { levelDb } of samples.slice(1)) expect(levelDb).toBeGreaterThan(-70);
    expect(samples.some((sample) => sample.aboveThreshold)).toBe(false);
    expect(speakingChanges(samples)).toEqual([]);
  });

  it('chunk sizes do not change a single result, at 48 kHz and at 16 kHz', () => {
    const segments: Segment[] = [{ seconds: 0.3 }, { seconds: 0.8, frequencyHz: 150 }, { seconds: 0.9 }];
    const at48k = pcm(48_000, segments);
    const reference = analyse(at48k, 48_000, TEN_MS_AT_48K);
    for (const chunkSize of [1, 128, 441, 512, 2_399, 4_800, at48k.length]) {
      expect(analyse(at48k, 48_000, chunkSize)).toEqual(reference);
    }
    // Tone from 300 ms: samples 6–21 contain it; the 5th above-threshold sample is 10.
    expect(speakingChanges(reference)).toEqual([
      [10, true],
      [31, false],
    ]);

    const at16k = pcm(16_000, segments);
    const reference16k = analyse(at16k, 16_000, 160);
    for (const chunkSize of [1, 100, 160, 333, at16k.length]) {
      expect(analyse(at16k, 16_000, chunkSize)).toEqual(reference16k);
    }
  });

  it('takes 50 ms samples on the sample grid at 44.1 kHz, where 50 ms is 2205 samples', () => {
    const samples = analyse(pcm(44_100, [{ seconds: 1, frequencyHz: 150 }]), 44_100, 441);
    expect(samples).toHaveLength(20);
    expect(speakingChanges(samples)).toEqual([[4, true]]);
  });

  it('keeps speaking across a sample-rate change, restarting only the analysis window', () => {
    const detector = new VoiceActivityDetector();
    const before = analyse(pcm(48_000, [{ seconds: 0.5, frequencyHz: 150 }]), 48_000, TEN_MS_AT_48K, detector);
    expect(before.at(-1)!.speaking).toBe(true);
    const after = analyse(pcm(16_000, [{ seconds: 1 }]), 16_000, 160, detector);
    // The 10 tone samples (0–9) stay in the history; the 10th quiet one at 16 kHz, 19, ends speaking.
    expect(after[0]!.index).toBe(10);
    expect(after.filter((sample) => sample.speaking).map((sample) => sample.index)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18]);
  });

  it('refuses sample rates at which no FFT bin lies within 85–300 Hz', () => {
    expect(() => new VoiceActivityDetector().push(new Float32Array(10), 192_000)).toThrow(/no 512-point FFT bin/);
    expect(() => new VoiceActivityDetector().push(new Float32Array(10), 0)).toThrow(RangeError);
  });
});

describe('inputDetected and inputLost', () => {
  const intervalsToLose = DEFAULT_INPUT_LOST_AFTER_MS / VOICE_ACTIVITY.intervalMs;

  it('silence is no input at all, nor are residues below −120 dBFS: neither flag ever turns on', () => {
    const samples = analyse(pcm(48_000, [{ seconds: 3 }]), 48_000, TEN_MS_AT_48K);
    expect(samples.some((sample) => sample.inputDetected || sample.inputLost)).toBe(false);
    const residue = analyse(pcm(48_000, [{ seconds: 3, frequencyHz: 150, amplitude: 10 ** (-130 / 20) }]), 48_000, TEN_MS_AT_48K);
    expect(residue.some((sample) => sample.inputDetected || sample.inputLost)).toBe(false);
  });

  it('any sound counts as input, even far below the speaking threshold and outside the voice band', () => {
    // −110 dBFS at 2 kHz, a converter's noise floor: no voice, but a live source.
    const samples = analyse(pcm(48_000, [{ seconds: 0.2 }, { seconds: 0.5, frequencyHz: 2_000, amplitude: 10 ** (-110 / 20) }]), 48_000, TEN_MS_AT_48K);
    expect(samples.map((sample) => sample.inputDetected)).toEqual([false, false, false, false, ...Array(10).fill(true)]);
    expect(samples.some((sample) => sample.speaking)).toBe(false);
  });

  it(`input is lost after ${DEFAULT_INPUT_LOST_AFTER_MS} ms of digital silence, and found again with the next sound`, () => {
    const samples = analyse(
      pcm(48_000, [{ seconds: 1, frequencyHz: 150 }, { seconds: 1.5 }, { seconds: 0.5, frequencyHz: 150 }]),
      48_000,
      TEN_MS_AT_48K,
    );
    expect(samples.every((sample) => sample.inputDetected)).toBe(true);
    // Silence fills samples 20–49; the 20th silent one (1000 ms / 50 ms), 39, marks the input lost,
    // and sample 50, the first with the tone again at 2.5 s, finds it.
    expect(intervalsToLose).toBe(20);
    const lost = samples.filter((sample) => sample.inputLost).map((sample) => sample.index);
    expect(lost).toEqual([39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
  });

  it('a shorter gap, or a configured longer inputLostAfterMs, does not lose the input', () => {
    const gap = pcm(48_000, [{ seconds: 0.5, frequencyHz: 150 }, { seconds: 0.9 }, { seconds: 0.5, frequencyHz: 150 }]);
    expect(analyse(gap, 48_000, TEN_MS_AT_48K).some((sample) => sample.inputLost)).toBe(false);
    const long = pcm(48_000, [{ seconds: 0.5, frequencyHz: 150 }, { seconds: 2 }]);
    expect(analyse(long, 48_000, TEN_MS_AT_48K, new VoiceActivityDetector({ inputLostAfterMs: 3_000 })).some((sample) => sample.inputLost)).toBe(false);
    expect(() => new VoiceActivityDetector({ inputLostAfterMs: 0 })).toThrow(RangeError);
  });
});
