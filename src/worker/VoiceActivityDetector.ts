import { VOICE_ACTIVITY } from '../protocol/constants';
import { AnalyserNodeSpectrum } from './AnalyserNodeSpectrum';

/**
 * Input counts as present when some sample reaches −120 dBFS. No live capture chain is that quiet
 * (a good 24-bit converter's own noise sits around −110 dBFS, a microphone's well above), while a
 * muted, disabled, ended or broken source delivers zeros, or filter residues far below it.
 */
const DIGITAL_SILENCE_CEILING = 10 ** (-120 / 20);

/**
 * inputLost: after input was detected, this much uninterrupted digital silence means the source
 * stopped delivering sound. Speech pauses never get there (a live microphone is never digitally
 * silent); a disabled track, a dead device or a finished file does.
 */
export const DEFAULT_INPUT_LOST_AFTER_MS = 1_000;

export interface VoiceActivityDetectorOptions {
  /** Speaking threshold in dB, the preference voiceActivityThreshold (SPEC §9 default −65). */
  thresholdDb?: number;
  /** Digital silence needed, after input was detected, before inputLost turns on. */
  inputLostAfterMs?: number;
}

/** One analysis sample, taken after every VOICE_ACTIVITY.intervalMs of audio. */
export interface VoiceActivitySample {
  /** 0 for the first sample since the detector started. */
  readonly index: number;
  /** Audio time at which the sample was taken, ms from the first pushed frame. */
  readonly streamTimeMs: number;
  /** The mean of the bins within 85–300 Hz, in dB as AnalyserNode reports them (−Infinity for digital silence). */
  readonly levelDb: number;
  readonly aboveThreshold: boolean;
  /** On once ≥ 5 of the last 10 samples were above the threshold; off once none are. */
  readonly speaking: boolean;
  /** Some sample reached DIGITAL_SILENCE_CEILING since the detector started. */
  readonly inputDetected: boolean;
  /** Input was detected, then digital silence lasted inputLostAfterMs; off again when sound returns. */
  readonly inputLost: boolean;
}

/**
 * SPEC §9 voice activity on raw mono PCM, as an AnalyserNode (fftSize 512, smoothing 0.1) polled
 * every 50 ms would see it, but clocked by the audio itself: a sample is taken each time another
 * 50 ms of samples has arrived, over the latest 512 of them. Results therefore do not depend on
 * how the audio is chunked, nor on timers. Pure: no clocks, no I/O, runs anywhere.
 */
export class VoiceActivityDetector {
  private thresholdDb: number;
  private readonly inputLostAfterMs: number;
  private readonly spectrum = new AnalyserNodeSpectrum(VOICE_ACTIVITY.fftSize, VOICE_ACTIVITY.smoothing);
  private readonly decibels = new Float64Array(VOICE_ACTIVITY.fftSize / 2);
  /** The latest fftSize samples as a ring; `ringWrite` is the oldest slot, the next to overwrite. */
  private readonly ring = new Float32Array(VOICE_ACTIVITY.fftSize);
  private readonly timeDomain = new Float32Array(VOICE_ACTIVITY.fftSize);
  private ringWrite = 0;

  private sampleRate = 0;
  private voiceBins = { first: 0, last: -1 };
  /** Samples since the current sample rate took effect, and how many analysis points have passed since. */
  private samplesAtRate = 0;
  private analysesAtRate = 0;
  private nextAnalysisAt = 0;

  private samplesTaken = 0;
  private readonly aboveHistory: boolean[] = [];
  private speaking = false;
  private soundInInterval = false;
  private silentIntervals = 0;
  private inputDetected = false;
  private inputLost = false;

  constructor(options: VoiceActivityDetectorOptions = {}) {
    this.thresholdDb = validThreshold(options.thresholdDb ?? VOICE_ACTIVITY.defaultThresholdDb);
    this.inputLostAfterMs = options.inputLostAfterMs ?? DEFAULT_INPUT_LOST_AFTER_MS;
    if (!(this.inputLostAfterMs > 0 && Number.isFinite(this.inputLostAfterMs))) {
      throw new RangeError(`inputLostAfterMs must be a positive number, got ${this.inputLostAfterMs}`);
    }
  }

  /** Applies from the next sample; samples already in the history keep their verdicts. */
  setThreshold(thresholdDb: number): void {
    this.thresholdDb = validThreshold(thresholdDb);
  }

  /**
   * Feeds the next mono samples (any count) at `sampleRate`, and returns the samples whose
   * 50 ms completed within them. A changed sample rate restarts the analysis window (the old
   * samples are not comparable) but keeps the history and the speaking and input states.
   */
  push(samples: Float32Array, sampleRate: number): VoiceActivitySample[] {
    if (!(sampleRate > 0 && Number.isFinite(sampleRate))) throw new RangeError(`invalid sample rate ${sampleRate}`);
    if (sampleRate !== this.sampleRate) this.useSampleRate(sampleRate);
    const taken: VoiceActivitySample[] = [];
    let offset = 0;
    while (offset < samples.length) {
      const count = Math.min(this.nextAnalysisAt - this.samplesAtRate, samples.length - offset);
      this.write(samples, offset, count);
      offset += count;
      this.samplesAtRate += count;
      if (this.samplesAtRate === this.nextAnalysisAt) {
        taken.push(this.analyse());
        this.analysesAtRate += 1;
        this.nextAnalysisAt = this.analysisPoint(this.analysesAtRate + 1);
      }
    }
    return taken;
  }

  private useSampleRate(sampleRate: number): void {
    const { fftSize, minFrequencyHz, maxFrequencyHz } = VOICE_ACTIVITY;
    // The band's bins as SimpleWebRTC 1.30.3's Hark picks them (from round(min / spread) up to,
    // not including, round(max / spread)), so that both clients judge the same voice alike.
    const binSpreadHz = sampleRate / fftSize;
    const first = Math.round(minFrequencyHz / binSpreadHz);
    const last = Math.min(Math.round(maxFrequencyHz / binSpreadHz) - 1, fftSize / 2 - 1);
    // Bin 0 is the signal's offset, no frequency of a voice.
    if (first < 1 || first > last) {
      throw new RangeError(`at ${sampleRate} Hz no ${fftSize}-point FFT bin falls within ${minFrequencyHz}–${maxFrequencyHz} Hz`);
    }
    this.sampleRate = sampleRate;
    this.voiceBins = { first, last };
    this.ring.fill(0);
    this.ringWrite = 0;
    this.spectrum.reset();
    this.samplesAtRate = 0;
    this.analysesAtRate = 0;
    this.nextAnalysisAt = this.analysisPoint(1);
  }

  /** The sample position (since the rate took effect) of the n-th analysis point; rounding keeps 44.1 kHz and other non-multiples on the 50 ms grid. */
  private analysisPoint(n: number): number {
    return Math.round((n * this.sampleRate * VOICE_ACTIVITY.intervalMs) / 1_000);
  }

  private write(samples: Float32Array, offset: number, count: number): void {
    const end = offset + count;
    if (!this.soundInInterval) {
      for (let index = offset; index < end; index++) {
        if (Math.abs(samples[index]!) >= DIGITAL_SILENCE_CEILING) {
          this.soundInInterval = true;
          break;
        }
      }
    }
    // Only the latest fftSize samples matter; copy them into the ring in at most two runs.
    const size = this.ring.length;
    let from = Math.max(offset, end - size);
    while (from < end) {
      const run = Math.min(end - from, size - this.ringWrite);
      this.ring.set(samples.subarray(from, from + run), this.ringWrite);
      from += run;
      this.ringWrite = (this.ringWrite + run) % size;
    }
  }

  private analyse(): VoiceActivitySample {
    // Unroll the ring oldest first: from the write position to the end, then from the start.
    this.timeDomain.set(this.ring.subarray(this.ringWrite));
    this.timeDomain.set(this.ring.subarray(0, this.ringWrite), this.ring.length - this.ringWrite);
    this.spectrum.getFloatFrequencyData(this.timeDomain, this.decibels);
    let sumDb = 0;
    for (let bin = this.voiceBins.first; bin <= this.voiceBins.last; bin++) sumDb += this.decibels[bin]!;
    const levelDb = sumDb / (this.voiceBins.last - this.voiceBins.first + 1);

    const aboveThreshold = levelDb > this.thresholdDb;
    this.aboveHistory.push(aboveThreshold);
    if (this.aboveHistory.length > VOICE_ACTIVITY.historySize) this.aboveHistory.shift();
    const aboveCount = this.aboveHistory.filter(Boolean).length;
    if (!this.speaking && aboveCount >= VOICE_ACTIVITY.speakingOnAtLeast) this.speaking = true;
    else if (this.speaking && aboveCount === 0) this.speaking = false;

    if (this.soundInInterval) {
      this.inputDetected = true;
      this.inputLost = false;
      this.silentIntervals = 0;
    } else {
      this.silentIntervals += 1;
      if (this.inputDetected && this.silentIntervals * VOICE_ACTIVITY.intervalMs >= this.inputLostAfterMs) this.inputLost = true;
    }
    this.soundInInterval = false;

    const index = this.samplesTaken++;
    return {
      index,
      streamTimeMs: (index + 1) * VOICE_ACTIVITY.intervalMs,
      levelDb,
      aboveThreshold,
      speaking: this.speaking,
      inputDetected: this.inputDetected,
      inputLost: this.inputLost,
    };
  }
}

function validThreshold(thresholdDb: number): number {
  if (!Number.isFinite(thresholdDb)) throw new RangeError(`voice activity threshold must be a finite dB value, got ${thresholdDb}`);
  return thresholdDb;
}
