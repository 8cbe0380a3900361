import { startAnalysisWorker } from '../../../src/main-thread/AnalysisWorker';
import { VoiceActivityMonitor, type FramePath } from '../../../src/main-thread/voice/VoiceActivityMonitor';
import type { VoiceActivityReport } from '../../../src/protocol/analysisWorker';

/** Times are ms since just before getUserMedia, i.e. no later than the fake file starts playing. */
export interface VoiceFixtureSnapshot {
  readonly framePath: FramePath | undefined;
  readonly audioContextStateAtStart: AudioContextState | undefined;
  readonly speaking: ReadonlyArray<{ readonly speaking: boolean; readonly atMs: number }>;
  readonly latest: VoiceActivityReport | undefined;
  readonly firstInputDetectedAtMs: number | undefined;
  readonly firstInputLostAtMs: number | undefined;
  /** Long tasks (> 50 ms) on this page's main thread since the capture started. */
  readonly longTasks: ReadonlyArray<{ readonly name: string; readonly startMs: number; readonly durationMs: number }>;
}

export interface VoiceFixture {
  /**
   * Captures the fake microphone and starts analysing it on the given frame path. The AudioWorklet
   * path starts from a suspended AudioContext, as autoplay rules leave it before a user gesture.
   */
  start(framePath: FramePath): Promise<void>;
  /** Disables the microphone track (it then delivers digital silence); returns when, in ms like the rest. */
  disableMicrophone(): number;
  snapshot(): VoiceFixtureSnapshot;
  /** Stops the monitor and tells whether the track survived it (the track belongs to the call, not to the analysis). */
  stop(): Promise<MediaStreamTrackState>;
}

const longTasks: PerformanceEntry[] = [];
new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: true });

const analysis = startAnalysisWorker();
let captureStartedAt = 0;
let monitor: VoiceActivityMonitor | undefined;
let track: MediaStreamTrack | undefined;
let audioContextStateAtStart: AudioContextState | undefined;
const speaking: Array<{ speaking: boolean; atMs: number }> = [];
let firstInputDetectedAtMs: number | undefined;
let firstInputLostAtMs: number | undefined;

const sinceCapture = (): number => performance.now() - captureStartedAt;

const fixture: VoiceFixture = {
  async start(framePath) {
    await analysis.ready();
    captureStartedAt = performance.now();
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    track = stream.getAudioTracks()[0]!;
    const audioContext = framePath === 'audio-worklet' ? new AudioContext() : undefined;
    await audioContext?.suspend();
    audioContextStateAtStart = audioContext?.state;
    monitor = await VoiceActivityMonitor.start({ analysis, itemId: 'local-microphone', track, framePath, audioContext });
    monitor.on('speaking', (change) => speaking.push({ speaking: change.speaking, atMs: sinceCapture() }));
    monitor.on('change', (report) => {
      if (report.inputDetected) firstInputDetectedAtMs ??= sinceCapture();
      if (report.inputLost) firstInputLostAtMs ??= sinceCapture();
    });
  },
  disableMicrophone() {
    track!.enabled = false;
    return sinceCapture();
  },
  snapshot: () => ({
    framePath: monitor?.framePath,
    audioContextStateAtStart,
    speaking: [...speaking],
    latest: monitor?.latestReport,
    firstInputDetectedAtMs,
    firstInputLostAtMs,
    longTasks: longTasks
      .filter((task) => task.startTime >= captureStartedAt)
      .map((task) => ({ name: task.name, startMs: task.startTime - captureStartedAt, durationMs: task.duration })),
  }),
  async stop() {
    await monitor?.stop();
    return track!.readyState;
  },
};

Object.assign(window, { voiceFixture: fixture });
