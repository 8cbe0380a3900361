import { CAPTURE_TIER_SETTLE_MS } from '../../protocol/clientDefaults';
import { VIDEO_RESOLUTION_TIERS } from '../../protocol/constants';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import type { OperationQueue } from '../../common/OperationQueue';
import {
  adjustVideoCaptureResolution,
  cameraConstraintsFor,
  CaptureDeviceError,
  CaptureEndedError,
  CapturePermissionError,
  captureResolutionTier,
  MediaCapture,
  NO_SEND_LOAD,
  previewKinds,
  UserMediaUnsupportedError,
  type CaptureDevice,
  type CapturedMedia,
  type CaptureError,
  type CapturePermissions,
  type DeviceManager,
  type DevicesState,
  type DeviceTrouble,
  type EndedCapture,
  type MediaDevicesApi,
  type MediaItems,
  type VideoResolutionTiers,
  type VideoSendLoad,
} from '../media';
import type { SelectedDevices } from './callTabAtoms';
import { localMediaState, type LocalMediaState } from './localMediaState';

/** What media captured now is for. */
export type CaptureUse =
  /** Seen in the preview, offered to nobody. */
  | 'preview'
  /** Offered to the call's peers at once. */
  | 'call'
  /** Not kept: another tab of this browser runs the call and sends your media. */
  | 'none';

export interface LocalCaptureOptions {
  readonly media: MediaItems;
  readonly devices: DeviceManager;
  readonly mediaDevices: MediaDevicesApi | undefined;
  /** The capture queue, shared with resolution changes. */
  readonly queue: OperationQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly use: () => CaptureUse;
  /** From the provider config (SPEC §9 by default). */
  readonly resolutionTiers: () => VideoResolutionTiers | undefined;
  /** What the browser says of camera and microphone access (readCapturePermissions). */
  readonly permissions: () => Promise<CapturePermissions>;
  /** Push-to-talk keeps a new microphone muted while its key is up. */
  readonly keepMicrophoneMuted: () => boolean;
  /** A problem in words for the person (CaptureError.userMessage); undefined clears it. */
  readonly onProblem: (problem: string | undefined) => void;
  /** Why the camera or microphone is not on, each until it runs: kept after the problem is dismissed. */
  readonly onTroubles: (troubles: DeviceTroubles) => void;
  /**
   * You left the call and its media were let go: a toggle of a device that does not run then says
   * whether the next join turns it on, and captures nothing (the camera's light stays off).
   */
  readonly released: () => boolean;
  /** What the person wants on changed: what a join turns on of what does not run. */
  readonly onWanted: (wanted: WantedDevices) => void;
  /** The devices picked changed: remembered, and asked for by the next capture, whether or not one runs. */
  readonly onPicked: (picked: SelectedDevices) => void;
  /** A live video track that holds no device, for a camera turned off (standInCameraStream in a tab). */
  readonly standInCamera: () => MediaStream;
}

/** Each capture device's track kind, and the kind of device the browser lists it as. */
const KINDS = {
  camera: { track: 'video', listed: 'videoinput' },
  microphone: { track: 'audio', listed: 'audioinput' },
} as const;

/** Each device's last capture failure, while it has not run since. */
export type DeviceTroubles = Readonly<Partial<Record<CaptureDevice, DeviceTrouble>>>;

/** The camera and microphone the person wants on. */
export interface WantedDevices {
  readonly camera: boolean;
  readonly microphone: boolean;
}

/** A camera or microphone running now, as LocalMediaState says it. */
interface RunningDevice {
  readonly itemId: string;
  readonly stopped: boolean;
}

interface CaptureKinds {
  readonly audio: boolean;
  readonly video: boolean;
}

/** What a capture of `devices` asks for. */
function kindsOf(devices: readonly CaptureDevice[]): CaptureKinds {
  return { audio: devices.includes('microphone'), video: devices.includes('camera') };
}

/**
 * What a capture does with each kind when its turn comes: `missing` captures a kind that does not
 * run; `switch` replaces a running one that is not on the picked device; `restart` replaces a
 * running one the system stopped; `relight` replaces a camera turned off, which let its device go.
 */
type CaptureMode = 'missing' | 'switch' | 'restart' | 'relight';

/**
 * This tab's camera, microphone and screen: what runs, what the person wants on, the devices they
 * picked. Captures run one after another, each deciding what to capture when its turn comes, so
 * the preview's capture and a join racing it never open the camera twice; a replacement keeps the
 * mute or camera-off of what it replaces. A camera off holds no device, so its light is out: a
 * stand-in track takes its place (`letCameraGo`), and turning it on captures it anew. The camera's
 * resolution follows what the call sends.
 */
export class LocalCapture {
  private readonly capture: MediaCapture;
  /** Camera and microphone the person wants on, for media captured later (on joining, on a takeover). */
  private wanted: WantedDevices = { camera: true, microphone: true };
  /** A takeover's carried mute / camera-off (issue 13): the next microphone or camera captured starts so. */
  private readonly startOff = { camera: false, microphone: false };
  /** Devices picked in the pickers; undefined is the browser's default. */
  private chosen: SelectedDevices = { camera: undefined, microphone: undefined };
  private captures: Promise<void> = Promise.resolve();
  private troubles: DeviceTroubles = {};
  /**
   * A camera or microphone that ended at its source, until it runs again; `gone` once a device list
   * without its device was read, before or after its end (it was unplugged): listed again after that, it comes back.
   */
  private readonly unplugged: Partial<Record<CaptureDevice, EndedCapture & { gone: boolean }>> = {};
  /** Asked for while the browser listed none of its kind (a computer with no camera), until one is listed. */
  private readonly notListed = new Set<CaptureDevice>();
  private readonly stopFollowingDevices: () => void;
  /** A capture asked for again on its own is running: a failure it already said is not said again. */
  private quiet = false;
  private load: VideoSendLoad = NO_SEND_LOAD;
  private tierSettling: unknown;
  /**
   * How often the tab let its media go (the call left, or run by another tab): a capture asked for
   * before that — the preview's still starting as you joined and hung up — is not kept after it.
   */
  private releases = 0;
  /** Camera items standing in for a camera turned off (MediaCapture.standInCamera). */
  private readonly standIns = new Set<string>();
  private readonly stopFollowingItems: () => void;
  private closed = false;

  constructor(private readonly options: LocalCaptureOptions) {
    this.capture = new MediaCapture({
      mediaDevices: options.mediaDevices,
      devices: options.devices,
      media: options.media,
      queue: options.queue,
      clock: options.clock,
      logger: options.logger,
      onError: (error) => this.failed(error),
      standInCamera: options.standInCamera,
    });
    this.stopFollowingDevices = options.devices.on('change', (state) => {
      this.bringBackReplugged(state);
      this.takeNewlyListed(state);
    });
    this.stopFollowingItems = options.media.on('removed', (item) => this.standIns.delete(item.id));
  }

  get screenShareSupported(): boolean {
    return this.capture.screenCaptureSupported;
  }

  state(): LocalMediaState {
    return localMediaState(this.options.media.all());
  }

  /**
   * The preview asks for camera and microphone at once, as a call's pre-join screen does (where the
   * browser asks first, its prompt shows there); a kind the person refused waits for their click
   * ("Request Media", its toggle). SPEC §2's "Request Media" stays the fallback.
   */
  async openPreview(): Promise<void> {
    const { devices } = this.options;
    const [permissions] = await Promise.all([this.options.permissions(), devices.refresh()]);
    if (this.closed || this.options.use() !== 'preview' || this.options.released()) return;
    const kinds = previewKinds(permissions, devices.state);
    if (kinds.audio || kinds.video) await this.captureMedia(kinds, 'missing');
    else this.sayRefused();
  }

  /**
   * Neither is asked for because the browser refused both (a stored refusal, or the prompt the page's
   * own early capture raised and the person dismissed): the preview says why, as a refusal it asked
   * for itself would, rather than only that they are not on.
   */
  private sayRefused(): void {
    const { hasCamera, hasMicrophone } = this.options.devices.state;
    const refused = [...(hasCamera ? (['camera'] as const) : []), ...(hasMicrophone ? (['microphone'] as const) : [])];
    if (refused.length > 0) this.failed(new CapturePermissionError('camera and microphone refused before the preview asked', refused, 'denied'));
  }

  /**
   * A failure is said (unless a quiet retry met it again), and each device it names keeps why it is
   * not on until it runs. One that ended is gone already when the device list read before its end
   * no longer has it (the browser may say a device went before its track ends).
   */
  private failed(error: CaptureError): void {
    if (error instanceof CaptureEndedError) {
      for (const device of error.devices) this.unplugged[device] = { ...error.ended, gone: !this.listed(this.options.devices.state, device, error.ended.deviceId) };
    }
    const saidAlready = error.devices.every((device) => this.troubles[device]?.advice === error.troubleOf(device).advice);
    if (!(this.quiet && saidAlready)) this.options.onProblem(error.userMessage);
    if (error.devices.length > 0) this.keepWhy(error);
  }

  /** Each device `error` names keeps why it is not on, until it runs. */
  private keepWhy(error: CaptureError): void {
    this.setTroubles({ ...this.troubles, ...Object.fromEntries(error.devices.map((device) => [device, error.troubleOf(device)])) });
  }

  /** What was kept of why `devices` are not on goes; returns those that had any. */
  private forgetWhy(devices: readonly CaptureDevice[]): CaptureDevice[] {
    const cleared = devices.filter((device) => this.troubles[device] !== undefined);
    if (cleared.length > 0) this.setTroubles(Object.fromEntries(Object.entries(this.troubles).filter(([device]) => !cleared.includes(device as CaptureDevice))));
    return cleared;
  }

  /**
   * In the preview, a camera or microphone another app may hold is asked for again when you come
   * back to the page (its window gains focus), as you would after closing that app — quietly: its
   * notice is not raised again while it is still held. Not in the call, where a camera that starts
   * by itself would be shown to the others unasked.
   */
  async retryHeldDevices(): Promise<void> {
    if (this.closed || this.options.use() !== 'preview' || this.options.released()) return;
    const held = (['camera', 'microphone'] as const).filter((device) => this.troubles[device]?.held === true);
    if (held.length === 0) return;
    await this.captureMedia(kindsOf(held), 'missing', { quiet: true });
  }

  /**
   * A camera or microphone unplugged while in use comes back by itself once the browser lists its
   * device again, off or muted as it was — not while another tab runs the call or after you left it.
   * Only after a list without it: one read before it went, or access taken away (the device still
   * listed), brings nothing back. Asked for once per return; should that fail, it is said as any failure.
   */
  private bringBackReplugged(state: DevicesState): void {
    const back: CaptureDevice[] = [];
    for (const device of ['camera', 'microphone'] as const) {
      const ended = this.unplugged[device];
      if (!ended) continue;
      if (!this.listed(state, device, ended.deviceId)) ended.gone = true;
      else if (ended.gone) {
        ended.gone = false;
        back.push(device);
      }
    }
    if (back.length === 0 || this.closed || this.options.released() || this.options.use() === 'none') return;
    for (const device of back) this.startOff[device] = this.unplugged[device]?.off ?? false;
    void this.captureMedia(kindsOf(back), 'missing');
  }

  /**
   * A camera or microphone asked for while none was listed is said beside it (no notice: a computer
   * without a camera is no fault to interrupt anyone with) — "No camera was found" — rather than the
   * preview calling it off or about to turn on.
   */
  private sayNotListed(devices: readonly CaptureDevice[]): void {
    for (const device of devices) this.notListed.add(device);
    this.keepWhy(new CaptureDeviceError(`no ${devices.join(' or ')} is listed`, devices, 'NotFoundError'));
  }

  /**
   * One is listed now (plugged in): what was said of it goes, and the preview starts it if you want
   * it on, as it would have at first; in the call it waits for you to turn it on.
   */
  private takeNewlyListed(state: DevicesState): void {
    const listed = [...this.notListed].filter((device) => (device === 'camera' ? state.hasCamera : state.hasMicrophone));
    if (listed.length === 0) return;
    for (const device of listed) this.notListed.delete(device);
    this.forgetWhy(listed);
    if (this.closed || this.options.use() !== 'preview' || this.options.released()) return;
    const wanted = listed.filter((device) => this.wanted[device]);
    if (wanted.length > 0) void this.captureMedia(kindsOf(wanted), 'missing', { quiet: true });
  }

  /** Whether the browser's device list `state` has the camera or microphone `deviceId`. */
  private listed(state: DevicesState, device: CaptureDevice, deviceId: string | undefined): boolean {
    return state.list.some((info) => info.deviceId === deviceId && info.kind === KINDS[device].listed);
  }

  private setTroubles(troubles: DeviceTroubles): void {
    this.troubles = troubles;
    this.options.onTroubles(troubles);
  }

  /** Joined: the preview's media is offered, and what the person wants on (or carried muted) but does not run yet is captured. */
  async startForCall(): Promise<void> {
    this.shareIfInCall();
    await this.captureMedia({ audio: this.wanted.microphone || this.startOff.microphone, video: this.wanted.camera || this.startOff.camera }, 'missing');
  }

  /**
   * The call moved to this tab (issue 13): the microphone and camera start as the person left them
   * in the tab that ran it — what runs here already is set so before it is offered, and what is
   * captured for the call starts muted / off.
   */
  resumeAs(own: { readonly microphoneMuted: boolean; readonly cameraOff: boolean }): void {
    const { microphone, camera } = this.state();
    this.startOff.microphone = own.microphoneMuted;
    this.startOff.camera = own.cameraOff;
    this.want({ microphone: !own.microphoneMuted, camera: !own.cameraOff });
    if (microphone) this.options.media.setLocalDisabled(microphone.itemId, own.microphoneMuted);
    if (camera) this.options.media.setLocalDisabled(camera.itemId, own.cameraOff);
    if (camera && own.cameraOff) void this.letCameraGo();
  }

  /**
   * "Request Media": the camera and microphone the person wants on, when neither runs yet (from a
   * click: a prompt may follow). One left off stays off: the click may have been only to let the
   * call play; and after leaving the call nothing is captured.
   */
  async requestWantedDevices(): Promise<void> {
    const { microphone, camera } = this.state();
    if (microphone || camera || this.options.released()) return;
    await this.captureMedia({ audio: this.wanted.microphone, video: this.wanted.camera }, 'missing');
  }

  async toggleMicrophone(): Promise<void> {
    const microphone = this.state().microphone;
    if (microphone) {
      this.setMicrophoneMuted(!microphone.muted);
      return;
    }
    if (this.options.released()) return this.want({ microphone: !this.wanted.microphone });
    this.want({ microphone: true });
    await this.captureMedia({ audio: true, video: false }, 'missing');
  }

  /** SPEC §4: muting disables the track, and the Call tells the peers (Jingle mute). */
  setMicrophoneMuted(muted: boolean): void {
    const microphone = this.state().microphone;
    if (!microphone) return;
    this.want({ microphone: !muted });
    this.options.media.setLocalDisabled(microphone.itemId, muted);
  }

  /**
   * Off: the others see the camera off (SPEC §4: its track disabled, Jingle mute) and it lets its
   * device go. On: a camera let go is captured anew in its stand-in's place, still off, and turned on
   * once it runs — so the others hear the unmute when there are frames to see; or a camera starts.
   */
  async toggleCamera(): Promise<void> {
    const camera = this.state().camera;
    if (camera && !camera.off) {
      this.want({ camera: false });
      this.options.media.setLocalDisabled(camera.itemId, true);
      await this.letCameraGo();
      return;
    }
    if (camera && !this.standIns.has(camera.itemId)) {
      // Turned off a moment ago, and its device not let go yet: on again, as it is.
      this.want({ camera: true });
      this.options.media.setLocalDisabled(camera.itemId, false);
      return;
    }
    if (this.options.released()) return this.want({ camera: !this.wanted.camera });
    this.want({ camera: true });
    await this.captureMedia({ audio: false, video: true }, camera ? 'relight' : 'missing');
    const relit = this.state().camera;
    if (relit?.off && !this.standIns.has(relit.itemId) && this.wanted.camera) this.options.media.setLocalDisabled(relit.itemId, false);
  }

  /** A camera turned off lets its device go, in its turn behind any capture: a stand-in takes its place (MediaCapture.standInCamera). */
  private letCameraGo(): Promise<void> {
    const askedAfter = this.releases;
    const run = this.captures.then(async () => {
      const camera = this.state().camera;
      if (this.closed || this.releases !== askedAfter || !camera?.off || this.standIns.has(camera.itemId)) return;
      await this.standInCamera(camera.itemId);
    });
    this.captures = run.catch(() => undefined);
    return run;
  }

  /** A stand-in, off, in the place of camera `replaced` (or as the camera, when none runs). */
  private async standInCamera(replaced: string | undefined): Promise<void> {
    const mirrored = this.state().camera?.mirrored;
    const id = await this.capture
      .standInCamera({ replaceVideo: replaced, share: this.options.use() === 'call', ...(mirrored === undefined ? {} : { mirrored }) })
      // A closed queue: the tab let go of its media meanwhile.
      .catch(() => undefined);
    if (id !== undefined) this.standIns.add(id);
  }

  /**
   * "Try again" on a camera or microphone the system stopped (another app took it, a privacy
   * switch): each is captured anew in its place, keeping its mute or camera-off; a capture that
   * fails says why, as any capture does.
   */
  async restartStopped(): Promise<void> {
    await this.captureMedia({ audio: true, video: true }, 'restart');
  }

  /**
   * A camera from the picker, captured in place of the current one. Queued behind any capture in
   * flight: a camera picked while the preview's is still starting replaces it once it runs.
   */
  async selectCamera(deviceId: string): Promise<void> {
    this.pick({ camera: deviceId || undefined });
    await this.captureMedia({ audio: false, video: true }, 'switch');
  }

  async selectMicrophone(deviceId: string): Promise<void> {
    this.pick({ microphone: deviceId || undefined });
    await this.captureMedia({ audio: true, video: false }, 'switch');
  }

  private pick(change: Partial<SelectedDevices>): void {
    this.chosen = { ...this.chosen, ...change };
    this.options.onPicked(this.chosen);
  }

  /**
   * The browser's picker, then the screen as a shared item of its own (in the call only), with the
   * tab's or system's sound where the picker offers it and the person leaves it on — taken as it is
   * ('music': no voice processing), since it is most often a video or music being shown.
   */
  async startScreenShare(): Promise<void> {
    if (this.options.use() !== 'call') return;
    this.options.onProblem(undefined);
    // A closed queue means the tab let go of its media meanwhile.
    const captured = await this.capture.captureDisplay({ share: true, audio: true, audioHint: 'music' }).catch(() => undefined);
    // Picked once the call had left this tab (hung up from the pop-out, moved to another tab, the view
    // gone): a screen is for a call, and would otherwise run with no button to stop it and go out,
    // unasked, at the next join.
    if (captured && (this.closed || this.options.use() !== 'call')) this.drop(captured);
  }

  /** Each shared screen goes, and its sound with it (MediaItems.remove). */
  stopScreenShare(): void {
    for (const id of this.state().screenIds) this.options.media.remove(id);
  }

  /** In the call every local item is offered to the peers (the preview's are not). */
  shareIfInCall(): void {
    if (this.options.use() !== 'call') return;
    for (const item of this.options.media.local()) if (!item.shared) this.options.media.share(item.id);
  }

  /** SPEC §9: the camera follows the tier of what we send (peers × shared videos), once it has settled (CAPTURE_TIER_SETTLE_MS). */
  followSendLoad(load: VideoSendLoad): void {
    this.load = load;
    const { clock } = this.options;
    clock.clearTimeout(this.tierSettling);
    this.tierSettling = clock.setTimeout(() => this.adjustToLoad(), CAPTURE_TIER_SETTLE_MS);
  }

  private adjustToLoad(): void {
    if (this.closed) return;
    const { load } = this;
    const tier = captureResolutionTier(load, this.tiers());
    const camera = this.state().camera;
    const track = camera && !this.standIns.has(camera.itemId) ? this.options.media.getTrack(camera.itemId) : undefined;
    if (!tier || !track) return;
    const supported = this.options.mediaDevices?.getSupportedConstraints() ?? {};
    this.options.queue.push('adjust-resolution', () => adjustVideoCaptureResolution([track], tier, supported, this.options.logger)).catch(() => undefined);
  }

  private want(change: Partial<WantedDevices>): void {
    this.wanted = { ...this.wanted, ...change };
    this.options.onWanted(this.wanted);
  }

  /**
   * The call left this tab: its camera, microphone and screen go, and so does any capture still on
   * its way. What it sent goes with it, so that the next join's camera starts at the size of a call
   * nobody receives yet, not at this call's until the next one's load has settled.
   */
  letGo(): void {
    this.releases += 1;
    this.options.clock.clearTimeout(this.tierSettling);
    this.load = NO_SEND_LOAD;
    this.options.media.removeAllLocal();
  }

  /** No capture is kept from now on. */
  close(): void {
    this.closed = true;
    this.stopFollowingDevices();
    this.stopFollowingItems();
    this.options.clock.clearTimeout(this.tierSettling);
  }

  private tiers(): VideoResolutionTiers {
    return this.options.resolutionTiers() ?? VIDEO_RESOLUTION_TIERS;
  }

  private captureMedia(kinds: CaptureKinds, mode: CaptureMode, { quiet = false } = {}): Promise<void> {
    const askedAfter = this.releases;
    const run = this.captures.then(() => this.runCapture(kinds, mode, quiet, askedAfter));
    this.captures = run.catch(() => undefined);
    return run;
  }

  /** Whether a capture in `mode` takes `device`, given the item of that kind running now (if any). */
  private takes(mode: CaptureMode, device: CaptureDevice, running: RunningDevice | undefined): boolean {
    if (mode === 'missing') return running === undefined;
    if (mode === 'restart') return running?.stopped === true;
    if (mode === 'relight') return running !== undefined && this.standIns.has(running.itemId);
    // None runs: a pick starts it if the person wants it on, but not after leaving the call, where toggles capture nothing.
    if (running === undefined) return this.wanted[device] && !this.options.released();
    // The default was picked, or another device: which device "default" is, only the browser knows.
    const chosen = this.chosen[device];
    return chosen === undefined || this.deviceOf(running) !== chosen;
  }

  /** The device a running camera or microphone captures from. */
  private deviceOf(running: RunningDevice): string | undefined {
    return this.options.media.getTrack(running.itemId)?.getSettings().deviceId;
  }

  /** `askedAfter`: how often the tab had let its media go when this capture was asked for. */
  private async runCapture(kinds: CaptureKinds, mode: CaptureMode, quiet: boolean, askedAfter: number): Promise<void> {
    const { devices, onProblem } = this.options;
    const letGoSince = () => this.releases !== askedAfter;
    if (this.closed || letGoSince() || (!kinds.audio && !kinds.video)) return;
    if (!devices.state.hasCamera && !devices.state.hasMicrophone) await devices.refresh();
    const before = this.state();
    const known = devices.state;
    if (!known.hasCamera && !known.hasMicrophone) {
      // Where the page may not capture at all, nothing is listed either: that is what to say, with its fix.
      this.failed(
        this.capture.userMediaSupported
          ? new CaptureDeviceError('no camera or microphone is listed', ['camera', 'microphone'], 'NotFoundError')
          : new UserMediaUnsupportedError('getUserMedia is not available', ['camera', 'microphone'], 'NotSupportedError'),
      );
      return;
    }
    const notListed = [...(kinds.video && !known.hasCamera ? (['camera'] as const) : []), ...(kinds.audio && !known.hasMicrophone ? (['microphone'] as const) : [])];
    if (notListed.length > 0) this.sayNotListed(notListed);
    const audio = kinds.audio && known.hasMicrophone && this.takes(mode, 'microphone', before.microphone);
    const taken = kinds.video && known.hasCamera && this.takes(mode, 'camera', before.camera);
    // A camera that would start off is not opened (its light stays out): a stand-in is its place.
    const cameraOff = taken && mode !== 'relight' && (before.camera?.off ?? this.startOff.camera);
    const video = taken && !cameraOff;
    if (cameraOff) {
      this.startOff.camera = false;
      const standingIn = before.camera !== undefined && this.standIns.has(before.camera.itemId);
      if (!standingIn && this.options.use() !== 'none') await this.standInCamera(before.camera?.itemId);
    }
    if (!audio && !video) return;
    if (!quiet) onProblem(undefined);
    const tier = captureResolutionTier(this.load, this.tiers());
    // A replacement keeps the mute or camera-off of what it replaces; push-to-talk keeps a microphone
    // muted. Read as the tracks arrive: a page reloaded in the call may say so while its preview's
    // capture is on its way (resumeAs).
    const startDisabled = () => {
      const { microphone, camera } = this.state();
      return {
        audio: audio && ((microphone?.muted ?? this.startOff.microphone) || this.options.keepMicrophoneMuted()),
        video: video && (camera?.off ?? this.startOff.camera),
      };
    };
    this.quiet = quiet;
    // Browsers free a microphone before asking for its successor (MediaCapture): should the one
    // picked fail, the one that worked is asked for again.
    const switchedFrom = mode === 'switch' && audio && before.microphone ? { deviceId: this.deviceOf(before.microphone), muted: before.microphone.muted } : undefined;
    const captured = await this.capture
      .captureUserMedia({
        audio: audio ? (this.chosen.microphone ? { deviceId: { exact: this.chosen.microphone } } : true) : false,
        video: video
          ? {
              ...(this.chosen.camera ? { deviceId: { exact: this.chosen.camera } } : {}),
              ...(tier ? cameraConstraintsFor(tier) : {}),
            }
          : false,
        replaceAudio: audio ? before.microphone?.itemId : undefined,
        replaceVideo: video ? before.camera?.itemId : undefined,
        share: this.options.use() === 'call',
        startDisabled,
      })
      // A closed queue: the tab let go of its media meanwhile.
      .catch(() => undefined)
      .finally(() => {
        this.quiet = false;
        if (audio) this.startOff.microphone = false;
        if (video) this.startOff.camera = false;
      });
    if (switchedFrom && captured?.audio === undefined && !this.state().microphone) await this.bringBackMicrophone(switchedFrom, askedAfter);
    if (!captured) return;
    // What runs now is neither in trouble nor waiting to be plugged back in.
    const ran = (['camera', 'microphone'] as const).filter((device) => captured[KINDS[device].track] !== undefined);
    for (const device of ran) delete this.unplugged[device];
    const cleared = this.forgetWhy(ran);
    // What a quiet retry brought back was the problem said: it holds no more.
    if (quiet && cleared.length > 0) onProblem(undefined);
    // Asked for before the tab let its media go (hung up as the camera started, for the call or the
    // preview): after leaving, the camera's light stays off.
    if (this.closed || this.options.use() === 'none' || letGoSince()) {
      this.drop(captured);
      return;
    }
    this.shareIfInCall();
  }

  /**
   * The microphone that ran before a switch that failed is captured again, muted as it was, and the
   * person told that the one they picked could not be used (with why, and what to do).
   */
  private async bringBackMicrophone(previous: { readonly deviceId: string | undefined; readonly muted: boolean }, askedAfter: number): Promise<void> {
    const refused = this.troubles.microphone;
    this.pick({ microphone: previous.deviceId });
    this.startOff.microphone = previous.muted;
    await this.runCapture({ audio: true, video: false }, 'missing', true, askedAfter);
    if (refused && this.state().microphone) this.options.onProblem(`The microphone you picked couldn't be used, so your previous one is on again. ${refused.advice}`);
  }

  /** What a capture brought that nothing is to use: its items go, and their tracks stop. */
  private drop(captured: CapturedMedia): void {
    for (const id of [captured.audio, captured.video]) if (id !== undefined) this.options.media.remove(id);
  }
}
