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
const view = parseRoute(window.location).view;
// A room page needs the call's code before its first frame: it loads beside the page's own.
if (view === 'room') void tab.loadCallCode();
// The pop-out chat never captures media, so it has no audio to analyse; other pages warm the worker up.
if (view !== 'chat') {
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
