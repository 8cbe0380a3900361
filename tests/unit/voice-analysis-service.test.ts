import { describe, expect, it } from 'vitest';
import type { AudioFrame } from '../../src/worker/audioFrameToMono';
import { VOLUME_FLOOR_DB } from '../../src/worker/ItemVoiceAnalysis';
import type { VoiceActivityReport } from '../../src/protocol/analysisWorker';
import { VOICE_ACTIVITY } from '../../src/protocol/constants';
import { VoiceAnalysisService } from '../../src/worker/VoiceAnalysisService';
import { until } from '../support/until';

/** −40 dBFS: a sine of peak 0.01 of full scale. */
const MINUS_40_DBFS_PEAK = 0.01;

/** An f32-planar frame standing in for WebCodecs' AudioData (Node has none). */
class PlanarFrame implements AudioFrame {
  closed = false;
  constructor(
    readonly sampleRate: number,
    private readonly planes: readonly Float32Array[],
  ) {}
  get numberOfFrames(): number {
    return this.planes[0]!.length;
  }
  get numberOfChannels(): number {
    return this.planes.length;
  }
  copyTo(destination: AllowSharedBufferSource, options: AudioDataCopyToOptions): void {
    if (options.format !== 'f32-planar' || !(destination instanceof Float32Array)) throw new TypeError('only f32-planar copies are faked');
    destination.set(this.planes[options.planeIndex]!);
  }
  close(): void {
    this.closed = true;
  }
}

interface Tone {
  readonly frequencyHz: number;
  /** Gain of each channel applied to the mono signal; one entry per channel. */
  readonly channelGains?: readonly number[];
  /** Peak amplitude as a function of time in seconds; −40 dBFS throughout by default. */
  readonly amplitudeAt?: (seconds: number) => number;
}

/** 10 ms frames of a sine (silence when frequencyHz is 0). */
function frames(sampleRate: number, seconds: number, { frequencyHz, channelGains = [1], amplitudeAt = () => MINUS_40_DBFS_PEAK }: Tone): PlanarFrame[] {
  const frameSize = sampleRate / 100;
  const result: PlanarFrame[] = [];
  for (let start = 0; start < seconds * sampleRate; start += frameSize) {
    const mono = Float32Array.from({ length: frameSize }, (_, offset) => {
      const time = (start + offset) / sampleRate;
      return frequencyHz === 0 ? 0 : amplitudeAt(time) * Math.sin(2 * Math.PI * frequencyHz * time);
    });
    result.push(new PlanarFrame(sampleRate, channelGains.map((gain) => mono.map((sample) => sample * gain))));
  }
  return result;
}

const TONE: Tone = { frequencyHz: 150 };
const SILENCE: Tone = { frequencyHz: 0 };

/** A stand-in for a track processor's readable: frames are added as they "arrive"; end() is the track ending. */
class LiveFrames {
  readonly stream: ReadableStream<AudioFrame>;
  readonly cancelled: Promise<void>;
  private readonly queue: AudioFrame[] = [];
  private ended = false;
  private wake: () => void = () => undefined;

  constructor(initial: readonly AudioFrame[] = []) {
    this.queue.push(...initial);
    let markCancelled: () => void = () => undefined;
    this.cancelled = new Promise<void>((resolve) => (markCancelled = resolve));
    this.stream = new ReadableStream<AudioFrame>({
      pull: async (controller) => {
        while (this.queue.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
        const next = this.queue.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel: () => markCancelled(),
    });
  }

  add(items: readonly AudioFrame[]): void {
    this.queue.push(...items);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }
}

/** The frames as a stream that ends after them. */
function endedStream(items: readonly AudioFrame[]): ReadableStream<AudioFrame> {
  const live = new LiveFrames(items);
  live.end();
  return live.stream;
}

function speakingChanges(reports: readonly VoiceActivityReport[]): boolean[] {
  const changes: boolean[] = [];
  let speaking = false;
  for (const report of reports) {
    if (report.speaking !== speaking) changes.push(report.speaking);
    speaking = report.speaking;
  }
  return changes;
}

describe('VoiceAnalysisService: AudioData frames from a transferred MediaStreamTrackProcessor readable', () => {
  it('reports speaking on then off for a 150 Hz tone, closes every frame, and resolves when the stream ends', async () => {
    let clock = 1_000;
    const service = new VoiceAnalysisService(() => clock++);
    const input = [...frames(48_000, 1, TONE), ...frames(48_000, 1, SILENCE)];
    const reports: VoiceActivityReport[] = [];
    await service.analyseFrames('mic', endedStream(input), {}, (report) => reports.push(report));

    expect(input.every((frame) => frame.closed)).toBe(true);
    expect(speakingChanges(reports)).toEqual([true, false]);
    expect(reports[0]).toMatchObject({ itemId: 'mic', speaking: false, inputDetected: true, inputLost: false, at: 1_000 });
    const speakingReport = reports.find((report) => report.speaking)!;
    expect(speakingReport.volume).toBeGreaterThan(-56);
    expect(speakingReport.volume).toBeLessThan(-53);
    // The silent end reaches −Infinity dB, reported at AnalyserNode's default floor.
    expect(reports.at(-1)!.volume).toBe(VOLUME_FLOOR_DB);
  });

  it('averages channels: a stereo frame with opposite channels is silence, equal channels are the tone', async () => {
    const service = new VoiceAnalysisService(() => 0);
    const opposite: VoiceActivityReport[] = [];
    await service.analyseFrames('stereo', endedStream(frames(48_000, 1, { ...TONE, channelGains: [1, -1] })), {}, (report) => opposite.push(report));
    expect(opposite.some((report) => report.inputDetected || report.speaking)).toBe(false);

    const equal: VoiceActivityReport[] = [];
    await service.analyseFrames('stereo', endedStream(frames(48_000, 1, { ...TONE, channelGains: [1, 1] })), {}, (report) => equal.push(report));
    expect(speakingChanges(equal)).toEqual([true]);
  });

  it('reports state changes at once and a volume change alone every volumeReportIntervalMs of audio', async () => {
    const service = new VoiceAnalysisService(() => 0);
    // A tone rising from −40 to −34 dBFS over 2 s, so that every sample has a new volume.
    const rising: Tone = { frequencyHz: 150, amplitudeAt: (seconds) => MINUS_40_DBFS_PEAK * (1 + seconds / 2) };
    const defaults: VoiceActivityReport[] = [];
    // 2 s = samples 0–39, one per 50 ms. Reported: the first sample (50 ms), speaking on at sample 4
    // (250 ms), then the volume at 500, 750, … 2000 ms: samples 9, 14, … 39.
    await service.analyseFrames('tone', endedStream(frames(48_000, 2, rising)), {}, (report) => defaults.push(report));
    expect(defaults).toHaveLength(2 + 7);

    const everySample: VoiceActivityReport[] = [];
    await service.analyseFrames('tone', endedStream(frames(48_000, 2, rising)), { volumeReportIntervalMs: 0 }, (report) => everySample.push(report));
    expect(everySample).toHaveLength(40);

    const silence: VoiceActivityReport[] = [];
    await service.analyseFrames('quiet', endedStream(frames(48_000, 2, SILENCE)), { volumeReportIntervalMs: 0 }, (report) => silence.push(report));
    // Nothing changes in silence, so only the first sample is reported.
    expect(silence).toHaveLength(1);
  });

  it('without volume reports (a level nobody shows), only state changes are reported, each with its volume', async () => {
    const service = new VoiceAnalysisService(() => 0);
    const rising: Tone = { frequencyHz: 150, amplitudeAt: (seconds) => MINUS_40_DBFS_PEAK * (1 + seconds / 2) };
    const reports: VoiceActivityReport[] = [];
    await service.analyseFrames('remote voice', endedStream(frames(48_000, 2, rising)), { volumeReports: false }, (report) => reports.push(report));
    // The first sample (input detected) and speaking on at 250 ms; none of the seven volume-only reports.
    expect(reports.map(({ speaking, inputDetected }) => ({ speaking, inputDetected }))).toEqual([
      { speaking: false, inputDetected: true },
      { speaking: true, inputDetected: true },
    ]);
    // Each carries the volume of its moment: the tone is louder by the time speaking turns on.
    expect(reports[0]!.volume).toBeGreaterThan(VOICE_ACTIVITY.defaultThresholdDb);
    expect(reports[1]!.volume).toBeGreaterThan(reports[0]!.volume);
  });

  it('stop(itemId) cancels the stream, resolves the analysis and reports nothing more', async () => {
    const service = new VoiceAnalysisService(() => 0);
    const live = new LiveFrames(frames(48_000, 0.5, TONE));
    const reports: VoiceActivityReport[] = [];
    const analysis = service.analyseFrames('mic', live.stream, {}, (report) => reports.push(report));
    await until(() => reports.some((report) => report.speaking));
    service.stop('mic');
    await analysis;
    await live.cancelled;
    const count = reports.length;
    live.add(frames(48_000, 1, TONE));
    service.stop('mic');
    expect(reports).toHaveLength(count);
  });

  it('a second analysis of the same item supersedes the first: the first reports nothing more, the second reports', async () => {
    const service = new VoiceAnalysisService(() => 0);
    const first = new LiveFrames(frames(48_000, 0.5, TONE));
    const firstReports: VoiceActivityReport[] = [];
    // Every changed sample reported: a first analysis still running would be heard at once.
    const firstAnalysis = service.analyseFrames('mic', first.stream, { volumeReportIntervalMs: 0 }, (report) => firstReports.push(report));
    await until(() => firstReports.some((report) => report.speaking));

    const second = new LiveFrames();
    const secondReports: VoiceActivityReport[] = [];
    const secondAnalysis = service.analyseFrames('mic', second.stream, {}, (report) => secondReports.push(report));
    const reportedBeforeSecond = firstReports.length;
    first.add(frames(48_000, 1, TONE));
    second.add(frames(48_000, 1, TONE));
    await until(() => secondReports.some((report) => report.speaking));
    expect(firstReports).toHaveLength(reportedBeforeSecond);

    await firstAnalysis;
    await first.cancelled;
    second.end();
    await secondAnalysis;
  });

  it('setThreshold applies to running analyses; invalid thresholds and options are refused', async () => {
    const service = new VoiceAnalysisService(() => 0);
    service.setThreshold(-50);
    const reports: VoiceActivityReport[] = [];
    const firstSecond = frames(48_000, 1, TONE);
    const live = new LiveFrames(firstSecond);
    const analysis = service.analyseFrames('mic', live.stream, {}, (report) => reports.push(report));
    await until(() => firstSecond.every((frame) => frame.closed));
    expect(reports.some((report) => report.speaking)).toBe(false);

    service.setThreshold(-65);
    // The same tone continues; with the lower threshold, five more samples turn speaking on.
    live.add(frames(48_000, 1, TONE));
    live.end();
    await analysis;
    expect(speakingChanges(reports)).toEqual([true]);

    expect(() => service.setThreshold(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    await expect(service.analyseFrames('mic', endedStream([]), { volumeReportIntervalMs: -1 }, () => undefined)).rejects.toThrow(RangeError);
    await expect(service.analyseFrames('mic', endedStream([]), { volumeReports: 'no' as unknown as boolean }, () => undefined)).rejects.toThrow(TypeError);
    await expect(service.analyseFrames('', endedStream([]), {}, () => undefined)).rejects.toThrow(TypeError);
  });
});

describe('VoiceAnalysisService: mono frames an AudioWorklet posts on a transferred port', () => {
  it('analyses 44.1 kHz frames from the port and resolves on stop', async () => {
    const service = new VoiceAnalysisService(() => 0);
    const channel = new MessageChannel();
    const reports: VoiceActivityReport[] = [];
    const analysis = service.analyseFramePort('remote', channel.port2, {}, (report) => reports.push(report));
    for (const frame of frames(44_100, 1, TONE)) {
      const samples = new Float32Array(frame.numberOfFrames);
      frame.copyTo(samples, { planeIndex: 0, format: 'f32-planar' });
      channel.port1.postMessage({ sampleRate: 44_100, samples }, [samples.buffer]);
    }
    await until(() => reports.some((report) => report.speaking));
    service.stop('remote');
    await analysis;
    channel.port1.close();
  });

  it('rejects a malformed message and ends the analysis', async () => {
    const service = new VoiceAnalysisService(() => 0);
    const channel = new MessageChannel();
    const analysis = service.analyseFramePort('remote', channel.port2, {}, () => undefined);
    channel.port1.postMessage({ sampleRate: 48_000, samples: [0.1, 0.2] });
    await expect(analysis).rejects.toThrow(/Float32Array/);
    channel.port1.close();
  });
});
