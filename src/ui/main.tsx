import { createStore, Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ParleyTab } from '../main-thread/ParleyTab';
import { App } from './App';
import { TabContext } from './tabContext';
import { parseRoute } from './route';
import './parley.css';

const store = createStore();
const tab = new ParleyTab(store);
// The pop-out chat never captures media, so it has no audio to analyse; other pages warm the worker up.
if (parseRoute(window.location).view !== 'chat') {
  void tab
    .prepareVoiceAnalysis()
    .then(() => document.documentElement.setAttribute('data-analysis-worker', 'ready'));
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <TabContext value={tab}>
        <App />
      </TabContext>
    </Provider>
  </StrictMode>,
);
