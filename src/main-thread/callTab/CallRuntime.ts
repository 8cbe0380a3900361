import type { createStore } from 'jotai';
import { VOLUME } from '../../protocol/constants';
import type { OwnMediaRequest } from '../../protocol/commands';
import type { Preferences } from '../../protocol/entities';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { OperationQueue } from '../../common/OperationQueue';
import {
  DeviceManager,
  MediaItems,
  supportsAudioOutputSelection,
  withPreviewCapture,
  type CapturePermissions,
  type MediaDevicesApi,
  type MediaItem,
  type MediaItemsOptions,
  type PreviewCapture,
} from '../media';
import type { TileNeed } from '../call/receive/tileProfile';
import { connectionsAtom, heldPeersAtom } from '../call/callAtoms';
import { callAtomFamily, connectionAtom, peersAtom, preferencesAtom, roomPeersAtomFamily, sessionUnavailableAtom } from '../sessionAtoms';
import { createCallTabAtoms, type CallPhase, type CallTabAtoms, type SelectedDevices } from './callTabAtoms';
import { LocalCapture, type CaptureUse } from './LocalCapture';
import { MediaElements } from './MediaElements';
import { PushToTalkMicrophone } from './PushToTalkMicrophone';
import type { TileObservers } from './RemoteTileNeeds';
import { CallSeat, type CallLike } from './CallSeat';
import { ConnectionTroubles } from './ConnectionTroubles';
import { SelfReports } from './SelfReports';
import { HeldPeerReports } from './HeldPeerReports';
import { ScreenStage } from './ScreenStage';
import type { OwnMediaAtReload } from './callAfterReload';
import { ownMediaChange } from './callHandover';
import type { CallTabCommands } from './sessionCommands';
import { VoiceMonitors, type StartVoiceMonitor } from './VoiceMonitors';
import { errorMessage } from '../../common/errorMessage';

type JotaiStore = ReturnType<typeof createStore>;

/** Whether an update changed an item's volume and nothing else. */
function volumeAlone(item: MediaItem, previous: MediaItem): boolean {
  if (item.volume === previous.volume) return false;
  return (Object.keys(item) as (keyof MediaItem)[]).every((key) => key === 'volume' || item[key] === previous[key]);
}

export interface CallRuntimeOptions {
  readonly roomAddress: string;
  /** The tab's store: the session's mirrored state is read from it; the runtime's atoms live in it. */
  readonly store: JotaiStore;
  readonly commands: CallTabCommands;
  /** navigator.mediaDevices; undefined where the page may not capture (not a secure context). */
  readonly mediaDevices: MediaDevicesApi | undefined;
  /** What the browser says of camera and microphone access (readCapturePermissions in a tab). */
  readonly capturePermissions: () => Promise<CapturePermissions>;
  /** The camera and microphone the page asked for as it loaded: the preview's first capture takes them. */
  readonly previewCapture?: PreviewCapture | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  /** A Call for this room over the tab's bridge, sending and receiving through `media`. */
  readonly createCall: (media: MediaItems, iceServers: readonly RTCIceServer[]) => CallLike;
  readonly startVoiceMonitor: StartVoiceMonitor;
  /** The analysis worker's speaking threshold (preference voiceActivityThreshold). */
  readonly setVoiceThreshold: (thresholdDb: number) => void;
  /** The page's window: its keys (push-to-talk) and its focus, on which the preview asks again for a device another app held. */
  readonly pageWindow: EventTarget;
  /** Fills media items' loaded, width and height (probeMediaLoaded in a tab). */
  readonly probeLoaded?: MediaItemsOptions['probeLoaded'];
  /** The browser's observers in a tab (browserTileObservers); without them every remote video asks for its best. */
  readonly tileObservers?: TileObservers;
  /** Follows what other tabs of yours ask of this call (the pop-out chat's microphone and camera); returns the unfollow. */
  readonly ownMediaRequests?: (apply: (change: OwnMediaRequest) => void) => () => void;
  /** A live video track that holds no device, for a camera turned off (standInCameraStream in a tab). */
  readonly standInCamera: () => MediaStream;
}

/** Where the page may not capture, the device list is simply empty. */
const NO_MEDIA_DEVICES: MediaDevicesApi = {
  enumerateDevices: () => Promise.resolve([]),
  getUserMedia: () => Promise.reject(new DOMException('getUserMedia is not available', 'NotSupportedError')),
  getSupportedConstraints: () => ({}),
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
};


/**
 * The call of one room in the tab that shows the room (never the pop-out chat): devices, capture,
 * media items, the call, voice activity, audio output and volume, wired into Jotai atoms
 * (`atoms`) that React reads, with the actions React calls.
 *
 * The flow: the room opens in the preview (camera and microphone asked for at once, unless the
 * person refused them: then on "Request Media"); "Join call" takes the call's Web Lock
 * through the call, joins the call and shares the preview's media. The call record is the
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
  private readonly pushToTalk: PushToTalkMicrophone;
  private readonly unsubscribes: Array<() => void> = [];
  private readonly seat: CallSeat;
  private readonly selfReports: SelfReports;
  private readonly heldPeerReports: HeldPeerReports;
  private readonly troubles: ConnectionTroubles;
  private readonly screenStage = new ScreenStage();
  private threshold: number | undefined;
  private disposed = false;
  /** Your own media in the call as its session's worker ended (`letGoWithSession`): what a reload joins the call again with. */
  private ownMediaAtSessionEnd: OwnMediaAtReload | undefined;

  constructor(private readonly options: CallRuntimeOptions) {
    const { clock, logger, store } = options;
    this.atoms = createCallTabAtoms(options.roomAddress);
    this.media = new MediaItems({ clock, ...(options.probeLoaded ? { probeLoaded: options.probeLoaded } : {}) });
    this.devices = new DeviceManager({ mediaDevices: options.mediaDevices ?? NO_MEDIA_DEVICES, clock, logger });
    const { mediaDevices, previewCapture } = options;
    this.local = new LocalCapture({
      media: this.media,
      devices: this.devices,
      mediaDevices: mediaDevices && previewCapture ? withPreviewCapture(mediaDevices, previewCapture) : mediaDevices,
      permissions: options.capturePermissions,
      queue: this.queue,
      clock,
      logger,
      use: () => this.captureUse(),
      resolutionTiers: () => store.get(connectionAtom).callConfig?.videoResolutionTiers,
      keepMicrophoneMuted: () => this.pushToTalk.keepsMuted,
      onProblem: (problem) => this.setProblem(problem),
      onTroubles: (troubles) => store.set(this.atoms.deviceTroubles, troubles),
      released: () => store.get(this.atoms.leftCall),
      onWanted: (wanted) => store.set(this.atoms.joinWith, wanted),
      onPicked: (picked) => store.set(this.atoms.pickedDevices, picked),
      standInCamera: options.standInCamera,
    });
    this.elements = new MediaElements({
      media: this.media,
      outputSettings: () => ({ peers: store.get(peersAtom), preferences: store.get(preferencesAtom) }),
      logger,
      onPlaybackBlocked: (blocked) => store.set(this.atoms.playbackBlocked, blocked),
      onTileNeed: (itemId, need) => this.requestQuality(itemId, need),
      onFrameSize: (itemId, size) => this.seat.current?.setFrameSize(itemId, size),
      tileObservers: options.tileObservers,
      clock,
    });
    this.voice = new VoiceMonitors({ media: this.media, start: options.startVoiceMonitor, logger, clock, previewShowsLevel: () => this.phase === 'preview' });
    this.pushToTalk = new PushToTalkMicrophone({
      media: this.media,
      keyTarget: options.pageWindow,
      microphone: () => this.local.state().microphone,
      onHeldChange: (held) => store.set(this.atoms.talkHeld, held),
    });
    this.seat = new CallSeat({
      roomAddress: options.roomAddress,
      store,
      commands: options.commands,
      logger,
      createCall: () => options.createCall(this.media, store.get(connectionAtom).callConfig?.iceServers ?? []),
      host: {
        setPhase: (phase) => this.setPhase(phase),
        setProblem: (problem) => this.setProblem(problem),
        removeLocalMedia: () => {
          this.local.letGo();
          this.options.store.set(this.atoms.leftCall, true);
        },
        resumeOwnMedia: () => this.resumeOwnMedia(),
        startLocalMedia: () => this.local.startForCall(),
        followSendLoad: (load) => this.local.followSendLoad(load),
        setReporting: (reporting) => this.selfReports.setReporting(reporting),
        sessionFailed: (peerAddress, bringingTheirMedia) => this.troubles.failed(peerAddress, bringingTheirMedia),
        setSendingPoorly: (losing) => store.set(this.atoms.sendingPoorly, losing),
      },
    });
    this.troubles = new ConnectionTroubles({ roomAddress: options.roomAddress, store, clock, troubles: this.atoms.connectionTroubles });
    this.heldPeerReports = new HeldPeerReports({ roomAddress: options.roomAddress, store, commands: options.commands, logger });
    this.selfReports = new SelfReports({
      roomAddress: options.roomAddress,
      store,
      commands: options.commands,
      logger,
      local: () => this.local.state(),
      troubles: () => store.get(this.atoms.deviceTroubles),
      wanted: () => store.get(this.atoms.joinWith),
      inCall: () => !this.disposed && this.phase === 'in-call',
    });
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

  /**
   * Starts following the room's call and the devices, and opens the preview. `joinCall`: "Join
   * call" was clicked before this runtime was up; its join may have reached the session already
   * (useRoomCallRuntime), so a call record that says joined is this tab's own join, not a call to
   * take over from another tab. Resolves once the call's lock has answered that join (at once
   * without one): a stage mounted after that does not hold the lock's grant, and so the call's claim
   * and the offers waiting for it, behind its render (issue 14, the join path).
   */
  start({ joinCall = false }: { joinCall?: boolean } = {}): Promise<void> {
    const { store } = this.options;
    // The worker was found gone before: the subscription below would never fire, and a preview or a
    // join would run on, the camera on and the call's lock held, for a session that answers nothing.
    if (store.get(sessionUnavailableAtom) === 'stopped') {
      store.set(this.atoms.previewStarting, false);
      this.letGoWithSession();
      return Promise.resolve();
    }
    const itemsChanged = (): void => this.onItemsChanged();
    this.unsubscribes.push(
      this.media.on('added', itemsChanged),
      this.media.on('updated', (item, previous) => (volumeAlone(item, previous) ? this.onVolume(item) : this.onItemsChanged())),
      this.media.on('removed', itemsChanged),
      this.devices.on('change', (state) => {
        store.set(this.atoms.devices, state);
        this.elements.retryUnavailableOutputs(state.list.filter((device) => device.kind === 'audiooutput').map((device) => device.deviceId));
      }),
      // The record may say joined only after the join's answer: what it keeps of your media is written then.
      store.sub(callAtomFamily(this.roomAddress), () => {
        this.seat.follow();
        this.selfReports.follow();
      }),
      store.sub(preferencesAtom, () => this.followPreferences()),
      store.sub(this.atoms.enlargedVideoItemId, () => this.elements.setEnlargedVideo(store.get(this.atoms.enlargedVideoItemId))),
      store.sub(this.atoms.tiles, () => this.followScreens()),
      store.sub(peersAtom, () => {
        this.elements.refreshOutputs();
        this.selfReports.follow();
      }),
      store.sub(this.atoms.deviceTroubles, () => this.selfReports.follow()),
      this.followPageFocus(),
      // Whom the connection keeps failing with, for their tiles.
      store.sub(connectionsAtom, () => this.followTroubles()),
      store.sub(roomPeersAtomFamily(this.roomAddress), () => this.followTroubles()),
      store.sub(heldPeersAtom, () => {
        this.followTroubles();
        this.heldPeerReports.follow();
      }),
      () => this.troubles.clear(),
      this.options.ownMediaRequests?.((change) => this.applyOwnMediaRequest(change)) ?? (() => undefined),
      store.sub(sessionUnavailableAtom, () => {
        if (store.get(sessionUnavailableAtom) === 'stopped') this.letGoWithSession();
      }),
    );
    this.voice.start();
    this.devices.start();
    this.followPreferences();
    const lockAnswered = joinCall ? new Promise<void>((answered) => void this.seat.join(answered).finally(answered)) : Promise.resolve();
    if (!joinCall) this.seat.follow();
    // The page's early capture serves the preview's first capture only: whatever that did, it is let go.
    void this.local.openPreview().finally(() => {
      store.set(this.atoms.previewStarting, false);
      this.options.previewCapture?.release();
    });
    return lockAnswered;
  }

  /** Lets go of everything: the view is gone. A call this tab ran is left. */
  dispose(): void {
    if (this.disposed) return;
    if (this.phase === 'in-call') {
      this.options.commands.rooms.leaveCall(this.roomAddress).catch((error: unknown) => this.options.logger.error(`leaving the call failed: ${errorMessage(error)}`));
    }
    this.letGo();
  }

  /**
   * The session's worker is gone (SessionBridge): everything is let go as when the view goes — the
   * camera and microphone, the call's connections and relay link, its lock — but the call is not
   * left through the session, which is no more. Your media in it are kept for the page's reload,
   * which joins the call again as you were (useRoomCallRuntime, callAfterReload).
   */
  private letGoWithSession(): void {
    this.ownMediaAtSessionEnd = this.ownMediaInCall();
    this.letGo();
  }

  private letGo(): void {
    this.setPhase('preview');
    this.disposed = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.pushToTalk.dispose();
    this.devices.stop();
    this.voice.dispose();
    this.elements.dispose();
    this.local.close();
    this.seat.dispose();
    this.media.removeAllLocal();
    this.queue.close();
    // Disposed before its preview took the page's early capture (the view went as the runtime was made): it is let go.
    this.options.previewCapture?.release();
  }

  // ------------------------------------------------------------------------------------------
  // Actions (React calls these)
  // ------------------------------------------------------------------------------------------

  /** "Join call": take the call's lock, join the call, share the preview's media. */
  async joinCall(): Promise<void> {
    if (this.disposed || this.phase !== 'preview') return;
    await this.seat.join();
  }

  /**
   * This tab's page was reloaded while it ran the call, and no tab of yours runs it now
   * (callAfterReload): it joins again, muted, camera off and screen share ended as you left it, and says so.
   */
  async rejoinAfterReload(own: OwnMediaAtReload): Promise<void> {
    if (this.disposed || this.phase !== 'preview') return;
    this.local.resumeAs(own);
    this.options.store.set(this.atoms.handover, { moved: false, microphoneMuted: own.microphoneMuted, cameraOff: own.cameraOff, screenShareEnded: own.sharingScreen });
    await this.seat.join();
  }

  /** Your own media while this tab runs the call, as the call record is to say it (as it was when its session ended); undefined out of the call. */
  ownMediaInCall(): OwnMediaAtReload | undefined {
    if (this.disposed) return this.ownMediaAtSessionEnd;
    const { store } = this.options;
    const record = store.get(callAtomFamily(this.roomAddress))?.ownMedia;
    if (this.phase !== 'in-call' || !record) return undefined;
    const own = { ...record, ...ownMediaChange(record, this.local.state(), store.get(this.atoms.deviceTroubles), store.get(this.atoms.joinWith)) };
    return { microphoneMuted: own.microphoneMuted, cameraOff: own.cameraOff, sharingScreen: own.sharingScreen };
  }

  /** Leaves the call (this tab's, or the one another tab runs): every tab lets go of it. */
  hangUp(): Promise<void> {
    return this.seat.hangUp();
  }

  /** "Move call here": the call another tab of yours runs comes to this one, your mute and camera with it. */
  moveCallHere(): void {
    if (!this.disposed && this.phase === 'elsewhere') this.seat.moveHere();
  }

  /**
   * SPEC §2 "Request Media", from a click: plays what autoplay held back, and captures the camera
   * and microphone the person wants on when neither runs yet (a permission prompt needs the person's
   * gesture) — none they left off, for someone who only listens.
   */
  async requestMedia(): Promise<void> {
    this.elements.resumePlayback();
    if (this.phase === 'preview' || this.phase === 'in-call') await this.local.requestWantedDevices();
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

  /**
   * Another tab of yours asked for your mute or camera (the pop-out chat): what this tab's own
   * buttons would do, and only what they would — in the call, not while push-to-talk holds the
   * microphone, not while the device is on its way, not for a device there is none of.
   */
  private applyOwnMediaRequest(change: OwnMediaRequest): void {
    if (this.disposed || this.phase !== 'in-call') return;
    const { microphone, camera } = this.options.store.get(this.atoms.deviceToggles);
    if (change.microphoneMuted !== undefined && microphone.enabled && microphone.on === change.microphoneMuted) void this.toggleMicrophone();
    if (change.cameraOff !== undefined && camera.enabled && camera.on === change.cameraOff) void this.toggleCamera();
    // On by your word but stopped by the system, the other tab shows it off: asked on there, it is tried again here.
    const stopped = this.options.store.get(this.atoms.stoppedBySystem);
    if ((change.cameraOff === false && stopped.camera) || (change.microphoneMuted === false && stopped.microphone)) void this.restartStoppedDevices();
  }

  /** "Start Screenshare" (in the call); also "Share screen again" after the call moved here. */
  startScreenShare(): Promise<void> {
    this.setProblem(undefined);
    const handover = this.options.store.get(this.atoms.handover);
    if (handover?.screenShareEnded) this.options.store.set(this.atoms.handover, { ...handover, screenShareEnded: false });
    return this.local.startScreenShare();
  }

  stopScreenShare(): void {
    this.local.stopScreenShare();
  }

  /** Your screen share `itemId` captures a whole display (not a window or a tab), so the page showing it is inside the picture. */
  isWholeScreen(itemId: string): boolean {
    return this.media.getTrack(itemId)?.getSettings().displaySurface === 'monitor';
  }

  selectCamera(deviceId: string): Promise<void> {
    return this.local.selectCamera(deviceId);
  }

  /** "Try again" on a camera or microphone the system stopped: captured anew in its place. */
  restartStoppedDevices(): Promise<void> {
    return this.local.restartStopped();
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

  /** The on-screen "Hold to talk" pressed (true) or let go (false): talking, as while Space is held. */
  holdToTalk(held: boolean): void {
    this.pushToTalk.holdOnScreen(held);
  }

  /**
   * SPEC §3 Peer volumeLimit: how loud you hear that person, 0 to 1. Someone the call keeps while the
   * room does not list them has no record to change: their audio takes it here at once (AudioOutputs).
   */
  setPeerVolume(peerAddress: string, volumeLimit: number): void {
    this.elements.setPeerVolume(peerAddress, volumeLimit);
    this.options.commands.calls.setPeerVolumeLimit(peerAddress, volumeLimit).catch((error: unknown) => this.options.logger.error(`volume of ${peerAddress} not set: ${errorMessage(error)}`));
  }

  /** "Enlarge" / "Back to grid" on a tile: it fills the stage and gets its sender's best quality. */
  toggleEnlarged(tileKey: string): void {
    const { store } = this.options;
    const putBack = store.get(this.atoms.enlargedTile) === tileKey;
    this.screenStage.release(putBack ? store.get(this.atoms.tiles).find((tile) => tile.key === tileKey) : undefined);
    store.set(this.atoms.enlargedTileKey, putBack ? undefined : tileKey);
    this.followScreens();
  }

  /** A screen another person starts sharing takes the stage, unless the person chose otherwise (ScreenStage). */
  private followScreens(): void {
    const { store } = this.options;
    const stage = store.get(this.atoms.enlargedTileKey);
    const next = this.screenStage.next(store.get(this.atoms.tiles), stage);
    if (next !== stage) store.set(this.atoms.enlargedTileKey, next);
    if (store.get(this.atoms.screensPutBack) !== this.screenStage.screensPutBack) store.set(this.atoms.screensPutBack, this.screenStage.screensPutBack);
  }

  dismissProblem(): void {
    this.setProblem(undefined);
  }

  /** The person has read that the call moved here. */
  dismissHandover(): void {
    this.options.store.set(this.atoms.handover, undefined);
  }

  /** Plays a media item's video in an element; returns the detach. */
  attachVideo(itemId: string, element: HTMLVideoElement): () => void {
    return this.elements.attachVideo(itemId, element);
  }

  /** Plays a remote audio item in an `<audio>` element; returns the detach. */
  attachAudio(itemId: string, element: HTMLAudioElement): () => void {
    return this.elements.attachAudio(itemId, element);
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

  /** A volume report alone (the analysis worker's, four times a second per voice): only the level meter follows it. */
  private onVolume(item: MediaItem): void {
    if (this.disposed) return;
    this.options.store.set(this.atoms.volumes, (volumes) => ({ ...volumes, [item.id]: item.volume }));
  }

  private onItemsChanged(): void {
    if (this.disposed) return;
    const { store } = this.options;
    const items = this.media.all();
    store.set(this.atoms.items, items);
    const volumes = store.get(this.atoms.volumes);
    if (Object.keys(volumes).some((id) => !items.some((item) => item.id === id))) {
      store.set(this.atoms.volumes, Object.fromEntries(Object.entries(volumes).filter(([id]) => items.some((item) => item.id === id))));
    }
    const selected = this.selectedDevices();
    const current = store.get(this.atoms.selectedDevices);
    if (selected.camera !== current.camera || selected.microphone !== current.microphone) store.set(this.atoms.selectedDevices, selected);
    this.selfReports.follow();
  }

  private selectedDevices(): SelectedDevices {
    const { microphone, camera } = this.local.state();
    const deviceOf = (itemId: string | undefined) => (itemId === undefined ? undefined : this.media.getTrack(itemId)?.getSettings().deviceId);
    return { camera: deviceOf(camera?.itemId), microphone: deviceOf(microphone?.itemId) };
  }

  private followPreferences(): void {
    if (this.disposed) return;
    const preferences = this.options.store.get(preferencesAtom);
    if (preferences.voiceActivityThreshold !== this.threshold) {
      this.threshold = preferences.voiceActivityThreshold;
      this.options.setVoiceThreshold(preferences.voiceActivityThreshold);
    }
    this.pushToTalk.setEnabled(preferences.pushToTalk);
    this.elements.refreshOutputs();
  }

  /** The call asks the sender for the quality the tile needs (relay/tileProfile). */
  private requestQuality(itemId: string, need: TileNeed): void {
    const call = this.seat.current;
    if (!this.media.get(itemId) || !call) return;
    call.setTileNeed(itemId, need).catch((error: unknown) => this.options.logger.error(`video quality of ${itemId} not requested: ${errorMessage(error)}`));
  }

  private savePreferences(change: Partial<Preferences>): void {
    this.options.commands.preferences.setPreferences(change).catch((error: unknown) => this.options.logger.error(`preferences not saved: ${errorMessage(error)}`));
  }

  /**
   * Issue 13: the call comes to this tab; mute, camera-off and the screen share's end come from the
   * call record, before anything is captured or offered, and the person is told. Push-to-talk,
   * deafen and per-person volumes are the session's preferences and peer records: they apply as they are.
   */
  private resumeOwnMedia(): void {
    const { store } = this.options;
    const own = store.get(callAtomFamily(this.roomAddress))?.ownMedia;
    if (!own) return;
    this.local.resumeAs(own);
    const moved = this.phase === 'elsewhere';
    if (moved || own.microphoneMuted || own.cameraOff || own.sharingScreen) {
      store.set(this.atoms.handover, { moved, microphoneMuted: own.microphoneMuted, cameraOff: own.cameraOff, screenShareEnded: own.sharingScreen });
    }
  }

  /** The people the call follows (the room's, and those held through a lost connection): their connection troubles are followed. */
  private followTroubles(): void {
    const { store } = this.options;
    const present = [...store.get(roomPeersAtomFamily(this.roomAddress)), ...(store.get(heldPeersAtom)[this.roomAddress] ?? [])];
    this.troubles.follow(new Set(present.map((peer) => peer.address)));
  }

  private setPhase(phase: CallPhase): void {
    if (this.disposed || this.phase === phase) return;
    if (phase !== 'in-call') this.troubles.clear();
    if (phase === 'preview') this.options.store.set(this.atoms.handover, undefined);
    else this.options.store.set(this.atoms.leftCall, false);
    this.options.store.set(this.atoms.phase, phase);
    this.selfReports.follow();
  }

  /** Back to the page (its window gains focus), perhaps from closing an app that held your camera: the preview asks for it again. */
  private followPageFocus(): () => void {
    const { pageWindow } = this.options;
    const retry = (): void => void this.local.retryHeldDevices();
    pageWindow.addEventListener('focus', retry);
    return () => pageWindow.removeEventListener('focus', retry);
  }

  private setProblem(problem: string | undefined): void {
    if (!this.disposed) this.options.store.set(this.atoms.problem, problem);
  }
}
