import { RadixTwoFft } from './RadixTwoFft';

/** Web Audio's Blackman window parameter (Web Audio API, "FFT Windowing and smoothing over time"). */
const BLACKMAN_ALPHA = 0.16;

/**
 * What a Web Audio AnalyserNode's getFloatFrequencyData() returns, computed from the node's
 * time-domain block, following the Web Audio API's "FFT Windowing and smoothing over time":
 * Blackman window, FFT scaled by 1/N, magnitudes smoothed across successive calls with
 * smoothingTimeConstant, then 20·log10. Like the node, it keeps the previous call's smoothed
 * magnitudes, so each call is one step of the smoothing.
 */
export class AnalyserNodeSpectrum {
  readonly frequencyBinCount: number;
  private readonly fft: RadixTwoFft;
  private readonly window: Float64Array;
  private readonly real: Float64Array;
  private readonly imag: Float64Array;
  private readonly smoothedMagnitudes: Float64Array;

  constructor(
    readonly fftSize: number,
    readonly smoothingTimeConstant: number,
  ) {
    if (!(smoothingTimeConstant >= 0 && smoothingTimeConstant <= 1)) {
      throw new RangeError(`smoothingTimeConstant must be in [0, 1], got ${smoothingTimeConstant}`);
    }
    this.fft = new RadixTwoFft(fftSize);
    this.frequencyBinCount = fftSize / 2;
    this.window = blackmanWindow(fftSize);
    this.real = new Float64Array(fftSize);
    this.imag = new Float64Array(fftSize);
    this.smoothedMagnitudes = new Float64Array(this.frequencyBinCount);
  }

  /**
   * One getFloatFrequencyData() call: `timeDomain` holds the last fftSize input samples, oldest
   * first; `decibels` receives frequencyBinCount values (−Infinity where the magnitude is 0).
   */
  getFloatFrequencyData(timeDomain: ArrayLike<number>, decibels: Float32Array | Float64Array): void {
    const size = this.fftSize;
    if (timeDomain.length !== size || decibels.length !== this.frequencyBinCount) {
      throw new RangeError(`expected ${size} samples and ${this.frequencyBinCount} bins`);
    }
    for (let n = 0; n < size; n++) {
      this.real[n] = timeDomain[n]! * this.window[n]!;
      this.imag[n] = 0;
    }
    this.fft.transform(this.real, this.imag);
    const tau = this.smoothingTimeConstant;
    for (let k = 0; k < this.frequencyBinCount; k++) {
      const re = this.real[k]!;
      const im = this.imag[k]!;
      const magnitude = Math.sqrt(re * re + im * im) / size;
      let smoothed = tau * this.smoothedMagnitudes[k]! + (1 - tau) * magnitude;
      // The spec's guard: a non-finite smoothed value restarts from 0 rather than poisoning later calls.
      if (!Number.isFinite(smoothed)) smoothed = 0;
      this.smoothedMagnitudes[k] = smoothed;
      decibels[k] = 20 * Math.log10(smoothed);
    }
  }

  /** Forgets the smoothing history, as a freshly created node would have none. */
  reset(): void {
    this.smoothedMagnitudes.fill(0);
  }
}

/** w[n] = a0 − a1·cos(2πn/N) + a2·cos(4πn/N), with a0 = (1−α)/2, a1 = 1/2, a2 = α/2. */
function blackmanWindow(size: number): Float64Array {
  const a0 = (1 - BLACKMAN_ALPHA) / 2;
  const a1 = 0.5;
  const a2 = BLACKMAN_ALPHA / 2;
  const window = new Float64Array(size);
  for (let n = 0; n < size; n++) {
    window[n] = a0 - a1 * Math.cos((2 * Math.PI * n) / size) + a2 * Math.cos((4 * Math.PI * n) / size);
  }
  return window;
}
