import type { Remote } from 'comlink';
import type { createStore } from 'jotai';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';
import { VIDEO_RESOLUTION_TIERS } from '../protocol/constants';
import { startAnalysisWorker } from './AnalysisWorker';
import type { CallRuntime } from './callTab/CallRuntime';
import { EarlyPreviewCapture } from './media/PreviewCapture';
import { cameraConstraintsFor, captureResolutionTier, NO_SEND_LOAD } from './media/videoResolution';
import { SessionBridge, type TabActions } from './SessionBridge';
import { callAtomFamily, roomByNameAtomFamily } from './sessionAtoms';

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
  /** The camera and microphone asked for at page load, until the first call runtime takes them. */
  private previewCapture: EarlyPreviewCapture | undefined;
  /** A call runtime has been made: a capture asked for at load from now on would be nobody's. */
  private runtimeMade = false;

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

  /**
   * A room page asks for the camera and microphone as it loads (issue 14, the join path): the
   * preview then shows them as soon as the call's code runs, instead of asking only then. The
   * browser's prompt, where it asks, shows on the room's pre-join screen; a kind the person refused
   * is not asked for (`previewKinds`). Once the tab has the session's state: when you are in this
   * room's call already (another tab runs it, or this tab takes it over with your mute and camera
   * as they were), this tab captures nothing of its own accord.
   */
  startPreviewCapture(roomName: string): void {
    // Undefined on a page that may not capture (not a secure context), whatever the typings say.
    const mediaDevices = navigator.mediaDevices as MediaDevices | undefined;
    if (!mediaDevices) return;
    void this.attached.then(() => {
      const room = this.store.get(roomByNameAtomFamily(roomName));
      if (this.runtimeMade || this.previewCapture || (room?.address && this.store.get(callAtomFamily(room.address))?.joined)) return;
      const tier = captureResolutionTier(NO_SEND_LOAD, VIDEO_RESOLUTION_TIERS);
      this.previewCapture = EarlyPreviewCapture.start(mediaDevices, navigator.permissions as Permissions | undefined, tier ? cameraConstraintsFor(tier) : {});
    });
  }

  /** A new call runtime for a room shown in this tab; the caller starts and disposes it. The first one gets the page load's capture. */
  async createCallRuntime(roomAddress: string): Promise<CallRuntime> {
    const { createTabCallRuntime } = await this.loadCallCode();
    this.runtimeMade = true;
    const previewCapture = this.previewCapture;
    this.previewCapture = undefined;
    return createTabCallRuntime({ roomAddress, bridge: this.bridge, store: this.store, analysis: this.analysisWorker(), previewCapture });
  }

  /** Started on first use: a pop-out chat never analyses audio. */
  private analysisWorker(): Remote<AnalysisWorkerApi> {
    return (this.analysis ??= startAnalysisWorker());
  }
}
