import type { Remote } from 'comlink';
import type { createStore } from 'jotai';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';
import { startAnalysisWorker } from './AnalysisWorker';
import { SessionBridge, type TabActions } from './SessionBridge';
import type { TabCalls } from './TabCalls';

/**
 * This tab's side of Parley as the UI sees it: the session's actions, when the tab is attached,
 * and the call runtime of a room. The Comlink handles to the shared session and to the
 * voice-analysis worker stay in here.
 */
export class ParleyTab {
  /** Settles once the tab is attached to the session (it holds its tab lock and gets the state). */
  readonly attached: Promise<void>;
  /** Settles once the attach has gone to the session: what the tab sends from then on comes after it. */
  readonly attachSent: Promise<void>;
  private readonly bridge: SessionBridge;
  private analysis: Remote<AnalysisWorkerApi> | undefined;
  private tabCalls: Promise<TabCalls> | undefined;

  constructor(private readonly store: ReturnType<typeof createStore>) {
    this.bridge = new SessionBridge(store);
    ({ attachSent: this.attachSent, attached: this.attached } = this.bridge.start());
  }

  get actions(): TabActions {
    return this.bridge.actions;
  }

  /** Starts the voice-analysis worker ahead of a call; resolves once it has loaded. */
  async prepareVoiceAnalysis(): Promise<void> {
    await this.analysisWorker().ready();
  }

  /** A room page's calls (the call's code, the camera asked for at load, the call runtimes): loaded on first use. */
  calls(): Promise<TabCalls> {
    return (this.tabCalls ??= import('./TabCalls').then(
      ({ TabCalls }) => new TabCalls({ bridge: this.bridge, store: this.store, attached: this.attached, analysis: () => this.analysisWorker() }),
    ));
  }

  /** Started on first use: a pop-out chat never analyses audio. */
  private analysisWorker(): Remote<AnalysisWorkerApi> {
    return (this.analysis ??= startAnalysisWorker());
  }
}
