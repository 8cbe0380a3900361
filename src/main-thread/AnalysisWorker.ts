import * as Comlink from 'comlink';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';

/** Starts this tab's dedicated analysis worker. */
export function startAnalysisWorker(): Comlink.Remote<AnalysisWorkerApi> {
  const worker = new Worker(new URL('../worker/entry.ts', import.meta.url), { type: 'module', name: 'parley-analysis' });
  return Comlink.wrap<AnalysisWorkerApi>(worker);
}
