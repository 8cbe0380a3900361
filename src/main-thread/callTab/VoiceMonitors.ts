import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { ANALYSIS_WORKER_RESTARTS, MICROPHONE_SILENT_AFTER_MS, VOICE_ANALYSIS_DELAY_MS } from '../../protocol/clientDefaults';
import type { VoiceActivityReport, VoiceAnalysisOptions } from '../../protocol/analysisWorker';
import { isVoice, type MediaItem, type MediaItems } from '../media';
import { errorMessage } from '../../common/errorMessage';

/** What the tab needs of one item's running analysis (a VoiceActivityMonitor). */
export interface ItemVoiceMonitor {
  on(type: 'change', listener: (report: VoiceActivityReport) => void): () => void;
  /** The analysis ended: stopped, or failed (`error` set; the analysis worker failed, say). */
  on(type: 'ended', listener: (end: { readonly itemId: string; readonly error?: unknown }) => void): () => void;
  stop(): Promise<void>;
}

/** Starts the analysis of one audio track in the tab's analysis worker. */
export type StartVoiceMonitor = (itemId: string, track: MediaStreamTrack, options: VoiceAnalysisOptions) => Promise<ItemVoiceMonitor>;

export interface VoiceMonitorsOptions {
  readonly media: MediaItems;
  readonly start: StartVoiceMonitor;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The preview shows your microphone's level now (you are not in the call nor joining it). */
  readonly previewShowsLevel: () => boolean;
}

interface Analysis {
  /** The track analysed: a clone for local audio, which goes on while the microphone is muted. */
  readonly track: MediaStreamTrack;
  readonly ownsTrack: boolean;
  monitor: ItemVoiceMonitor | undefined;
  stopped: boolean;
  /** The analysis waiting to start (VOICE_ANALYSIS_DELAY_MS). */
  waiting: unknown;
  /** Your microphone's check, MICROPHONE_SILENT_AFTER_MS into its analysis, that it delivered some sound. */
  silenceCheck: unknown;
  /** It has reported: its analysis holds what it heard, which a muting by the source makes stale. */
  reported: boolean;
  /** How many more times it starts again should it end with an error (its worker failed: a fresh one takes over). */
  readonly restartsLeft: number;
}

/**
 * Voice activity of every voice of the tab (issue 6; a shared screen's sound is none): one monitor
 * per audio item, local microphones and remote tracks alike, started VOICE_ANALYSIS_DELAY_MS after
 * the item arrives (off the first frames of the join that brought it) — at once for your microphone
 * while the preview shows its level — and stopped, no longer speaking, as it goes or its track stops.
 * Each report becomes the item's speaking, inputDetected, inputLost, volume and lastSpokeAt. Your microphone not heard at all MICROPHONE_SILENT_AFTER_MS into
 * its analysis has lost its input too, as one that falls silent does.
 *
 * A local microphone is analysed through an enabled clone of its track: muting disables the track
 * that is sent, and the clone still hears the person, which is how "you are muted" can be shown
 * while they speak muted.
 *
 * A track muted by its source (the system, the browser: externalDisabled) is not speaking and has
 * no input: with MediaStreamTrackProcessor it delivers no frames, so its analysis would never hear
 * the silence it goes by, and would keep what it said before. Its reports are ignored while it is
 * muted, and its analysis starts afresh, at once, when it is back.
 *
 * An analysis that ends with an error (the analysis worker failed) starts again at once, in the fresh
 * worker that takes over (AnalysisWorker's keepAnalysisWorker), at most ANALYSIS_WORKER_RESTARTS times.
 *
 * Only a local microphone's level is shown (the preview's meter), so only its volume is reported on
 * its own, four times a second; a remote voice's volume comes with its state changes. Reported alone,
 * those volumes were most of a steady call's main-thread scripting (issue 14).
 */
export class VoiceMonitors {
  private readonly analyses = new Map<string, Analysis>();
  private readonly unsubscribes: Array<() => void> = [];

  constructor(private readonly options: VoiceMonitorsOptions) {}

  start(): void {
    const { media } = this.options;
    this.unsubscribes.push(
      media.on('added', (item) => this.add(item)),
      media.on('updated', (item, previous) => this.followSource(item, previous)),
      media.on('removed', (item) => this.remove(item.id)),
      // A microphone let go before its successor is asked for: its enabled clone would keep the device
      // open, and a browser that allows one live microphone would refuse the new one.
      media.on('trackStopped', (item) => this.remove(item.id)),
    );
    for (const item of media.all()) this.add(item);
  }

  dispose(): void {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    for (const id of [...this.analyses.keys()]) this.remove(id);
  }

  /** `atOnce`: analysed without VOICE_ANALYSIS_DELAY_MS (not on a join's first frames). */
  private add(item: MediaItem, atOnce = false, restartsLeft = ANALYSIS_WORKER_RESTARTS): void {
    // A shared screen's sound is nobody's voice: nothing to analyse.
    if (!isVoice(item)) return;
    // An item added again under its id (a re-added track) starts a fresh analysis.
    this.remove(item.id);
    const original = this.options.media.getTrack(item.id);
    if (!original) return;
    const local = item.source === 'local';
    const track = local ? original.clone() : original;
    if (local) track.enabled = true;
    const analysis: Analysis = { track, ownsTrack: local, monitor: undefined, stopped: false, waiting: undefined, silenceCheck: undefined, reported: false, restartsLeft };
    this.analyses.set(item.id, analysis);
    if (atOnce || (local && this.options.previewShowsLevel())) this.analyse(item.id, analysis, local);
    else analysis.waiting = this.options.clock.setTimeout(() => this.analyse(item.id, analysis, local), VOICE_ANALYSIS_DELAY_MS);
  }

  private analyse(itemId: string, analysis: Analysis, local: boolean): void {
    analysis.waiting = undefined;
    this.options.start(itemId, analysis.track, { volumeReports: local }).then(
      (monitor) => {
        if (analysis.stopped) {
          void monitor.stop().catch(() => undefined);
          return;
        }
        analysis.monitor = monitor;
        if (local) analysis.silenceCheck = this.options.clock.setTimeout(() => this.checkHeard(itemId), MICROPHONE_SILENT_AFTER_MS);
        monitor.on('change', (report) => this.apply(itemId, report));
        monitor.on('ended', ({ error }) => {
          // What it did not hear is then unknown, not silence.
          this.options.clock.clearTimeout(analysis.silenceCheck);
          if (error === undefined) return;
          this.options.logger.error(`voice activity of ${itemId} no longer analysed: ${errorMessage(error)}`);
          this.restart(itemId, analysis);
        });
      },
      (error: unknown) => this.options.logger.error(`voice activity of ${itemId} not analysed: ${errorMessage(error)}`),
    );
  }

  /** An analysis that ended with an error, still the item's: started again while it has restarts left. */
  private restart(itemId: string, analysis: Analysis): void {
    const item = this.options.media.get(itemId);
    if (item && this.analyses.get(itemId) === analysis && analysis.restartsLeft > 0) this.add(item, true, analysis.restartsLeft - 1);
  }

  private remove(itemId: string): void {
    const analysis = this.analyses.get(itemId);
    if (!analysis) return;
    this.analyses.delete(itemId);
    analysis.stopped = true;
    // Its final report of silence is ignored from here: said now, or a stopped microphone speaks on until its successor comes.
    if (this.options.media.get(itemId)?.speaking) this.options.media.update(itemId, { speaking: false });
    this.options.clock.clearTimeout(analysis.waiting);
    this.options.clock.clearTimeout(analysis.silenceCheck);
    void analysis.monitor?.stop().catch(() => undefined);
    if (analysis.ownsTrack) analysis.track.stop();
  }

  /** The source muted the track (no speaking, no input) or gave it back (a fresh analysis). */
  private followSource(item: MediaItem, previous: MediaItem): void {
    if (item.kind !== 'audio') return;
    // Told later that it came with a screen (its description-info after its track).
    if (item.screenCapture && !previous.screenCapture) this.remove(item.id);
    if (item.externalDisabled === previous.externalDisabled) return;
    const analysis = this.analyses.get(item.id);
    if (!analysis) return;
    if (item.externalDisabled) {
      this.options.media.update(item.id, { speaking: false, inputLost: item.inputLost ?? this.options.clock.now(), volume: -Infinity });
    } else if (analysis.reported) {
      this.add(item, true);
    }
  }

  /** Your microphone, analysed MICROPHONE_SILENT_AFTER_MS and never heard: it has lost its input, until it delivers some. */
  private checkHeard(itemId: string): void {
    const item = this.options.media.get(itemId);
    if (!item || item.inputDetected || item.inputLost !== undefined) return;
    this.options.media.update(itemId, { inputLost: this.options.clock.now() });
  }

  private apply(itemId: string, report: VoiceActivityReport): void {
    const { media } = this.options;
    const item = media.get(itemId);
    const analysis = this.analyses.get(itemId);
    if (!item || !analysis || analysis.stopped) return;
    analysis.reported = true;
    if (item.externalDisabled) return;
    media.update(itemId, {
      speaking: report.speaking,
      inputDetected: report.inputDetected,
      // Not heard yet, it keeps what checkHeard found; heard, its detector says.
      inputLost: report.inputLost ? (item.inputLost ?? report.at) : report.inputDetected ? undefined : item.inputLost,
      volume: report.volume,
      lastSpokeAt: report.speaking && !item.speaking ? report.at : item.lastSpokeAt,
    });
  }
}
