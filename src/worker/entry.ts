/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { VoiceAnalysisService } from './VoiceAnalysisService';
import type { AnalysisWorkerApi, VoiceActivityListener } from '../protocol/analysisWorker';

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
