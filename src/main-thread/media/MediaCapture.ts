import { CAPTURE_ABORT_RETRIES } from '../../protocol/constants';
import { sleep, type Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import type { DeviceManager } from './DeviceManager';
import {
  CaptureAbortedError,
  CaptureDeviceError,
  CaptureEndedError,
  CapturePermissionError,
  CapturePromptDismissedError,
  CaptureTrackMissingError,
  DisplayMediaUnsupportedError,
  ScreenCaptureError,
  PROMPT_DISMISSED,
  REFUSED_BY_SYSTEM,
  UserMediaUnsupportedError,
  type CaptureDevice,
  type CaptureError,
} from './errors';
import type { MediaDevicesApi } from './MediaDevicesApi';
import { isVoice } from './MediaItem';
import type { MediaItems } from './MediaItems';
import type { OperationQueue } from '../../common/OperationQueue';

/** Track content hints (W3C mst-content-hint). 'music' also turns audio processing off (SPEC §5). */
export type AudioContentHint = '' | 'speech' | 'speech-recognition' | 'music';
export type VideoContentHint = '' | 'motion' | 'detail' | 'text';

export interface UserMediaRequest {
  /** true, or constraints (e.g. `{ deviceId: { exact: id } }`); absent or false: no microphone. */
  readonly audio?: boolean | MediaTrackConstraints;
  readonly video?: boolean | MediaTrackConstraints;
  /** Auto gain, echo cancellation and noise suppression; on unless false (SPEC §5). */
  readonly audioProcessing?: boolean;
  readonly audioHint?: AudioContentHint;
  readonly videoHint?: VideoContentHint;
  /** The local item the new microphone / camera takes over from once shared. */
  readonly replaceAudio?: string;
  readonly replaceVideo?: string;
  /** Share the new items at once (default true). */
  readonly share?: boolean;
  /**
   * Which tracks start disabled (muted microphone, camera off): never enabled, even for a moment.
   * Asked as the tracks arrive, so that what was said while the capture was on its way holds.
   */
  readonly startDisabled?: () => { readonly audio: boolean; readonly video: boolean };
  /** Render the camera mirrored (default true). */
  readonly mirrored?: boolean;
  readonly audioName?: string;
  readonly videoName?: string;
}

export interface DisplayMediaRequest {
  /** Also capture the shared tab's or system's audio, where the browser offers it. */
  readonly audio?: boolean;
  readonly audioHint?: AudioContentHint;
  /** Default 'detail'. */
  readonly videoHint?: VideoContentHint;
  readonly replaceVideo?: string;
  readonly share?: boolean;
  readonly name?: string;
}

/** The ids of the media items a capture added. */
export interface CapturedMedia {
  readonly audio: string | undefined;
  readonly video: string | undefined;
}

export interface MediaCaptureOptions {
  /** Undefined where the browser has none (an insecure page, an old browser). */
  readonly mediaDevices: MediaDevicesApi | undefined;
  readonly devices: DeviceManager;
  readonly media: MediaItems;
  /** Shared with resolution changes, so capture and constraint changes never interleave. */
  readonly queue: OperationQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** SPEC §8 error callback: every capture failure, with words for the person in `userMessage`. */
  readonly onError: (error: CaptureError) => void;
  /** A live video track that holds no device, for a camera turned off (standInCameraStream in a tab). */
  readonly standInCamera: () => MediaStream;
}

const AUDIO_PROCESSING_CONSTRAINTS = ['autoGainControl', 'echoCancellation', 'noiseSuppression'] as const;

/**
 * SPEC §8: the delay before AbortError retry number `retry` (1 … 12) is 100 + 2^retry ms —
 * 102, 104, 108, 116, 132, 164, 228, 356, 612, 1124, 2148, 4196 ms, about 9.4 s in all. An
 * AbortError here is most often the device still being released by a capture that just ended.
 */
export function abortRetryDelayMs(retry: number): number {
  return 100 + 2 ** retry;
}

function errorName(error: unknown): string {
  return error instanceof Error || error instanceof DOMException ? error.name : 'Error';
}

/**
 * A capture error's name; for a NotAllowedError the operating system made, REFUSED_BY_SYSTEM
 * (Chromium says "Permission denied by system"), and for a permission prompt the person closed
 * unanswered, PROMPT_DISMISSED ("Permission dismissed"). Chromium says "Permission denied" where
 * the person (or the site's settings) refused, or closed the screen picker.
 */
function refusalReason(error: unknown): string {
  const name = errorName(error);
  if (name !== 'NotAllowedError') return name;
  const message = error instanceof Error || error instanceof DOMException ? error.message : '';
  if (/by system/i.test(message)) return REFUSED_BY_SYSTEM;
  return /dismissed/i.test(message) ? PROMPT_DISMISSED : name;
}

/** A refusal by the person (or the site's settings) rather than by the system: asking again would ask them again. */
function isRefusalByThePerson(error: unknown): boolean {
  const reason = refusalReason(error);
  return reason === 'NotAllowedError' || reason === 'SecurityError' || reason === PROMPT_DISMISSED;
}

function errorText(error: unknown): string {
  return error instanceof Error || error instanceof DOMException ? `${error.name}: ${error.message}` : String(error);
}

function merge(defaults: MediaTrackConstraints, requested: boolean | MediaTrackConstraints | undefined): MediaTrackConstraints | false {
  if (!requested) return false;
  return requested === true ? { ...defaults } : { ...defaults, ...requested };
}

/** What a screen share asks the browser for, with Chromium's picker options TypeScript's DOM types do not name yet. */
interface DisplayCaptureOptions extends DisplayMediaStreamOptions {
  /** This very tab is not offered: shared, the call would show itself inside itself, again and again. */
  readonly selfBrowserSurface: 'exclude';
  /** A shared tab can be swapped for another from the browser's own bar, without stopping the share. */
  readonly surfaceSwitching: 'include';
}

/**
 * Camera, microphone and screen capture into local media items (SPEC §4, §5, §8). Each request
 * runs as one operation of the capture queue, its AbortError retries included; only a screen's
 * picker opens ahead of its turn (captureDisplay).
 */
export class MediaCapture {
  constructor(private readonly options: MediaCaptureOptions) {}

  get screenCaptureSupported(): boolean {
    return typeof this.options.mediaDevices?.getDisplayMedia === 'function';
  }

  /** Camera and microphone can be asked for: not on a page that is not a secure context (no navigator.mediaDevices), nor in an old browser. */
  get userMediaSupported(): boolean {
    return typeof this.options.mediaDevices?.getUserMedia === 'function';
  }

  /** The audio constraints a request starts from: processing on unless turned off (SPEC §5). */
  audioProcessingConstraints(request: Pick<UserMediaRequest, 'audioProcessing' | 'audioHint'>): MediaTrackConstraints {
    const supported = this.options.mediaDevices?.getSupportedConstraints() ?? {};
    const processing = request.audioProcessing !== false && request.audioHint !== 'music';
    const constraints: MediaTrackConstraints = {};
    for (const name of AUDIO_PROCESSING_CONSTRAINTS) if (supported[name]) constraints[name] = processing;
    return constraints;
  }

  /**
   * A shared tab's or the system's sound: processed as the request's hint says ('music': as it is),
   * and without what this page plays (the call's own voices), which would echo back to everyone.
   */
  private displayAudioConstraints(request: Pick<DisplayMediaRequest, 'audioHint'>): MediaTrackConstraints {
    const constraints: MediaTrackConstraints & { restrictOwnAudio?: boolean } = this.audioProcessingConstraints(request);
    if ((this.options.mediaDevices?.getSupportedConstraints() as { restrictOwnAudio?: boolean } | undefined)?.restrictOwnAudio) constraints.restrictOwnAudio = true;
    return constraints;
  }

  /**
   * Captures camera and/or microphone and adds them as local items (shared unless `share` is
   * false). Resolves with the new items' ids, or undefined when the capture failed; failures go
   * to `onError` and the log. A requested kind missing from the result is reported the same way,
   * and its permission marked denied, while the kind that did arrive is kept.
   */
  captureUserMedia(request: UserMediaRequest): Promise<CapturedMedia | undefined> {
    return this.options.queue.push('captureUserMedia', () => this.runUserMediaCapture(request));
  }

  /**
   * Captures a screen, window or tab (SPEC §5). Unsupported: logged, reported, undefined. The
   * browser's picker opens at once, not in its turn in the capture queue: it needs the click's
   * activation, which a slow camera start ahead of it could outlast (Chrome's lasts 5 s). What is
   * picked is added in its turn, and stopped if the queue closes first (the tab let its media go).
   */
  captureDisplay(request: DisplayMediaRequest = {}): Promise<CapturedMedia | undefined> {
    const picked = this.pickDisplay(request);
    return this.options.queue
      .push('captureDisplay', async () => {
        const stream = await picked;
        return stream && this.addDisplay(stream, request);
      })
      .catch(async (error: unknown) => {
        for (const track of (await picked)?.getTracks() ?? []) track.stop();
        throw error;
      });
  }

  private async runUserMediaCapture(request: UserMediaRequest): Promise<CapturedMedia | undefined> {
    const { devices, media, mediaDevices } = this.options;
    const audio = merge(this.audioProcessingConstraints(request), request.audio);
    const video = merge({}, request.video);
    const requested: CaptureDevice[] = [...(video ? ['camera' as const] : []), ...(audio ? ['microphone' as const] : [])];
    if (requested.length === 0) return { audio: undefined, video: undefined };
    if (typeof mediaDevices?.getUserMedia !== 'function') {
      this.fail(new UserMediaUnsupportedError('getUserMedia is not available', requested, 'NotSupportedError'));
      return undefined;
    }
    devices.setCaptureInProgress(video !== false, audio !== false);
    try {
      if (audio) this.releaseMicrophones(request.replaceAudio);
      const got = await this.captureDevices(mediaDevices, { audio, video }, requested);
      const captured = got && (await this.addUserMedia(got.stream, got.devices, request));
      // A microphone released for a successor that did not come is gone.
      if (audio && captured?.audio === undefined && request.replaceAudio !== undefined) media.remove(request.replaceAudio);
      return captured;
    } finally {
      devices.setCaptureInProgress(false, false);
    }
  }

  /**
   * Browsers may refuse a second microphone while one is live, and a just-stopped one can raise
   * AbortError: ours are released first (SimpleWebRTC does the same). The one being replaced only
   * has its track stopped (MediaItems.stopTrack, which tells the voice analysis to stop its clone):
   * its item stays until the new one is shared in its place, so the running sessions swap the track
   * instead of being renegotiated without a microphone meanwhile.
   */
  private releaseMicrophones(replaced: string | undefined): void {
    const { media } = this.options;
    for (const item of media.local().filter(isVoice)) {
      if (item.id === replaced) media.stopTrack(item.id);
      else media.remove(item.id);
    }
  }

  /**
   * One request for every device asked for. Should it fail for a reason that need not hold for each
   * device (one held by another app or missing, settings it cannot give, a refusal by the system),
   * each device is asked for alone: one device's fault must not keep the other off (a camera another
   * app holds would otherwise leave the person silent too), and each failure is said of its own
   * device. A refusal by the person is not asked again, as that would ask them once more. The tracks
   * that arrive share one stream, as those of one request do; `devices` are those whose request was answered.
   */
  private async captureDevices(
    mediaDevices: MediaDevicesApi,
    constraints: MediaStreamConstraints,
    requested: CaptureDevice[],
  ): Promise<{ stream: MediaStream; devices: CaptureDevice[] } | undefined> {
    const together = await this.getUserMediaRetryingAborts(mediaDevices, constraints, CAPTURE_ABORT_RETRIES);
    if ('stream' in together) return { stream: together.stream, devices: requested };
    if (requested.length === 1 || isRefusalByThePerson(together.error)) {
      this.reportFailure(together.error, requested);
      return undefined;
    }
    const answered: Array<{ device: CaptureDevice; stream: MediaStream }> = [];
    const failures: Array<{ device: CaptureDevice; error: unknown }> = [];
    for (const device of requested) {
      const alone = device === 'camera' ? { video: constraints.video } : { audio: constraints.audio };
      // Its aborts were retried together already: one try each.
      const attempt = await this.getUserMediaRetryingAborts(mediaDevices, alone, 0);
      if ('stream' in attempt) answered.push({ device, stream: attempt.stream });
      else failures.push({ device, error: attempt.error });
    }
    const [first, ...others] = answered;
    // Both failed alone for the reason they failed together: said once, of both.
    if (!first && failures.every(({ error }) => errorName(error) === errorName(together.error))) {
      this.reportFailure(together.error, requested);
      return undefined;
    }
    for (const { device, error } of failures) this.reportFailure(error, [device]);
    if (!first) return undefined;
    for (const track of others.flatMap(({ stream }) => stream.getTracks())) first.stream.addTrack(track);
    return { stream: first.stream, devices: answered.map(({ device }) => device) };
  }

  private async getUserMediaRetryingAborts(mediaDevices: MediaDevicesApi, constraints: MediaStreamConstraints, abortRetries: number): Promise<{ stream: MediaStream } | { error: unknown }> {
    const { clock } = this.options;
    for (let retry = 0; ; retry += 1) {
      try {
        return { stream: await mediaDevices.getUserMedia(constraints) };
      } catch (error) {
        if (errorName(error) !== 'AbortError' || retry >= abortRetries) return { error };
        this.options.logger.info(`getUserMedia aborted; retry ${retry + 1} of ${abortRetries}`);
        await sleep(clock, abortRetryDelayMs(retry + 1));
      }
    }
  }

  /** A failed getUserMedia of `devices`, said to the person in words that fit its cause (SPEC §8). */
  private reportFailure(error: unknown, devices: CaptureDevice[]): void {
    const name = errorName(error);
    const log = `getUserMedia failed (${devices.join(' and ')}): ${errorText(error)}`;
    if (name === 'NotAllowedError' || name === 'SecurityError') {
      // SPEC §8: a NotAllowedError marks the permission denied, a prompt closed unanswered too (the
      // preview then asks no more by itself); but that blocks nothing, so it is said as such: the
      // button asks again.
      for (const device of devices) this.options.devices.markPermissionDenied(device);
      const reason = refusalReason(error);
      this.fail(reason === PROMPT_DISMISSED ? new CapturePromptDismissedError(log, devices, reason) : new CapturePermissionError(log, devices, reason));
    } else if (name === 'AbortError') {
      this.fail(new CaptureAbortedError(`${log} (after ${CAPTURE_ABORT_RETRIES} retries)`, devices, name));
    } else {
      this.fail(new CaptureDeviceError(log, devices, name));
    }
  }

  private async addUserMedia(stream: MediaStream, asked: CaptureDevice[], request: UserMediaRequest): Promise<CapturedMedia> {
    const { devices, media } = this.options;
    const audioTrack = stream.getAudioTracks()[0];
    const videoTrack = stream.getVideoTracks()[0];
    const share = request.share !== false;
    const disabled = request.startDisabled?.();
    if (audioTrack) {
      if (request.audioHint !== undefined) audioTrack.contentHint = request.audioHint;
      if (disabled?.audio) audioTrack.enabled = false;
      media.addLocalAudio(audioTrack, this.streamFor(audioTrack, request.replaceAudio, stream), { replaces: request.replaceAudio, name: request.audioName });
      if (share) media.share(audioTrack.id);
      this.reportEnd(audioTrack, 'microphone');
      devices.markCaptured('microphone');
    }
    if (videoTrack) {
      if (request.videoHint !== undefined) videoTrack.contentHint = request.videoHint;
      if (disabled?.video) videoTrack.enabled = false;
      media.addLocalVideo(videoTrack, this.streamFor(videoTrack, request.replaceVideo, stream), { replaces: request.replaceVideo, name: request.videoName, mirrored: request.mirrored });
      if (share) media.share(videoTrack.id);
      this.reportEnd(videoTrack, 'camera');
      devices.markCaptured('camera');
    }
    const missing = asked.filter((device) => (device === 'camera' ? !videoTrack : !audioTrack));
    if (missing.length > 0) {
      for (const device of missing) devices.markPermissionDenied(device);
      this.fail(new CaptureTrackMissingError(`getUserMedia returned no ${missing.join(' or ')} track`, missing, 'MissingTrack'));
    }
    // Labels appear once access is granted: show them now rather than at the next poll.
    await devices.refresh();
    return { audio: audioTrack?.id, video: videoTrack?.id };
  }

  /**
   * A new camera or microphone joins the stream of the one it replaces, in its place. The mesh
   * swaps the track on its running sessions, which go on signalling that stream's id, and the relay
   * names its ingest after the camera's stream: so both paths name it alike, and a receiver sees one
   * stream moving between them (ReceivedVideo's predecessors), not two playing at once.
   */
  private streamFor(track: MediaStreamTrack, replaced: string | undefined, captured: MediaStream): MediaStream {
    const { media } = this.options;
    const stream = replaced === undefined ? undefined : media.getStream(replaced);
    const old = replaced === undefined ? undefined : media.getTrack(replaced);
    if (!stream || !old) return captured;
    stream.removeTrack(old);
    stream.addTrack(track);
    return stream;
  }

  /**
   * A device's track that ends at its source (unplugged, access revoked) takes its item with it
   * (MediaItems): the person is told, or their camera or microphone would vanish unnoticed. A track
   * we stop ends without the event (W3C mediacapture-streams), so a replaced or removed one is not said.
   */
  private reportEnd(track: MediaStreamTrack, device: CaptureDevice): void {
    const { deviceId } = track.getSettings();
    track.addEventListener('ended', () => this.fail(new CaptureEndedError(`the ${device} (track ${track.id}) ended at its source`, [device], { deviceId, off: !track.enabled })), { once: true });
  }

  /**
   * A camera turned off lets its device go (its light goes out): a track that holds none, off, takes
   * its item's place — swapped into what sends it, as a new camera would be — or is the camera of
   * someone who joins with theirs off. Returns the stand-in's item id.
   */
  standInCamera(request: { readonly replaceVideo: string | undefined; readonly share: boolean; readonly mirrored?: boolean }): Promise<string> {
    return this.options.queue.push('standInCamera', async () => {
      const { media } = this.options;
      const standIn = this.options.standInCamera();
      const [track] = standIn.getVideoTracks();
      if (!track) throw new Error('the stand-in camera has no video track');
      track.enabled = false;
      media.addLocalVideo(track, this.streamFor(track, request.replaceVideo, standIn), { replaces: request.replaceVideo, mirrored: request.mirrored });
      if (request.share) media.share(track.id);
      return track.id;
    });
  }

  /** The browser's picker: the stream picked, or undefined (closed, refused, unsupported: said as SPEC §8 says). */
  private async pickDisplay(request: DisplayMediaRequest): Promise<MediaStream | undefined> {
    const { mediaDevices } = this.options;
    if (typeof mediaDevices?.getDisplayMedia !== 'function') {
      this.fail(new DisplayMediaUnsupportedError());
      return undefined;
    }
    try {
      const options: DisplayCaptureOptions = { video: true, audio: request.audio ? this.displayAudioConstraints(request) : false, selfBrowserSurface: 'exclude', surfaceSwitching: 'include' };
      return await mediaDevices.getDisplayMedia(options);
    } catch (error) {
      const reason = refusalReason(error);
      // Closing the browser's picker (a refusal not the system's) is the person's choice, not a problem to show them.
      if (reason === 'NotAllowedError' || reason === PROMPT_DISMISSED) {
        this.options.logger.info(`screen sharing cancelled in the browser's picker (${errorText(error)})`);
        return undefined;
      }
      this.fail(new ScreenCaptureError(`getDisplayMedia failed: ${errorText(error)}`, [], reason));
      return undefined;
    }
  }

  private addDisplay(stream: MediaStream, request: DisplayMediaRequest): CapturedMedia {
    const { media } = this.options;
    const share = request.share !== false;
    const videoTrack = stream.getVideoTracks()[0];
    const audioTrack = stream.getAudioTracks()[0];
    if (videoTrack) {
      videoTrack.contentHint = request.videoHint ?? 'detail';
      media.addLocalScreen(videoTrack, stream, { replaces: request.replaceVideo, name: request.name });
      if (share) media.share(videoTrack.id);
    }
    if (audioTrack) {
      if (request.audioHint !== undefined) audioTrack.contentHint = request.audioHint;
      media.addLocalScreenAudio(audioTrack, stream, { name: request.name });
      if (share) media.share(audioTrack.id);
    }
    return { audio: audioTrack?.id, video: videoTrack?.id };
  }

  private fail(error: CaptureError): void {
    this.options.logger.error(error.message);
    this.options.onError(error);
  }
}
