/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { VoiceAnalysisService } from './VoiceAnalysisService';
import type { VoiceActivityListener, VoiceAnalysisOptions } from './VoiceActivityReport';

/** The dedicated analysis worker: voice-activity analysis of transferred audio frames runs here, off the main thread. */
export interface AnalysisWorkerApi {
  /** Resolves once the worker has loaded; the tab waits for it before handing over audio. */
  ready(): boolean;
  /**
   * Voice activity of one audio item from its frames: the `readable` of a MediaStreamTrackProcessor,
   * transferred (Comlink.transfer). `report` — wrapped with Comlink.proxy — hears of every change.
   * Resolves when the analysis ends: stop(itemId), the track ended, or a newer analysis of the item.
   */
  analyse(itemId: string, frames: ReadableStream<AudioData>, options: VoiceAnalysisOptions, report: VoiceActivityListener & Comlink.ProxyMarked): Promise<void>;
  /** The same where MediaStreamTrackProcessor is missing: an AudioWorklet posts mono frames on `port` (transferred). */
  analyseFramePort(itemId: string, port: MessagePort, options: VoiceAnalysisOptions, report: VoiceActivityListener & Comlink.ProxyMarked): Promise<void>;
  /** The speaking threshold in dB (preference voiceActivityThreshold) for all items. */
  setThreshold(thresholdDb: number): void;
  stop(itemId: string): void;
}

const voice = new VoiceAnalysisService(() => Date.now());

/** Runs one analysis reporting to the tab's proxied callback, and releases that proxy's channel when the analysis ends. */
async function reportingTo(report: VoiceActivityListener & Comlink.ProxyMarked, analysis: (listener: VoiceActivityListener) => Promise<void>): Promise<void> {
  // What arrives here is Comlink's proxy of the tab's callback, typed by Comlink as the callback itself.
  const remote = report as unknown as Comlink.Remote<VoiceActivityListener>;
  try {
    await analysis((change) => void remote(change));
  } finally {
    remote[Comlink.releaseProxy]();
  }
}

const api: AnalysisWorkerApi = {
  ready: () => true,
  analyse: (itemId, frames, options, report) => reportingTo(report, (listener) => voice.analyseFrames(itemId, frames, options, listener)),
  analyseFramePort: (itemId, port, options, report) => reportingTo(report, (listener) => voice.analyseFramePort(itemId, port, options, listener)),
  setThreshold: (thresholdDb) => voice.setThreshold(thresholdDb),
  stop: (itemId) => voice.stop(itemId),
};

Comlink.expose(api);
