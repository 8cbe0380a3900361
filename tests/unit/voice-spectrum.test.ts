import { describe, expect, it } from 'vitest';
import { RadixTwoFft } from '../../src/worker/RadixTwoFft';
import { AnalyserNodeSpectrum } from '../../src/worker/AnalyserNodeSpectrum';

/** The textbook O(N²) DFT, the reference the FFT must reproduce. */
function naiveDft(input: Float64Array): { real: Float64Array; imag: Float64Array } {
  const size = input.length;
  const real = new Float64Array(size);
  const imag = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    for (let n = 0; n < size; n++) {
      real[k]! += input[n]! * Math.cos((2 * Math.PI * k * n) / size);
      imag[k]! -= input[n]! * Math.sin((2 * Math.PI * k * n) / size);
    }
  }
  return { real, imag };
}

describe('The voice analysis’s FFT matches the direct DFT it stands for (RadixTwoFft)', () => {
  it('matches the direct DFT on arbitrary input, for several sizes', () => {
    for (const size of [2, 8, 64, 512]) {
      const input = Float64Array.from({ length: size }, (_, n) => Math.sin(n * 1.7) + 0.3 * Math.cos(n * n * 0.01) - 0.2);
      const expected = naiveDft(input);
      const real = input.slice();
      const imag = new Float64Array(size);
      new RadixTwoFft(size).transform(real, imag);
      for (let k = 0; k < size; k++) {
        expect(real[k]).toBeCloseTo(expected.real[k]!, 9);
        expect(imag[k]).toBeCloseTo(expected.imag[k]!, 9);
      }
    }
  });

  it('refuses sizes that are not powers of two and arrays of the wrong length', () => {
    expect(() => new RadixTwoFft(500)).toThrow(RangeError);
    expect(() => new RadixTwoFft(512).transform(new Float64Array(256), new Float64Array(256))).toThrow(RangeError);
  });
});

describe('AnalyserNodeSpectrum reproduces AnalyserNode.getFloatFrequencyData', () => {
  const fftSize = 512;
  const amplitude = 0.01;
  // A sine exactly on bin 2 (187.5 Hz at 48 kHz). The periodic Blackman window's spectrum is zero
  // at whole-bin offsets ≥ 3, so bin 2 holds exactly amplitude/2 · a0 with a0 = 0.42 (the 1/N
  // scaling and the window's mean) and the image at bin −2 adds nothing.
  const onBin = Float64Array.from({ length: fftSize }, (_, n) => amplitude * Math.sin((2 * Math.PI * 2 * n) / fftSize));
  const binMagnitude = (amplitude / 2) * 0.42;

  it('gives 20·log10 of the windowed, 1/N-scaled magnitude, smoothed with τ against the previous call', () => {
    const spectrum = new AnalyserNodeSpectrum(fftSize, 0.1);
    const decibels = new Float64Array(fftSize / 2);
    // First call: the previous smoothed magnitudes are 0, so the result is (1 − τ)·|X|.
    spectrum.getFloatFrequencyData(onBin, decibels);
    expect(decibels[2]).toBeCloseTo(20 * Math.log10(0.9 * binMagnitude), 9);
    // Second call: 0.1·0.9|X| + 0.9|X| = 0.99|X|.
    spectrum.getFloatFrequencyData(onBin, decibels);
    expect(decibels[2]).toBeCloseTo(20 * Math.log10(0.99 * binMagnitude), 9);
    // Bins 5 and up see nothing of the tone (only float rounding noise).
    expect(decibels[5]).toBeLessThan(-250);
    // Silence next: only the smoothing memory is left, 0.1·0.99|X|.
    spectrum.getFloatFrequencyData(new Float64Array(fftSize), decibels);
    expect(decibels[2]).toBeCloseTo(20 * Math.log10(0.1 * 0.99 * binMagnitude), 9);
  });

  it('reports −Infinity for digital silence, and reset() forgets the smoothing', () => {
    const spectrum = new AnalyserNodeSpectrum(fftSize, 0.1);
    const decibels = new Float64Array(fftSize / 2);
    spectrum.getFloatFrequencyData(new Float64Array(fftSize), decibels);
    expect(decibels.every((value) => value === -Infinity)).toBe(true);
    spectrum.getFloatFrequencyData(onBin, decibels);
    spectrum.reset();
    spectrum.getFloatFrequencyData(new Float64Array(fftSize), decibels);
    expect(decibels[2]).toBe(-Infinity);
  });
});
