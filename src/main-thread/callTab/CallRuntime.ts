import type { createStore } from 'jotai';
import { VOLUME } from '../../protocol/constants';
import type { Preferences } from '../../protocol/entities';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import type { CallEngine } from '../call/CallEngine';
import { callLockName } from '../call/CallOwnership';
import { CallUnsupportedError } from '../call/errors';
import { OperationQueue } from '../../common/OperationQueue';
import { DeviceManager, MediaItems, supportsAudioOutputSelection, type MediaDevicesApi, type MediaItemsOptions } from '../media';
import type { TileNeed } from '../relay/tileProfile';
import { callAtomFamily, connectionAtom, peersAtom, preferencesAtom, roomByAddressAtomFamily } from '../sessionAtoms';
import { createCallTabAtoms, type CallPhase, type CallTabAtoms, type SelectedDevices } from './callTabAtoms';
import { LocalCapture, type CaptureUse } from './LocalCapture';
import { MediaElements } from './MediaElements';
import { PushToTalk } from './PushToTalk';
import type { TileObservers } from './RemoteTileNeeds';
import { selfFactsChange, selfMediaFacts, type SelfMediaFacts } from './selfMediaFacts';
import type { CallTabCommands } from './sessionCommands';
import { VoiceMonitors, type StartVoiceMonitor } from './VoiceMonitors';

type JotaiStore = ReturnType<typeof createStore>;

/** What the runtime needs of a call engine: CallEngine in a tab, a fake in unit tests. */
export type CallEngineLike = Pick<CallEngine, 'start' | 'close' | 'setTileNeed' | 'on'>;

/** Web Locks as far as the runtime reads them: who holds the call's lock. */
export interface CallLockQuery {
  query(): Promise<{ held?: ReadonlyArray<{ name?: string }> }>;
}

export interface CallRuntimeOptions {
  readonly roomAddress: string;
  /** The tab's store: the session's mirrored state is read from it; the runtime's atoms live in it. */
  readonly store: JotaiStore;
  readonly commands: CallTabCommands;
  /** navigator.mediaDevices; undefined where the page may not capture (not a secure context). */
  readonly mediaDevices: MediaDevicesApi | undefined;
  readonly locks: CallLockQuery;
  readonly clock: Clock;
  readonly logger: Logger;
  /** A call engine for this room over the tab's bridge, sending and receiving through `media`. */
  readonly createEngine: (media: MediaItems, iceServers: readonly RTCIceServer[]) => CallEngineLike;
  readonly startVoiceMonitor: StartVoiceMonitor;
  /** The analysis worker's speaking threshold (preference voiceActivityThreshold). */
  readonly setVoiceThreshold: (thresholdDb: number) => void;
  /** Where push-to-talk hears the key: the tab's window. */
  readonly keyTarget: EventTarget;
  /** Fills media items' loaded, width and height (probeMediaLoaded in a tab). */
  readonly probeLoaded?: MediaItemsOptions['probeLoaded'];
  /** The browser's observers in a tab (browserTileObservers); without them every remote video asks for its best. */
  readonly tileObservers?: TileObservers;
}

/** Where the page may not capture, the device list is simply empty. */
const NO_MEDIA_DEVICES: MediaDevicesApi = {
  enumerateDevices: () => Promise.resolve([]),
  getUserMedia: () => Promise.reject(new DOMException('getUserMedia is not available', 'NotSupportedError')),
  getSupportedConstraints: () => ({}),
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
};

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The call of one room in the tab that shows the room (never the pop-out chat): devices, capture,
 * media items, the call engine, voice activity, audio output and volume, wired into Jotai atoms
 * (`atoms`) that React reads, with the actions React calls.
 *
 * The flow: the room opens in the preview (camera and microphone captured at once where the
 * browser has already granted them, else on "Request Media"); "Join call" takes the call's Web Lock
 * through the engine, joins the call and shares the preview's media. The call record is the
 * shared state of record: when it says joined without this tab having asked (another tab of yours
 * joined, or this tab was reloaded in the call), this tab waits for the lock — showing that the
 * call runs elsewhere while another tab holds it — and runs the call once it has it. When the
 * record says the call was left, every tab lets go of it and its media.
 */
export class CallRuntime {
  readonly atoms: CallTabAtoms;
  readonly media: MediaItems;
  readonly audioOutputSelectable = supportsAudioOutputSelection();
  private readonly devices: DeviceManager;
  private readonly queue = new OperationQueue();
  private readonly local: LocalCapture;
  private readonly elements: MediaElements;
  private readonly voice: VoiceMonitors;
  private readonly pushToTalk: PushToTalk;
  private readonly unsubscribes: Array<() => void> = [];
  private engine: CallEngineLike | undefined;
  /** A join or leave of ours the call record does not show yet: until it does, the record is not followed. */
  private expectedJoined: boolean | undefined;
  private announcedSpeaking = false;
  /** This tab runs the call and so tells the session your own media facts. */
  private reportsSelf = false;
  /** What we last reported, for the self peer record it went to (a rejoin makes a new record). */
  private sentSelf: { record: string; facts: SelfMediaFacts } | undefined;
  private pushToTalkOn = false;
  private mutedBeforePushToTalk = false;
  private threshold: number | undefined;
  private disposed = false;

  constructor(private readonly options: CallRuntimeOptions) {
    const { clock, logger, store } = options;
    this.atoms = createCallTabAtoms(options.roomAddress);
    this.media = new MediaItems({ clock, ...(options.probeLoaded ? { probeLoaded: options.probeLoaded } : {}) });
    this.devices = new DeviceManager({ mediaDevices: options.mediaDevices ?? NO_MEDIA_DEVICES, clock, logger });
    this.local = new LocalCapture({
      media: this.media,
      devices: this.devices,
      mediaDevices: options.mediaDevices,
      queue: this.queue,
      clock,
      logger,
      use: () => this.captureUse(),
      resolutionTiers: () => store.get(connectionAtom).callConfig?.videoResolutionTiers,
      keepMicrophoneMuted: () => this.pushToTalkOn && !this.pushToTalk.isHeld,
      onProblem: (problem) => this.setProblem(problem),
    });
    this.elements = new MediaElements({
      media: this.media,
      outputSettings: () => ({ peers: store.get(peersAtom), preferences: store.get(preferencesAtom) }),
      logger,
      onPlaybackBlocked: (blocked) => store.set(this.atoms.playbackBlocked, blocked),
      onTileNeed: (itemId, need) => this.requestQuality(itemId, need),
      tileObservers: options.tileObservers,
    });
    this.voice = new VoiceMonitors({ media: this.media, start: options.startVoiceMonitor, logger });
    this.pushToTalk = new PushToTalk({ target: options.keyTarget, onHeldChange: (held) => this.onTalkKey(held) });
  }

  get roomAddress(): string {
    return this.options.roomAddress;
  }

  get screenShareSupported(): boolean {
    return this.local.screenShareSupported;
  }

  private get phase(): CallPhase {
    return this.options.store.get(this.atoms.phase);
  }

  /** Starts following the room's call and the devices, and opens the preview. */
  start(): void {
    const { store } = this.options;
    const itemsChanged = (): void => this.onItemsChanged();
    this.unsubscribes.push(
      this.media.on('added', itemsChanged),
      this.media.on('updated', itemsChanged),
      this.media.on('removed', itemsChanged),
      this.devices.on('change', (state) => store.set(this.atoms.devices, state)),
      store.sub(callAtomFamily(this.roomAddress), () => this.followCall()),
      store.sub(preferencesAtom, () => this.followPreferences()),
      store.sub(this.atoms.enlargedVideoItemId, () => this.elements.setEnlargedVideo(store.get(this.atoms.enlargedVideoItemId))),
      store.sub(peersAtom, () => {
        this.elements.refreshOutputs();
        this.followSelfFacts();
      }),
    );
    this.voice.start();
    this.devices.start();
    this.followPreferences();
    this.followCall();
    void this.local.openPreview();
  }

  /** Lets go of everything: the view is gone. A call this tab ran is left. */
  dispose(): void {
    if (this.disposed) return;
    if (this.phase === 'in-call') {
      this.options.commands.rooms.leaveCall(this.roomAddress).catch((error: unknown) => this.options.logger.error(`leaving the call failed: ${describe(error)}`));
    }
    this.setPhase('preview');
    this.disposed = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.pushToTalk.setEnabled(false);
    this.devices.stop();
    this.voice.dispose();
    this.elements.dispose();
    this.local.close();
    const engine = this.engine;
    this.engine = undefined;
    engine?.close().catch((error: unknown) => this.options.logger.error(`closing the call failed: ${describe(error)}`));
    this.media.removeAllLocal();
    this.queue.close();
  }

  // ------------------------------------------------------------------------------------------
  // Actions (React calls these)
  // ------------------------------------------------------------------------------------------

  /** "Join call": take the call's lock, join the call, share the preview's media. */
  async joinCall(): Promise<void> {
    if (this.disposed || this.phase !== 'preview') return;
    this.setProblem(undefined);
    this.expectedJoined = true;
    const engine = this.openEngine();
    if (!(await this.runEngine(engine))) {
      this.expectedJoined = undefined;
      return;
    }
    try {
      await this.options.commands.rooms.joinCall(this.roomAddress);
    } catch (error) {
      this.options.logger.error(`joining the call failed: ${describe(error)}`);
      this.expectedJoined = undefined;
      await this.endCall();
      this.setProblem('You could not join the call. Check your connection and try again.');
      return;
    }
    await this.enterCall(engine);
  }

  /** Leaves the call (this tab's, or the one another tab runs): every tab lets go of it. */
  async hangUp(): Promise<void> {
    if (this.disposed || !this.engine) return;
    this.expectedJoined = false;
    await this.endCall();
    try {
      await this.options.commands.rooms.leaveCall(this.roomAddress);
    } catch (error) {
      this.options.logger.error(`leaving the call failed: ${describe(error)}`);
      this.expectedJoined = undefined;
      this.followCall();
    }
  }

  /**
   * SPEC §2 "Request Media", from a click: plays what autoplay held back, and captures camera and
   * microphone when neither runs yet (a permission prompt needs the person's gesture).
   */
  async requestMedia(): Promise<void> {
    this.elements.resumePlayback();
    if (this.phase === 'preview' || this.phase === 'in-call') await this.local.requestCameraAndMicrophone();
  }

  /** "Mute microphone" / "Unmute microphone"; with no microphone yet, starts one. */
  toggleMicrophone(): Promise<void> {
    return this.local.toggleMicrophone();
  }

  setMicrophoneMuted(muted: boolean): void {
    this.local.setMicrophoneMuted(muted);
  }

  /** "Stop camera" / "Start camera". */
  toggleCamera(): Promise<void> {
    return this.local.toggleCamera();
  }

  /** "Start Screenshare" (in the call). */
  startScreenShare(): Promise<void> {
    this.setProblem(undefined);
    return this.local.startScreenShare();
  }

  stopScreenShare(): void {
    this.local.stopScreenShare();
  }

  selectCamera(deviceId: string): Promise<void> {
    return this.local.selectCamera(deviceId);
  }

  selectMicrophone(deviceId: string): Promise<void> {
    return this.local.selectMicrophone(deviceId);
  }

  /** Preference audioOutputDeviceId ('' is the system default); every remote audio follows it. */
  selectSpeaker(deviceId: string): void {
    this.savePreferences({ audioOutputDeviceId: deviceId });
  }

  /** SPEC §9: deafen sets the global volume limit to 0, undeafen back to 1. */
  setDeafened(deafened: boolean): void {
    this.savePreferences({ globalVolumeLimit: deafened ? VOLUME.deafenedGlobalLimit : VOLUME.globalLimitDefault });
  }

  setPushToTalk(enabled: boolean): void {
    this.savePreferences({ pushToTalk: enabled });
  }

  /** SPEC §3 Peer volumeLimit: how loud you hear that person, 0 to 1. */
  setPeerVolume(peerAddress: string, volumeLimit: number): void {
    this.options.commands.calls.setPeerVolumeLimit(peerAddress, volumeLimit).catch((error: unknown) => this.options.logger.error(`volume of ${peerAddress} not set: ${describe(error)}`));
  }

  /** "Enlarge" / "Back to grid" on a tile: it fills the stage and gets its sender's best quality. */
  toggleEnlarged(tileKey: string): void {
    const { store } = this.options;
    store.set(this.atoms.enlargedTileKey, store.get(this.atoms.enlargedTile) === tileKey ? undefined : tileKey);
  }

  dismissProblem(): void {
    this.setProblem(undefined);
  }

  /** Plays a media item's video in an element; returns the detach. */
  attachVideo(itemId: string, element: HTMLVideoElement): () => void {
    return this.elements.attachVideo(itemId, element);
  }

  /** Plays a remote audio item in an `<audio>` element; returns the detach. */
  attachAudio(itemId: string, element: HTMLAudioElement): () => void {
    return this.elements.attachAudio(itemId, element);
  }

  // ------------------------------------------------------------------------------------------
  // Following the call record
  // ------------------------------------------------------------------------------------------

  private followCall(): void {
    if (this.disposed) return;
    const joined = this.options.store.get(callAtomFamily(this.roomAddress))?.joined === true;
    if (this.expectedJoined !== undefined) {
      if (joined !== this.expectedJoined) return;
      this.expectedJoined = undefined;
    }
    if (joined && !this.engine) void this.takeCall();
    else if (!joined && this.engine) void this.endCall();
  }

  /** The record says you are in the call and no engine of ours runs it: run it once the lock is ours. */
  private async takeCall(): Promise<void> {
    const engine = this.openEngine();
    if (await this.runEngine(engine)) await this.enterCall(engine);
  }

  private openEngine(): CallEngineLike {
    const config = this.options.store.get(connectionAtom).callConfig;
    const engine = this.options.createEngine(this.media, config?.iceServers ?? []);
    this.engine = engine;
    engine.on('sendLoad', (load) => {
      if (this.engine === engine) this.local.followSendLoad(load);
    });
    return engine;
  }

  /** Starts the engine (it waits for the call's lock); true once it runs and is still ours. */
  private async runEngine(engine: CallEngineLike): Promise<boolean> {
    this.setPhase('joining');
    if (await this.callRunsElsewhere()) {
      if (this.engine !== engine) return false;
      this.setPhase('elsewhere');
      // Another tab sends your camera and microphone: this one keeps none open.
      this.media.removeAllLocal();
    }
    try {
      await engine.start();
    } catch (error) {
      this.options.logger.error(`the call could not start: ${describe(error)}`);
      if (this.engine === engine) {
        this.engine = undefined;
        this.setPhase('unsupported');
        this.setProblem(error instanceof CallUnsupportedError ? "This browser can't make calls. Use a current version of Chrome, Edge, Firefox or Safari." : 'The call could not start.');
      }
      return false;
    }
    return this.engine === engine && !this.disposed;
  }

  private async callRunsElsewhere(): Promise<boolean> {
    try {
      const { held = [] } = await this.options.locks.query();
      return held.some((lock) => lock.name === callLockName(this.roomAddress));
    } catch {
      return false;
    }
  }

  private async enterCall(engine: CallEngineLike): Promise<void> {
    if (this.engine !== engine || this.disposed) return;
    this.reportsSelf = true;
    this.setPhase('in-call');
    await this.local.startForCall();
  }

  /** SPEC §4: leaving the call ends its sessions and removes the local media. */
  private async endCall(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    const closing = engine?.close();
    // Out of the call first, so that what is said of you (speaking, muted) is cleared, not updated.
    this.setPhase('preview');
    this.reportsSelf = false;
    this.media.removeAllLocal();
    await closing?.catch((error: unknown) => this.options.logger.error(`closing the call failed: ${describe(error)}`));
  }

  private captureUse(): CaptureUse {
    if (this.disposed) return 'none';
    switch (this.phase) {
      case 'in-call':
        return 'call';
      case 'elsewhere':
        return 'none';
      default:
        return 'preview';
    }
  }

  // ------------------------------------------------------------------------------------------
  // What follows the media and the preferences
  // ------------------------------------------------------------------------------------------

  private onItemsChanged(): void {
    if (this.disposed) return;
    const { store } = this.options;
    store.set(this.atoms.items, this.media.all());
    const selected = this.selectedDevices();
    const current = store.get(this.atoms.selectedDevices);
    if (selected.camera !== current.camera || selected.microphone !== current.microphone) store.set(this.atoms.selectedDevices, selected);
    this.followSpeaking();
    this.followSelfFacts();
  }

  private selectedDevices(): SelectedDevices {
    const { microphone, camera } = this.local.state();
    const deviceOf = (itemId: string | undefined) => (itemId === undefined ? undefined : this.media.getTrack(itemId)?.getSettings().deviceId);
    return { camera: deviceOf(camera?.itemId), microphone: deviceOf(microphone?.itemId) };
  }

  /** Issue 6: your speaking goes to the room while you are in the call and not muted. */
  private followSpeaking(): void {
    const microphone = this.local.state().microphone;
    const speaking = !this.disposed && this.phase === 'in-call' && microphone !== undefined && !microphone.muted && microphone.speaking;
    if (speaking === this.announcedSpeaking) return;
    this.announcedSpeaking = speaking;
    this.options.commands.calls.setSpeaking(this.roomAddress, speaking).catch((error: unknown) => this.options.logger.error(`speaking not announced: ${describe(error)}`));
  }

  /** Your own muted / camera / screen facts on your Peer record, from the tab that runs the call. */
  private followSelfFacts(): void {
    if (!this.reportsSelf) return;
    const { store } = this.options;
    const room = store.get(roomByAddressAtomFamily(this.roomAddress));
    const self = room?.selfAddress === undefined ? undefined : store.get(peersAtom)[room.selfAddress];
    if (!self) return;
    const record = `${self.address}\n${self.joinedRoomAt}`;
    // Compared with what is on its way, not with the record, which catches up only when the session's patch arrives.
    const known = this.sentSelf?.record === record ? this.sentSelf.facts : self;
    const facts = selfMediaFacts(this.local.state(), this.phase === 'in-call');
    const change = selfFactsChange(known, facts);
    if (!change) return;
    this.sentSelf = { record, facts };
    this.options.commands.calls.reportPeerMedia(self.address, change).catch((error: unknown) => this.options.logger.error(`own media not reported: ${describe(error)}`));
  }

  private followPreferences(): void {
    if (this.disposed) return;
    const preferences = this.options.store.get(preferencesAtom);
    if (preferences.voiceActivityThreshold !== this.threshold) {
      this.threshold = preferences.voiceActivityThreshold;
      this.options.setVoiceThreshold(preferences.voiceActivityThreshold);
    }
    this.followPushToTalk(preferences.pushToTalk);
    this.elements.refreshOutputs();
  }

  /** While push-to-talk is on the microphone is muted except while the key is held; off, it goes back to how it was. */
  private followPushToTalk(enabled: boolean): void {
    if (enabled === this.pushToTalkOn) return;
    this.pushToTalkOn = enabled;
    this.pushToTalk.setEnabled(enabled);
    const microphone = this.local.state().microphone;
    if (enabled) {
      this.mutedBeforePushToTalk = microphone?.muted ?? false;
      if (microphone) this.media.setLocalDisabled(microphone.itemId, !this.pushToTalk.isHeld);
    } else if (microphone) {
      this.media.setLocalDisabled(microphone.itemId, this.mutedBeforePushToTalk);
    }
  }

  private onTalkKey(held: boolean): void {
    this.options.store.set(this.atoms.talkKeyHeld, held);
    const microphone = this.local.state().microphone;
    if (this.pushToTalkOn && microphone) this.media.setLocalDisabled(microphone.itemId, !held);
  }

  /** The engine asks the sender for the quality the tile needs (relay/tileProfile). */
  private requestQuality(itemId: string, need: TileNeed): void {
    if (!this.media.get(itemId) || !this.engine) return;
    this.engine.setTileNeed(itemId, need).catch((error: unknown) => this.options.logger.error(`video quality of ${itemId} not requested: ${describe(error)}`));
  }

  private savePreferences(change: Partial<Preferences>): void {
    this.options.commands.preferences.setPreferences(change).catch((error: unknown) => this.options.logger.error(`preferences not saved: ${describe(error)}`));
  }

  private setPhase(phase: CallPhase): void {
    if (this.disposed || this.phase === phase) return;
    this.options.store.set(this.atoms.phase, phase);
    this.followSpeaking();
    this.followSelfFacts();
  }

  private setProblem(problem: string | undefined): void {
    if (!this.disposed) this.options.store.set(this.atoms.problem, problem);
  }
}
