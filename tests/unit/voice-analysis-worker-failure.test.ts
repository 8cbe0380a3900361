import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepAnalysisWorker, linkAnalysisWorker } from '../../src/main-thread/AnalysisWorker';
import { ANALYSIS_WORKER_RESTARTS } from '../../src/protocol/clientDefaults';
import { VoiceActivityMonitor } from '../../src/main-thread/voice/VoiceActivityMonitor';
import { monitorOf, settle, startedHarnesses } from './callTab-fakes';

afterEach(() => vi.unstubAllGlobals());

/**
 * A fake of the analysis Worker: it takes Comlink's messages and answers only `ready` (when told
 * to), so any other call stays pending as in a worker that has stopped answering; `fail` fires the
 * events a real Worker fires when its module does not load or it crashes.
 */
class FakeAnalysisWorker extends EventTarget {
  terminated = false;
  readonly calls: string[] = [];
  constructor(private readonly answersReady: boolean) {
    super();
  }
  postMessage(message: { id?: string; type?: string; path?: string[] }): void {
    const name = message.path?.join('.') ?? '';
    this.calls.push(name);
    if (name === 'ready' && this.answersReady) {
      queueMicrotask(() => this.dispatchEvent(new MessageEvent('message', { data: { id: message.id, type: 'RAW', value: true } })));
    }
  }
  terminate(): void {
    this.terminated = true;
  }
  fail(type: 'error' | 'messageerror' = 'error'): void {
    this.dispatchEvent(new Event(type));
  }
}

/** Where MediaStreamTrackProcessor is stubbed: a readable that yields nothing. */
class FakeTrackProcessor {
  readonly readable = new ReadableStream<AudioData>();
  constructor(_init: { track: MediaStreamTrack }) {}
}

function logged(): { errors: string[]; logger: { info: () => void; error: (message: string) => void } } {
  const errors: string[] = [];
  return { errors, logger: { info: () => undefined, error: (message) => errors.push(message) } };
}

describe('A failed analysis worker (its module did not load, it crashed) is noticed: every call to it rejects, the failure is logged, and the call goes on without voice analysis', () => {
  it('ready(), which every voice monitor waits for, rejects with a clear error on the worker’s error; logged once, the worker ended, later calls rejected at once', async () => {
    const worker = new FakeAnalysisWorker(false);
    const { errors, logger } = logged();
    const analysis = linkAnalysisWorker(worker, logger);
    const ready = analysis.ready();
    const outcome = ready.then(
      () => 'resolved',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    await settle();
    worker.fail();
    expect(await outcome).toMatch(/^voice analysis is unavailable: the analysis worker did not load or crashed/);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/voice analysis is unavailable.*the call goes on without voice activity/);
    expect(worker.terminated).toBe(true);
    await expect(analysis.setThreshold(-60)).rejects.toThrow(/voice analysis is unavailable/);
    await expect(analysis.ready()).rejects.toThrow(/voice analysis is unavailable/);
    worker.fail('messageerror');
    expect(errors).toHaveLength(1);
  });

  it('a message from the worker that could not be read (messageerror) fails it the same way', async () => {
    const worker = new FakeAnalysisWorker(false);
    const { errors, logger } = logged();
    const ready = linkAnalysisWorker(worker, logger).ready();
    worker.fail('messageerror');
    await expect(ready).rejects.toThrow(/voice analysis is unavailable: the analysis worker sent a message that could not be read/);
    expect(errors).toHaveLength(1);
  });

  it('a running analysis ends with the worker’s failure: its monitor emits `ended` with the error and stopping it does not hang', async () => {
    vi.stubGlobal('MediaStreamTrackProcessor', FakeTrackProcessor);
    const worker = new FakeAnalysisWorker(true);
    const { logger } = logged();
    const analysis = linkAnalysisWorker(worker, logger);
    expect(await analysis.ready()).toBe(true);
    const track = { kind: 'audio' } as MediaStreamTrack;
    const monitor = await VoiceActivityMonitor.start({ analysis, itemId: 'microphone', track });
    const ended: unknown[] = [];
    monitor.on('ended', ({ error }) => ended.push(error));
    await settle();
    expect(worker.calls).toEqual(['ready', 'analyse']);
    expect(ended).toEqual([]);
    worker.fail();
    await settle();
    expect(ended).toHaveLength(1);
    expect(String(ended[0])).toMatch(/voice analysis is unavailable/);
    await expect(monitor.stop()).resolves.toBeUndefined();
  });

  const open = startedHarnesses();
  it('the call tab logs an analysis that ends with an error (its worker failed), and not one that was stopped', async () => {
    const h = open();
    await settle();
    const microphone = h.store.get(h.runtime.atoms.local).microphone!.itemId;
    monitorOf(h.monitors, microphone).end();
    expect(h.errors).toEqual([]);
    monitorOf(h.monitors, microphone).end(new Error('voice analysis is unavailable: the analysis worker did not load or crashed'));
    expect(h.errors).toEqual([`voice activity of ${microphone} no longer analysed: voice analysis is unavailable: the analysis worker did not load or crashed`]);
  });
});

describe(`A failed analysis worker is started afresh on the next call, at most ANALYSIS_WORKER_RESTARTS (${ANALYSIS_WORKER_RESTARTS}) times in the tab’s life; the voices’ analyses start again in it`, () => {
  it('after a failure, the next call starts a fresh worker that answers, and is given the speaking threshold last set', async () => {
    const workers: FakeAnalysisWorker[] = [];
    const { logger } = logged();
    const analysis = keepAnalysisWorker(() => {
      const worker = new FakeAnalysisWorker(true);
      workers.push(worker);
      return worker;
    }, logger);
    expect(await analysis.ready()).toBe(true);
    void analysis.setThreshold(-55).catch(() => undefined);
    workers[0]!.fail();
    expect(await analysis.ready()).toBe(true);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.calls).toEqual(['setThreshold', 'ready']);
  });

  it('a worker that keeps failing stops being started: its calls keep rejecting', async () => {
    const workers: FakeAnalysisWorker[] = [];
    const { logger } = logged();
    const analysis = keepAnalysisWorker(() => {
      const worker = new FakeAnalysisWorker(false);
      workers.push(worker);
      queueMicrotask(() => worker.fail());
      return worker;
    }, logger);
    for (let attempt = 0; attempt <= ANALYSIS_WORKER_RESTARTS + 1; attempt += 1) await expect(analysis.ready()).rejects.toThrow(/voice analysis is unavailable/);
    expect(workers).toHaveLength(1 + ANALYSIS_WORKER_RESTARTS);
  });

  const open = startedHarnesses();
  it('a voice whose analysis ended with its worker’s failure is analysed again at once, as many times as the worker is started again', async () => {
    const h = open();
    await settle();
    const microphone = h.store.get(h.runtime.atoms.local).microphone!.itemId;
    const analysesOf = () => h.monitors.filter((monitor) => monitor.itemId === microphone).length;
    expect(analysesOf()).toBe(1);
    for (let restart = 1; restart <= ANALYSIS_WORKER_RESTARTS; restart += 1) {
      monitorOf(h.monitors, microphone).end(new Error('voice analysis is unavailable: the analysis worker did not load or crashed'));
      await settle();
      expect(analysesOf()).toBe(1 + restart);
    }
    monitorOf(h.monitors, microphone).end(new Error('voice analysis is unavailable: the analysis worker did not load or crashed'));
    await settle();
    expect(analysesOf()).toBe(1 + ANALYSIS_WORKER_RESTARTS);
  });
});
