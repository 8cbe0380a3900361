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
}
