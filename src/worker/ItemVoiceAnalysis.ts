import { VoiceActivityDetector, type VoiceActivitySample } from './VoiceActivityDetector';
import type { VoiceActivityListener, VoiceActivityReport, VoiceAnalysisOptions } from '../protocol/analysisWorker';

/** AnalyserNode's default minDecibels: reported volumes stop here so records stay finite (−Infinity does not survive JSON). */
export const VOLUME_FLOOR_DB = -100;

/** A level meter needs no more than ~4 updates a second; each report costs the tab a message. */
const DEFAULT_VOLUME_REPORT_INTERVAL_MS = 250;

/**
 * Voice activity of one audio item: runs its detector over the item's frames and decides which
 * samples are worth a report, so the tab hears of every state change at once but of the volume
 * only every so often, and of nothing while nothing changes.
 */
export class ItemVoiceAnalysis {
  private readonly detector: VoiceActivityDetector;
  private readonly volumeReportIntervalMs: number;
  private readonly volumeReports: boolean;
  private lastReport: VoiceActivityReport | undefined;
  private lastReportStreamTimeMs = 0;
  private stopped = false;

  constructor(
    readonly itemId: string,
    thresholdDb: number,
    options: VoiceAnalysisOptions,
    private readonly listener: VoiceActivityListener,
    private readonly now: () => number,
  ) {
    this.detector = new VoiceActivityDetector({ thresholdDb, inputLostAfterMs: options.inputLostAfterMs });
    this.volumeReportIntervalMs = options.volumeReportIntervalMs ?? DEFAULT_VOLUME_REPORT_INTERVAL_MS;
    if (!(this.volumeReportIntervalMs >= 0 && Number.isFinite(this.volumeReportIntervalMs))) {
      throw new RangeError(`volumeReportIntervalMs must be a non-negative number, got ${this.volumeReportIntervalMs}`);
    }
    this.volumeReports = options.volumeReports ?? true;
    if (typeof this.volumeReports !== 'boolean') throw new TypeError(`volumeReports must be true or false, got ${String(options.volumeReports)}`);
  }

  setThreshold(thresholdDb: number): void {
    this.detector.setThreshold(thresholdDb);
  }

  /** Mono samples at `sampleRate`; ignored once stopped, so no report follows stop(). */
  push(samples: Float32Array, sampleRate: number): void {
    if (this.stopped) return;
    for (const sample of this.detector.push(samples, sampleRate)) this.consider(sample);
  }

  stop(): void {
    this.stopped = true;
  }

  private consider(sample: VoiceActivitySample): void {
    const volume = Math.max(sample.levelDb, VOLUME_FLOOR_DB);
    const last = this.lastReport;
    const stateChanged =
      last === undefined ||
      last.speaking !== sample.speaking ||
      last.inputDetected !== sample.inputDetected ||
      last.inputLost !== sample.inputLost;
    const volumeDue = this.volumeReports && volume !== last?.volume && sample.streamTimeMs - this.lastReportStreamTimeMs >= this.volumeReportIntervalMs;
    if (!stateChanged && !volumeDue) return;
    const report: VoiceActivityReport = {
      itemId: this.itemId,
      speaking: sample.speaking,
      inputDetected: sample.inputDetected,
      inputLost: sample.inputLost,
      volume,
      at: this.now(),
    };
    this.lastReport = report;
    this.lastReportStreamTimeMs = sample.streamTimeMs;
    this.listener(report);
  }
}
