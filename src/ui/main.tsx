import { createStore, Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { missingBrowserFeatures } from '../main-thread/browserSupport';
import { ParleyTab } from '../main-thread/ParleyTab';
import { sessionUnavailableAtom, workerNotStartedBecause } from '../main-thread/sessionAtoms';
import { BrowserUnsupported } from './BrowserUnsupported';
import { App, preloadPage } from './App';
import { TabContext } from './tabContext';
import { parseRoute } from './route';
import { SessionUnavailable } from './SessionUnavailable';
import { openRoomAtLoad } from './useOpenRoom';
import { renderInTasksOfTheirOwn } from './renderInTasks';
import './parley.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
const missing = missingBrowserFeatures();
if (missing.length > 0) createRoot(root).render(<BrowserUnsupported missing={missing} />);
else start(root);

/** Parley in this tab: the session's bridge, what a room page starts at load, then the page. */
function start(root: HTMLElement): void {
  renderInTasksOfTheirOwn();
  const store = createStore();
  let tab: ParleyTab;
  try {
    tab = new ParleyTab(store);
  } catch {
    // The browser refused the shared worker outright (an opaque origin: site data blocked, a sandboxed frame).
    store.set(sessionUnavailableAtom, workerNotStartedBecause());
    createRoot(root).render(
      <Provider store={store}>
        <SessionUnavailable />
      </Provider>,
    );
    return;
  }
  const route = parseRoute(window.location);
  const view = route.view;
  if (route.view === 'room') {
    // A room page needs the call's code before its first frame: it loads beside the page's own. The
    // room itself is opened now, and the preview's camera and microphone asked for, not once the
    // room's view and the call's code have loaded and run (issue 14, the join path).
    openRoomAtLoad(tab.actions, tab.attachSent, route.roomName, false);
    void tab.calls().then((calls) => {
      void calls.loadCallCode();
      calls.startPreviewCapture(route.roomName);
    });
  }
  // The pop-out chat never captures media, so it has no audio to analyse; other pages warm the worker up.
  if (view !== 'chat') {
    void tab.prepareVoiceAnalysis().then(
      () => document.documentElement.setAttribute('data-analysis-worker', 'ready'),
      // Logged by the worker's link (AnalysisWorker.ts); the call goes on without voice analysis.
      () => undefined,
    );
  }

  // The page's own code first (it loads beside what started above): its first render then shows it at
  // once. A failed load is the lazy page's to retry.
  void preloadPage(route)
    .catch(() => undefined)
    .then(() =>
      createRoot(root).render(
        <StrictMode>
          <Provider store={store}>
            <TabContext value={tab}>
              <SessionUnavailable />
              <App />
            </TabContext>
          </Provider>
        </StrictMode>,
      ),
    );
}
