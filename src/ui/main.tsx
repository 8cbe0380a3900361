import type { Remote } from 'comlink';
import { createStore, Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startAnalysisWorker } from '../main-thread/AnalysisWorker';
import { SessionBridge } from '../main-thread/SessionBridge';
import { App } from './App';
import { BridgeContext } from './bridgeContext';
import { parseRoute } from './route';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';
import './parley.css';

const store = createStore();
const bridge = new SessionBridge(store);
const attached = bridge.start();
let analysis: Remote<AnalysisWorkerApi> | undefined;
const analysisWorker = (): Remote<AnalysisWorkerApi> => (analysis ??= startAnalysisWorker());
// The pop-out chat never captures media, so it has no audio to analyse; other pages warm the worker up.
if (parseRoute(window.location).view !== 'chat') {
  void analysisWorker()
    .ready()
    .then(() => document.documentElement.setAttribute('data-analysis-worker', 'ready'));
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <BridgeContext value={{ bridge, attached, analysisWorker }}>
        <App />
      </BridgeContext>
    </Provider>
  </StrictMode>,
);
