import type { Remote } from 'comlink';
import type { createStore } from 'jotai';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';
import { mapRoomName, needsLocalpartRules, RoomNameError } from '../protocol/roomLocalpart';
import { errorMessage } from '../common/errorMessage';
import { consoleLogger } from '../common/logger';
import { BridgeCallSignaling } from './call/BridgeCallSignaling';
import { CallLocksAhead } from './call/CallLocksAhead';
import { callLockName } from './call/CallOwnership';
import type { CallRuntime } from './callTab/CallRuntime';
import { EarlyPreviewCapture, type PreviewCapture } from './media/PreviewCapture';
import type { SessionBridge } from './SessionBridge';
import { callAtomFamily, roomByNameAtomFamily, sessionUnavailableAtom } from './sessionAtoms';

export interface TabCallsOptions {
  readonly bridge: SessionBridge;
  readonly store: ReturnType<typeof createStore>;
  /** Settles once the tab is attached to the session (its state is mirrored). */
  readonly attached: Promise<void>;
  /** The tab's voice-analysis worker, started on first use. */
  readonly analysis: () => Remote<AnalysisWorkerApi>;
}

const callLog = consoleLogger('[parley call]');

/**
 * A room page's calls, in this tab: the call's code, the camera and microphone asked for as the page
 * loads, and each room's call runtime. A chunk of its own, like the call's code: the home page and
 * the pop-out chat never load it.
 */
export class TabCalls {
  private callCode: Promise<typeof import('./callTab/createTabCallRuntime')> | undefined;
  /** The camera and microphone asked for at page load, until the first call runtime takes them or the room's view lets them go. */
  private previewCapture: PreviewCapture | undefined;
  /** A call runtime took the page load's capture, or the view let it go: a capture asked for at load from now on would be nobody's. */
  private previewCaptureSettled = false;

  /** The tab's one Jingle path to the session, for every room's Call. */
  private readonly signaling: BridgeCallSignaling;
  /** The browser's Web Locks, with the call locks taken ahead (claimCallAhead). */
  private readonly locks: CallLocksAhead;

  constructor(private readonly options: TabCallsOptions) {
    this.signaling = new BridgeCallSignaling(options.bridge);
    this.locks = new CallLocksAhead(navigator.locks);
    // The worker is gone (before this chunk loaded, too): no call runtime may take the page load's
    // capture or a call's lock taken ahead, and the room's view, waiting on the session, may never
    // let them go.
    const releaseOnceStopped = (): void => {
      if (options.store.get(sessionUnavailableAtom) !== 'stopped') return;
      this.releasePreviewCapture();
      this.locks.giveUpAll();
    };
    releaseOnceStopped();
    options.store.sub(sessionUnavailableAtom, releaseOnceStopped);
  }

  /**
   * Starts loading the call's code (capture, Jingle, the mesh and relay paths). A room page starts it
   * at page load, beside its own code, so that it is there by the time the room's address is known.
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
   * as they were), this tab captures nothing of its own accord. A name that cannot name a room has
   * no call: its page asks for nothing (its view says why). Most names are read here at once; one
   * the XMPP localpart rules could refuse loads them first (`roomLocalpart.ts` says why).
   */
  startPreviewCapture(roomName: string): void {
    let localpart: string;
    try {
      localpart = mapRoomName(roomName);
    } catch (error) {
      if (error instanceof RoomNameError) return;
      throw error;
    }
    if (!needsLocalpartRules(localpart)) return this.capturePreview(roomName);
    import('../protocol/rooms')
      .then(({ roomNameError }) => (roomNameError(roomName) ? undefined : this.capturePreview(roomName)))
      .catch((error: unknown) => callLog.error(`the room name's rules did not load: ${errorMessage(error)}`));
  }

  private capturePreview(roomName: string): void {
    // Undefined on a page that may not capture (not a secure context), whatever the typings say.
    const mediaDevices = navigator.mediaDevices as MediaDevices | undefined;
    if (!mediaDevices) return;
    const { store, attached } = this.options;
    void attached.then(() => {
      const room = store.get(roomByNameAtomFamily(roomName));
      if (this.previewCaptureSettled || this.previewCapture || (room?.address && store.get(callAtomFamily(room.address))?.joined)) return;
      this.previewCapture = EarlyPreviewCapture.startForPreview(mediaDevices, navigator.permissions as Permissions | undefined);
    });
  }

  /**
   * "Join call" was clicked before the room's call runtime was up, and the room's address is known:
   * the call's lock is taken and the call claimed now, for the Call the runtime will start (issue
   * 14, the join path). The offers the others make on hearing you joined then wait in this tab,
   * not for the call's code, its stage and a lock round trip after them. Another tab that runs the
   * call keeps it: nothing is claimed, and the Call waits for the lock as ever.
   */
  claimCallAhead(roomAddress: string): void {
    this.locks
      .takeAhead(callLockName(roomAddress))
      .then((taken) => (taken ? this.signaling.claimAhead(roomAddress) : undefined))
      .catch((error: unknown) => callLog.error(`the call could not be claimed ahead: ${errorMessage(error)}`));
  }

  /** The room's view went before a Call took what claimCallAhead took: the lock and the claim are let go. */
  dropCallAhead(roomAddress: string): void {
    this.locks.giveUpAhead(callLockName(roomAddress));
    if (this.signaling.claimedAhead(roomAddress)) {
      this.signaling.releaseCall(roomAddress).catch((error: unknown) => callLog.error(`the call could not be released: ${errorMessage(error)}`));
    }
  }

  /**
   * The room's view went, or its room cannot have a call (a name that cannot name a room, a lookup or
   * join that failed, the room ended for us, the session's worker gone), and no call runtime took
   * the page load's capture: the camera and microphone go off, and are not asked for should the ask
   * still wait for the session.
   */
  releasePreviewCapture(): void {
    this.previewCaptureSettled = true;
    this.previewCapture?.release();
    this.previewCapture = undefined;
  }

  /** A new call runtime for a room shown in this tab; the caller starts and disposes it. The first one gets the page load's capture. */
  async createCallRuntime(roomAddress: string): Promise<CallRuntime> {
    const { createTabCallRuntime } = await this.loadCallCode();
    this.previewCaptureSettled = true;
    const previewCapture = this.previewCapture;
    this.previewCapture = undefined;
    const { bridge, store, analysis } = this.options;
    return createTabCallRuntime({ roomAddress, bridge, store, analysis: analysis(), previewCapture, signaling: this.signaling, locks: this.locks });
  }
}
