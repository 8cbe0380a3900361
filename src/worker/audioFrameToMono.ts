/** The part of WebCodecs' AudioData the analysis reads (so tests can hand in their own frames). */
export type AudioFrame = Pick<AudioData, 'sampleRate' | 'numberOfFrames' | 'numberOfChannels' | 'copyTo' | 'close'>;

/**
 * The frame as mono Float32 samples. copyTo converts any sample format to f32-planar (every user
 * agent must support that conversion); channels are averaged, which is Web Audio's "speakers"
 * down-mix for mono and stereo, what an AnalyserNode would have applied.
 */
export function audioFrameToMono(frame: AudioFrame): Float32Array {
  const mono = new Float32Array(frame.numberOfFrames);
  if (frame.numberOfChannels === 1) {
    frame.copyTo(mono, { planeIndex: 0, format: 'f32-planar' });
    return mono;
  }
  const channel = new Float32Array(frame.numberOfFrames);
  for (let planeIndex = 0; planeIndex < frame.numberOfChannels; planeIndex++) {
    frame.copyTo(channel, { planeIndex, format: 'f32-planar' });
    for (let index = 0; index < mono.length; index++) mono[index]! += channel[index]!;
  }
  for (let index = 0; index < mono.length; index++) mono[index]! /= frame.numberOfChannels;
  return mono;
}
