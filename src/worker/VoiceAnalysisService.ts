import { VOICE_ACTIVITY } from '../protocol/constants';
import { parseAudioFramePortMessage } from './AudioFramePortMessage';
import { audioFrameToMono, type AudioFrame } from './audioFrameToMono';
import { ItemVoiceAnalysis } from './ItemVoiceAnalysis';
import type { VoiceActivityListener, VoiceAnalysisOptions } from '../protocol/analysisWorker';

interface RunningAnalysis {
  readonly analysis: ItemVoiceAnalysis;
  /** Stops reading the item's frame source. */
  readonly stopSource: () => void;
}

/**
 * The worker's voice-activity service: one analysis per audio item, fed either by a transferred
 * MediaStreamTrackProcessor readable or by an AudioWorklet's frame port, with one threshold for
 * all (the user's voiceActivityThreshold preference). Runtime-agnostic: its clock is injected.
 */
export class VoiceAnalysisService {
  private thresholdDb: number = VOICE_ACTIVITY.defaultThresholdDb;
  private readonly running = new Map<string, RunningAnalysis>();

  constructor(private readonly now: () => number) {}

  /**
   * Analyses the item's AudioData frames until stop(itemId), the end of the stream (its track
   * ended) or a newer analysis of the same item; resolves then, rejects if the frames fail.
   * Each frame is closed once read, as WebCodecs requires.
   */
  async analyseFrames(itemId: string, frames: ReadableStream<AudioFrame>, options: VoiceAnalysisOptions, listener: VoiceActivityListener): Promise<void> {
    const reader = frames.getReader();
    let analysis: ItemVoiceAnalysis | undefined;
    try {
      analysis = this.begin(itemId, options, listener, () => void cancelQuietly(reader));
      for (;;) {
        const { done, value: frame } = await reader.read();
        if (done) return;
        try {
          analysis.push(audioFrameToMono(frame), frame.sampleRate);
        } finally {
          frame.close();
        }
      }
    } finally {
      if (analysis) this.end(itemId, analysis);
      // Whatever ended the loop, release the source so the track processor stops queueing frames.
      void cancelQuietly(reader);
    }
  }

  /**
   * The same for the AudioWorklet path: mono frames (AudioFramePortMessage) arriving on `port`.
   * Resolves on stop(itemId) or a newer analysis of the item; rejects on a malformed message.
   */
  analyseFramePort(itemId: string, port: MessagePort, options: VoiceAnalysisOptions, listener: VoiceActivityListener): Promise<void> {
    return new Promise((resolve, reject) => {
      const closePort = (): void => {
        port.onmessage = null;
        port.close();
      };
      let analysis: ItemVoiceAnalysis;
      try {
        analysis = this.begin(itemId, options, listener, () => {
          closePort();
          resolve();
        });
      } catch (error) {
        closePort();
        throw error;
      }
      port.onmessage = (event: MessageEvent<unknown>) => {
        try {
          const { samples, sampleRate } = parseAudioFramePortMessage(event.data);
          analysis.push(samples, sampleRate);
        } catch (error) {
          analysis.stop();
          closePort();
          this.end(itemId, analysis);
          reject(error);
        }
      };
    });
  }

  /** The speaking threshold in dB for every running and future analysis. */
  setThreshold(thresholdDb: number): void {
    if (!Number.isFinite(thresholdDb)) throw new RangeError(`voice activity threshold must be a finite dB value, got ${thresholdDb}`);
    this.thresholdDb = thresholdDb;
    for (const { analysis } of this.running.values()) analysis.setThreshold(thresholdDb);
  }

  /** Ends the item's analysis; no report follows. Unknown items are ignored. */
  stop(itemId: string): void {
    const running = this.running.get(itemId);
    if (!running) return;
    this.running.delete(itemId);
    running.analysis.stop();
    running.stopSource();
  }

  private begin(itemId: string, options: VoiceAnalysisOptions, listener: VoiceActivityListener, stopSource: () => void): ItemVoiceAnalysis {
    if (typeof itemId !== 'string' || itemId === '') throw new TypeError('itemId must be a non-empty string');
    const analysis = new ItemVoiceAnalysis(itemId, this.thresholdDb, options, listener, this.now);
    // A new source for the same item (e.g. a replaced track) supersedes the old one.
    this.stop(itemId);
    this.running.set(itemId, { analysis, stopSource });
    return analysis;
  }

  private end(itemId: string, analysis: ItemVoiceAnalysis): void {
    if (this.running.get(itemId)?.analysis === analysis) this.running.delete(itemId);
  }
}

/** Cancelling a stream that already failed rejects with that failure, which the reader has reported already. */
function cancelQuietly(reader: ReadableStreamDefaultReader<AudioFrame>): Promise<void> {
  return reader.cancel().catch(() => undefined);
}
