import type * as Comlink from 'comlink';

/**
 * The contract between a tab and the analysis worker for voice activity: what the tab asks for,
 * and what the worker reports back for each audio item (SPEC §3 Media item speaking,
 * inputDetected, inputLost, volume; lastSpokeAt follows from `at` of a speaking report).
 */
export interface VoiceActivityReport {
  readonly itemId: string;
  readonly speaking: boolean;
  readonly inputDetected: boolean;
  readonly inputLost: boolean;
  /** Loudest 85–300 Hz level in dB (the value compared with the threshold), floored at −100 dB. */
  readonly volume: number;
  /** Wall-clock time of the report, ms since the epoch. */
  readonly at: number;
}

export type VoiceActivityListener = (report: VoiceActivityReport) => void;

export interface VoiceAnalysisOptions {
  /** Digital silence after detected input before inputLost turns on; default 1000 ms. */
  readonly inputLostAfterMs?: number;
  /**
   * Changes of speaking, inputDetected or inputLost are reported at once; a report for a volume
   * change alone waits until this much audio has passed since the last report; default 250 ms.
   */
  readonly volumeReportIntervalMs?: number;
  /**
   * False: a volume change alone is never reported, for an item whose level nobody shows (each
   * report wakes the tab's main thread); the reports of state changes still carry the volume.
   * Default true.
   */
  readonly volumeReports?: boolean;
}

/**
 * One message of the AudioWorklet → worker path (browsers without MediaStreamTrackProcessor):
 * the worklet posts mono Float32 frames, transferring their buffer, on a port handed to the worker.
 */
export interface AudioFramePortMessage {
  readonly sampleRate: number;
  readonly samples: Float32Array;
}

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
