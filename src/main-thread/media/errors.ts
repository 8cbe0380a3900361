import { ParleyError } from '../../protocol/errors';

/** The capture devices whose permission flags SPEC §3 Devices keeps. */
export type CaptureDevice = 'camera' | 'microphone';

function deviceWords(devices: readonly CaptureDevice[]): string {
  if (devices.includes('camera') && devices.includes('microphone')) return 'camera and microphone';
  return devices.includes('camera') ? 'camera' : 'microphone';
}

/** What stands for the devices later in a sentence. */
function pronoun(devices: readonly CaptureDevice[]): string {
  return devices.length > 1 ? 'them' : 'it';
}

/** SPEC §5: a local track added as the wrong kind. The message is the spec's, word for word. */
export class MediaKindError extends ParleyError {
  override readonly name = 'MediaKindError';
  constructor(expected: 'audio' | 'video', actual: string) {
    super(`Incorrect media type. Expected ${expected}, got: ${actual}`);
  }
}

/** SPEC §8: a peer's Jingle mute/unmute named neither audio nor video. */
export class InvalidMutePropertyError extends ParleyError {
  override readonly name = 'InvalidMutePropertyError';
  constructor() {
    super('Invalid mute property');
  }
}

/**
 * A capture failure (SPEC §8 media capture). `message` is log text for developers; `userMessage`
 * is what the UI shows a person. `devices` names what failed, `reason` the browser's error name.
 */
export abstract class CaptureError extends ParleyError {
  abstract readonly userMessage: string;
  constructor(
    message: string,
    readonly devices: readonly CaptureDevice[],
    readonly reason: string,
  ) {
    super(message);
  }
}

/**
 * A capture's `reason` when the operating system refused the browser (Chromium's NotAllowedError
 * "Permission denied by system": no camera, microphone or screen recording allowed to the browser),
 * not the person or the site's settings: the fix is in the system's privacy settings.
 */
export const REFUSED_BY_SYSTEM = 'refused by the system';

/** NotAllowedError / SecurityError: the person, the browser or the system refused access. */
export class CapturePermissionError extends CaptureError {
  override readonly name = 'CapturePermissionError';
  get userMessage(): string {
    const words = deviceWords(this.devices);
    return this.reason === REFUSED_BY_SYSTEM
      ? `Your system doesn't let this browser use your ${words}. Allow it for the browser in your system's privacy settings, then try again.`
      : `Parley isn't allowed to use your ${words}. Allow access in your browser's site settings, then try again.`;
  }
}

/** getUserMedia succeeded but a requested track is not in the result: treated as a refusal (SPEC §8). */
export class CaptureTrackMissingError extends CaptureError {
  override readonly name = 'CaptureTrackMissingError';
  get userMessage(): string {
    return `Your ${deviceWords(this.devices)} didn't start. Check that your browser may use ${pronoun(this.devices)}, then try again.`;
  }
}

/** Every AbortError retry failed (SPEC §8: up to 12 retries). */
export class CaptureAbortedError extends CaptureError {
  override readonly name = 'CaptureAbortedError';
  get userMessage(): string {
    return `Your ${deviceWords(this.devices)} couldn't be started. Another app may be using ${pronoun(this.devices)}: close it and try again.`;
  }
}

/** Any other getUserMedia failure: no such device, device busy, constraints impossible, … */
export class CaptureDeviceError extends CaptureError {
  override readonly name = 'CaptureDeviceError';
  get userMessage(): string {
    const words = deviceWords(this.devices);
    switch (this.reason) {
      case 'NotFoundError':
        return `No ${words.replace(' and ', ' or ')} was found. Connect one and try again.`;
      case 'NotReadableError':
        return `Your ${words} ${this.devices.length > 1 ? 'are' : 'is'} in use by another app or can't be read. Close other apps that use ${pronoun(this.devices)} and try again.`;
      case 'OverconstrainedError':
        return `The selected ${words} can't provide the requested settings. Choose another device.`;
      default:
        return `Your ${words} couldn't be started.`;
    }
  }
}

/** A camera or microphone in use stopped at its source (unplugged, access revoked): its track ended, and its item went. */
export class CaptureEndedError extends CaptureError {
  override readonly name = 'CaptureEndedError';
  get userMessage(): string {
    return `Your ${deviceWords(this.devices)} stopped — it may have been unplugged. Plug it back in or pick another, then turn it on again.`;
  }
}

/** The browser has no getUserMedia (an old browser, or a page that is not a secure context). */
export class UserMediaUnsupportedError extends CaptureError {
  override readonly name = 'UserMediaUnsupportedError';
  get userMessage(): string {
    return "This browser can't use a camera or microphone here. Use a current browser and open Parley over https.";
  }
}

/** SPEC §5: screen capture needs display-media support. */
export class DisplayMediaUnsupportedError extends CaptureError {
  override readonly name = 'DisplayMediaUnsupportedError';
  constructor() {
    super('Screen capture is not supported: navigator.mediaDevices.getDisplayMedia is missing', [], 'NotSupportedError');
  }
  get userMessage(): string {
    return "This browser can't share your screen.";
  }
}

/**
 * getDisplayMedia failed otherwise than by the person closing the picker (which is not reported):
 * refused by the system (REFUSED_BY_SYSTEM: the browser may not record the screen), or the capture
 * could not start.
 */
export class ScreenCaptureError extends CaptureError {
  override readonly name = 'ScreenCaptureError';
  get userMessage(): string {
    return this.reason === REFUSED_BY_SYSTEM
      ? "Your system doesn't let this browser share your screen. Allow screen recording for the browser in your system's privacy settings, then try again."
      : "Your screen couldn't be shared. Try again, or share a single window or tab.";
  }
}
