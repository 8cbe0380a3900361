import { VIDEO_RESOLUTION_TIERS } from '../../protocol/constants';
import type { MediaDevicesApi } from './MediaDevicesApi';
import { previewKinds, readCapturePermissions, type PermissionsApi } from './capturePermissions';
import { cameraConstraintsFor, captureResolutionTier, NO_SEND_LOAD } from './videoResolution';

/** A capture started before the call's code ran: the preview's first capture takes it instead of asking again. */
export interface PreviewCapture {
  /**
   * Offered the first getUserMedia request only: resolves with the stream when it asked for the same
   * kinds on the default devices, else undefined (and the early stream is let go).
   */
  take(constraints: MediaStreamConstraints): Promise<MediaStream | undefined>;
  /** Nobody took it (or will): its tracks stop. */
  release(): void;
}

interface Asked {
  audio: boolean;
  video: boolean;
  stream: Promise<MediaStream> | undefined;
}

/** A request names a device (a pick in the pickers): only a capture of the default devices can serve it. */
function namesDevice(constraint: boolean | MediaTrackConstraints | undefined): boolean {
  return typeof constraint === 'object' && constraint.deviceId !== undefined;
}

function stop(stream: Promise<MediaStream> | undefined): void {
  stream?.then((captured) => captured.getTracks().forEach((track) => track.stop())).catch(() => undefined);
}

/**
 * Issue 14, the join path: a room page asks for the camera and microphone as the page loads, beside
 * everything else it starts, instead of once the call's code has run and the room's address is
 * known. What it asks for follows the preview's own rule (`previewKinds`).
 */
export class EarlyPreviewCapture implements PreviewCapture {
  private asked: Promise<Asked> | undefined;

  private constructor(asked: Promise<Asked>) {
    this.asked = asked;
  }

  /** Asks now, with the camera constraints of the preview's own first capture (nothing sent yet, SPEC §9's tiers). */
  static startForPreview(mediaDevices: MediaDevicesApi, permissions: PermissionsApi | undefined): EarlyPreviewCapture {
    const tier = captureResolutionTier(NO_SEND_LOAD, VIDEO_RESOLUTION_TIERS);
    return EarlyPreviewCapture.start(mediaDevices, permissions, tier ? cameraConstraintsFor(tier) : {});
  }

  /** Asks now; `video` are the camera constraints the preview's own capture asks for. */
  static start(mediaDevices: MediaDevicesApi, permissions: PermissionsApi | undefined, video: MediaTrackConstraints): EarlyPreviewCapture {
    const asked = readCapturePermissions(permissions).then((permissions): Asked => {
      const kinds = previewKinds(permissions);
      const stream = kinds.audio || kinds.video ? mediaDevices.getUserMedia({ audio: kinds.audio, video: kinds.video ? video : false }) : undefined;
      // A refusal is the preview's to report, when it takes this capture.
      stream?.catch(() => undefined);
      return { ...kinds, stream };
    });
    return new EarlyPreviewCapture(asked);
  }

  async take(constraints: MediaStreamConstraints): Promise<MediaStream | undefined> {
    const asked = this.asked;
    this.asked = undefined;
    if (!asked) return undefined;
    const { audio, video, stream } = await asked;
    const same = Boolean(constraints.audio) === audio && Boolean(constraints.video) === video && !namesDevice(constraints.audio) && !namesDevice(constraints.video);
    if (same) return stream;
    stop(stream);
    return undefined;
  }

  release(): void {
    const asked = this.asked;
    this.asked = undefined;
    void asked?.then(({ stream }) => stop(stream));
  }
}

/** `mediaDevices` whose first getUserMedia request is offered `preview`'s stream. */
export function withPreviewCapture(mediaDevices: MediaDevicesApi, preview: PreviewCapture): MediaDevicesApi {
  return {
    enumerateDevices: mediaDevices.enumerateDevices.bind(mediaDevices),
    getSupportedConstraints: mediaDevices.getSupportedConstraints.bind(mediaDevices),
    addEventListener: mediaDevices.addEventListener.bind(mediaDevices),
    removeEventListener: mediaDevices.removeEventListener.bind(mediaDevices),
    ...(mediaDevices.getDisplayMedia ? { getDisplayMedia: mediaDevices.getDisplayMedia.bind(mediaDevices) } : {}),
    getUserMedia: async (constraints = {}) => (await preview.take(constraints)) ?? mediaDevices.getUserMedia(constraints),
  };
}
