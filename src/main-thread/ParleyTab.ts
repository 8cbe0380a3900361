import type { Remote } from 'comlink';
import type { createStore } from 'jotai';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';
import { startAnalysisWorker } from './AnalysisWorker';
import type { CallRuntime } from './callTab/CallRuntime';
import { SessionBridge, type TabActions } from './SessionBridge';

/**
 * This tab's side of Parley as the UI sees it: the session's actions, when the tab is attached,
 * and the call runtime of a room. The Comlink handles to the shared session and to the
 * voice-analysis worker stay in here.
 */
export class ParleyTab {
  /** Settles once the tab is attached to the session (it holds its tab lock and gets the state). */
  readonly attached: Promise<void>;
  private readonly bridge: SessionBridge;
  private analysis: Remote<AnalysisWorkerApi> | undefined;
  private callCode: Promise<typeof import('./callTab/createTabCallRuntime')> | undefined;

  constructor(private readonly store: ReturnType<typeof createStore>) {
    this.bridge = new SessionBridge(store);
    this.attached = this.bridge.start();
  }

  get actions(): TabActions {
    return this.bridge.actions;
  }

  /** Starts the voice-analysis worker ahead of a call; resolves once it has loaded. */
  async prepareVoiceAnalysis(): Promise<void> {
    await this.analysisWorker().ready();
  }

  /**
   * Starts loading the call's code (capture, Jingle, the mesh and relay paths). It is a chunk of its
   * own so that pages without a call (home, the pop-out chat) never load it; a room page starts it at
   * page load, beside its own code, so that it is there by the time the room is joined.
   */
  loadCallCode(): Promise<typeof import('./callTab/createTabCallRuntime')> {
    return (this.callCode ??= import('./callTab/createTabCallRuntime'));
  }

  /** A new call runtime for a room shown in this tab; the caller starts and disposes it. */
  async createCallRuntime(roomAddress: string): Promise<CallRuntime> {
    const { createTabCallRuntime } = await this.loadCallCode();
    return createTabCallRuntime({ roomAddress, bridge: this.bridge, store: this.store, analysis: this.analysisWorker() });
  }

  /** Started on first use: a pop-out chat never analyses audio. */
  private analysisWorker(): Remote<AnalysisWorkerApi> {
    return (this.analysis ??= startAnalysisWorker());
  }
}
