import * as Comlink from 'comlink';
import type { AnalysisWorkerApi } from '../../protocol/analysisWorker';
import type { VoiceActivityReport, VoiceAnalysisOptions } from '../../protocol/analysisWorker';
import { AudioContextResumer } from './AudioContextResumer';
import { AudioWorkletFrameTap } from './AudioWorkletFrameTap';
import { TypedEmitter } from '../../common/TypedEmitter';

/** How the track's audio reaches the worker. */
export type FramePath = 'track-processor' | 'audio-worklet';

export interface VoiceActivityMonitorOptions {
  /** The tab's analysis worker (startAnalysisWorker). */
  readonly analysis: Comlink.Remote<AnalysisWorkerApi>;
  /** The Media item id; reports carry it. One monitor per item at a time: stop the old one before starting another. */
  readonly itemId: string;
  readonly track: MediaStreamTrack;
  /**
   * Used on the AudioWorklet path only; a tab should share one. Without it that path creates its
   * own context and closes it when the monitor stops.
   */
  readonly audioContext?: AudioContext;
  /** MediaStreamTrackProcessor where the browser has it, else AudioWorklet; tests pick one. */
  readonly framePath?: FramePath;
  readonly analysisOptions?: VoiceAnalysisOptions;
}

export interface VoiceActivityMonitorEvents {
  /** Every report from the worker: speaking, inputDetected, inputLost and volume of the item. */
  readonly change: [report: VoiceActivityReport];
  /** Speaking turned on or off; `at` is when (wall clock, ms), from which lastSpokeAt follows. */
  readonly speaking: [change: { readonly itemId: string; readonly speaking: boolean; readonly at: number }];
  /** The analysis ended: stop(), the track ended, or a failure (`error` set). */
  readonly ended: [end: { readonly itemId: string; readonly error?: unknown }];
}

/**
 * Chromium's MediaStreamTrackProcessor as it is exposed on Window, where it also takes audio
 * tracks and yields AudioData (the standard typings know only the worker-side video form).
 */
interface AudioTrackProcessorConstructor {
  new (init: { track: MediaStreamTrack }): { readonly readable: ReadableStream<AudioData> };
}

function audioTrackProcessor(): AudioTrackProcessorConstructor | undefined {
  const candidate: unknown = Reflect.get(globalThis, 'MediaStreamTrackProcessor');
  return typeof candidate === 'function' ? (candidate as AudioTrackProcessorConstructor) : undefined;
}

/** What the AudioWorklet path holds on the main thread until the monitor ends. */
interface WorkletResources {
  readonly tap: AudioWorkletFrameTap;
  readonly resumer: AudioContextResumer;
  /** Set when the monitor created the context itself and so must close it. */
  readonly ownContext?: AudioContext;
  /** Removes the monitor's listener for the track ending. */
  readonly trackListeners: AbortController;
}

/**
 * Voice activity of one audio track, analysed in the tab's analysis worker. The main thread only
 * wires the track's frames to the worker — the readable of a MediaStreamTrackProcessor,
 * transferred (a track cannot be), or an AudioWorklet posting to the worker over a port — and
 * relays the worker's reports as typed events. No sample is analysed, or even seen, here.
 */
export class VoiceActivityMonitor extends TypedEmitter<VoiceActivityMonitorEvents> {
  private latest: VoiceActivityReport | undefined;
  private ended = false;
  private readonly finished: Promise<void>;

  private constructor(
    private readonly analysis: Comlink.Remote<AnalysisWorkerApi>,
    readonly itemId: string,
    readonly framePath: FramePath,
    analysisRun: (report: (change: VoiceActivityReport) => void) => Promise<void>,
    private readonly worklet: WorkletResources | undefined,
  ) {
    super();
    this.finished = analysisRun((change) => this.receive(change)).then(
      () => this.finish(undefined),
      (error: unknown) => this.finish(error),
    );
  }

  static async start(options: VoiceActivityMonitorOptions): Promise<VoiceActivityMonitor> {
    const { analysis, itemId, track } = options;
    if (track.kind !== 'audio') throw new TypeError(`voice activity needs an audio track, got ${track.kind}`);
    const analysisOptions = options.analysisOptions ?? {};
    const Processor = audioTrackProcessor();
    const framePath = options.framePath ?? (Processor ? 'track-processor' : 'audio-worklet');

    if (framePath === 'track-processor') {
      if (!Processor) throw new Error('MediaStreamTrackProcessor is not available in this browser');
      const { readable } = new Processor({ track });
      return new VoiceActivityMonitor(
        analysis,
        itemId,
        framePath,
        (report) => analysis.analyse(itemId, Comlink.transfer(readable, [readable]), analysisOptions, Comlink.proxy(report)),
        undefined,
      );
    }

    const context = options.audioContext ?? new AudioContext();
    const ownContext = options.audioContext ? undefined : context;
    const resumer = new AudioContextResumer(context, globalThis);
    resumer.start();
    let tap: AudioWorkletFrameTap;
    try {
      tap = await AudioWorkletFrameTap.open(context, track);
    } catch (error) {
      resumer.dispose();
      void ownContext?.close();
      throw error;
    }
    const { workerPort } = tap;
    const trackListeners = new AbortController();
    const monitor = new VoiceActivityMonitor(
      analysis,
      itemId,
      framePath,
      (report) => analysis.analyseFramePort(itemId, Comlink.transfer(workerPort, [workerPort]), analysisOptions, Comlink.proxy(report)),
      { tap, resumer, ownContext, trackListeners },
    );
    // An AudioWorklet source keeps producing silence after its track ends, so end the analysis here.
    track.addEventListener('ended', () => void monitor.stop(), { once: true, signal: trackListeners.signal });
    return monitor;
  }

  /** The latest report's speaking state; false until the first report. */
  get speaking(): boolean {
    return this.latest?.speaking ?? false;
  }

  /** The latest report, with inputDetected, inputLost and volume. */
  get latestReport(): VoiceActivityReport | undefined {
    return this.latest;
  }

  /** Ends the analysis; resolves once the worker has let go of the item. */
  async stop(): Promise<void> {
    if (!this.ended) await this.analysis.stop(this.itemId);
    await this.finished;
  }

  private receive(change: VoiceActivityReport): void {
    if (this.ended) return;
    const wasSpeaking = this.speaking;
    this.latest = change;
    this.emit('change', change);
    if (change.speaking !== wasSpeaking) this.emit('speaking', { itemId: this.itemId, speaking: change.speaking, at: change.at });
  }

  private finish(error: unknown): void {
    if (this.worklet) {
      this.worklet.tap.close();
      this.worklet.resumer.dispose();
      this.worklet.trackListeners.abort();
      void this.worklet.ownContext?.close();
    }
    // Without analysis nobody can be heard speaking: don't leave the item lit.
    if (this.speaking) this.receive({ ...this.latest!, speaking: false, at: Date.now() });
    this.ended = true;
    this.emit('ended', { itemId: this.itemId, error });
  }
}
