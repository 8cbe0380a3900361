/**
 * An in-place, iterative radix-2 complex FFT of one fixed power-of-two size. Forward and unscaled:
 * X[k] = Σₙ x[n]·e^(−2πi·k·n/N). Tables are built once, so each transform allocates nothing.
 */
export class RadixTwoFft {
  private readonly bitReversedIndex: Uint32Array;
  /** cos(2πj/N) and sin(2πj/N) for j < N/2: every twiddle factor a size-N transform uses. */
  private readonly cosines: Float64Array;
  private readonly sines: Float64Array;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 2 || (size & (size - 1)) !== 0) {
      throw new RangeError(`FFT size must be a power of two ≥ 2, got ${size}`);
    }
    const bits = Math.log2(size);
    this.bitReversedIndex = new Uint32Array(size);
    for (let index = 0; index < size; index++) {
      let reversed = 0;
      for (let bit = 0; bit < bits; bit++) reversed |= ((index >> bit) & 1) << (bits - 1 - bit);
      this.bitReversedIndex[index] = reversed;
    }
    this.cosines = new Float64Array(size / 2);
    this.sines = new Float64Array(size / 2);
    for (let j = 0; j < size / 2; j++) {
      this.cosines[j] = Math.cos((2 * Math.PI * j) / size);
      this.sines[j] = Math.sin((2 * Math.PI * j) / size);
    }
  }

  /** Replaces (real, imag) with its discrete Fourier transform. */
  transform(real: Float64Array, imag: Float64Array): void {
    const size = this.size;
    if (real.length !== size || imag.length !== size) {
      throw new RangeError(`FFT of size ${size} given arrays of ${real.length} and ${imag.length}`);
    }
    for (let index = 0; index < size; index++) {
      const partner = this.bitReversedIndex[index]!;
      if (partner > index) {
        const re = real[index]!;
        const im = imag[index]!;
        real[index] = real[partner]!;
        imag[index] = imag[partner]!;
        real[partner] = re;
        imag[partner] = im;
      }
    }
    for (let half = 1; half < size; half *= 2) {
      const twiddleStride = size / (2 * half);
      for (let blockStart = 0; blockStart < size; blockStart += 2 * half) {
        for (let offset = 0; offset < half; offset++) {
          // Forward transform: twiddle e^(−2πi·j/N) = cos − i·sin.
          const twiddleRe = this.cosines[offset * twiddleStride]!;
          const twiddleIm = -this.sines[offset * twiddleStride]!;
          const top = blockStart + offset;
          const bottom = top + half;
          const bottomRe = real[bottom]!;
          const bottomIm = imag[bottom]!;
          const productRe = twiddleRe * bottomRe - twiddleIm * bottomIm;
          const productIm = twiddleRe * bottomIm + twiddleIm * bottomRe;
          const topRe = real[top]!;
          const topIm = imag[top]!;
          real[bottom] = topRe - productRe;
          imag[bottom] = topIm - productIm;
          real[top] = topRe + productRe;
          imag[top] = topIm + productIm;
        }
      }
    }
  }
}
