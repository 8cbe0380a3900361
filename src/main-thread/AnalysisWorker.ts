import * as Comlink from 'comlink';
import { consoleLogger, type Logger } from '../common/logger';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';
import { ANALYSIS_WORKER_RESTARTS } from '../protocol/clientDefaults';

/** What the tab uses of the analysis Worker: Comlink's endpoint, its `error` and `messageerror` events, and terminate. */
export type AnalysisWorkerEndpoint = Comlink.Endpoint & Pick<Worker, 'terminate'>;

/** Starts this tab's dedicated analysis worker, and a fresh one after it failed (keepAnalysisWorker). */
export function startAnalysisWorker(logger: Logger = consoleLogger('[parley analysis]')): Comlink.Remote<AnalysisWorkerApi> {
  return keepAnalysisWorker(() => new Worker(new URL('../worker/entry.ts', import.meta.url), { type: 'module', name: 'parley-analysis' }), logger);
}

/**
 * The tab's analysis worker as one that lasts: each call goes to the worker of the moment, and a call
 * after it failed starts a fresh one, at most ANALYSIS_WORKER_RESTARTS times in the tab's life (a
 * failure each time is a worker that cannot run here, whose calls then keep rejecting). The voices'
 * analyses that ended with the failed one start again (VoiceMonitors); the speaking threshold last
 * set is given to the fresh one.
 */
export function keepAnalysisWorker(startWorker: () => AnalysisWorkerEndpoint, logger: Logger): Comlink.Remote<AnalysisWorkerApi> {
  let current: Comlink.Remote<AnalysisWorkerApi> | undefined;
  let failed = false;
  let restartsLeft = ANALYSIS_WORKER_RESTARTS;
  let thresholdDb: number | undefined;
  const worker = (): Comlink.Remote<AnalysisWorkerApi> => {
    if (current !== undefined && !(failed && restartsLeft > 0)) return current;
    if (current !== undefined) restartsLeft -= 1;
    failed = false;
    const started = linkAnalysisWorker(startWorker(), logger, () => (failed = true));
    if (thresholdDb !== undefined) void started.setThreshold(thresholdDb).catch(() => undefined);
    current = started;
    return started;
  };
  const setThreshold = (threshold: number): Promise<void> => {
    thresholdDb = threshold;
    return worker().setThreshold(threshold);
  };
  // The first worker is the target for its type only: every member read is the current worker's.
  return new Proxy(worker(), {
    get(_target, property) {
      return property === 'setThreshold' ? setThreshold : Reflect.get(worker(), property);
    },
  });
}

/**
 * The analysis worker's API over Comlink, which does not hang when the worker fails. A worker whose
 * module did not load, that threw, or whose message could not be read answers no call (Comlink
 * would wait for ever), so on its `error` or `messageerror` the failure is logged once, the worker
 * is ended, and every call pending or made later rejects with that error: ready(), which each voice
 * monitor waits for before it starts, and the running analyses, whose monitors end with it. The
 * call goes on without voice activity until a fresh worker takes over (keepAnalysisWorker), told by `onFailed`.
 */
export function linkAnalysisWorker(worker: AnalysisWorkerEndpoint, logger: Logger, onFailed: () => void = () => undefined): Comlink.Remote<AnalysisWorkerApi> {
  const remote = Comlink.wrap<AnalysisWorkerApi>(worker);
  let fail: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_resolve, reject) => (fail = reject));
  // Rejected for every call raced with it; nobody need wait on it for itself.
  failed.catch(() => undefined);
  let failure: Error | undefined;
  const onFailure = (event: Event): void => {
    if (failure) return;
    const detail = 'message' in event && typeof event.message === 'string' && event.message ? `: ${event.message}` : '';
    const what = event.type === 'messageerror' ? 'sent a message that could not be read' : 'did not load or crashed';
    failure = new Error(`voice analysis is unavailable: the analysis worker ${what}${detail}`);
    logger.error(`${failure.message}; the call goes on without voice activity (speaking, input level, "you are muted")`);
    worker.terminate();
    fail(failure);
    onFailed();
  };
  worker.addEventListener('error', onFailure);
  worker.addEventListener('messageerror', onFailure);
  const settled = <T>(call: Promise<T>): Promise<T> => Promise.race([call, failed]);
  // Each method's call (a Comlink proxy, a function) settles with the worker's failure too.
  return new Proxy(remote, {
    get(target, property, receiver) {
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof member !== 'function') return member;
      return (...args: unknown[]) => settled(Promise.resolve(Reflect.apply(member, target, args)));
    },
  });
}
