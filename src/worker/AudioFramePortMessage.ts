import type { AudioFramePortMessage } from '../protocol/analysisWorker';

/** One second at the highest rate a browser offers (384 kHz): far above the ~10 ms the worklet sends. */
const MAX_SAMPLES_PER_MESSAGE = 384_000;

/** Checks what arrives on the port before it reaches the analysis. */
export function parseAudioFramePortMessage(data: unknown): AudioFramePortMessage {
  if (typeof data !== 'object' || data === null) throw new TypeError('audio frame message must be an object');
  const { sampleRate, samples } = data as Record<string, unknown>;
  if (typeof sampleRate !== 'number' || !(sampleRate > 0) || !Number.isFinite(sampleRate)) {
    throw new TypeError('audio frame message needs a positive sampleRate');
  }
  if (!(samples instanceof Float32Array) || samples.length > MAX_SAMPLES_PER_MESSAGE) {
    throw new TypeError(`audio frame message needs samples as a Float32Array of at most ${MAX_SAMPLES_PER_MESSAGE}`);
  }
  return { sampleRate, samples };
}
