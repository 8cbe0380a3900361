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

/** Why one camera or microphone is not on, for as long as it is not: short words, and what to do. */
export interface DeviceTrouble {
  /** What is wrong, e.g. "Your camera is in use by another app". */
  readonly words: string;
  /** The failure's message said of this device alone: what is wrong and what to do. */
  readonly advice: string;
  /** Another app may hold it: worth asking for again once that app may have let it go. */
  readonly held: boolean;
}

/**
 * A capture failure (SPEC §8 media capture). `message` is log text for developers; `userMessage`
 * is what the UI shows a person. `devices` names what failed, `reason` the browser's error name.
 */
export abstract class CaptureError extends ParleyError {
  constructor(
    message: string,
    readonly devices: readonly CaptureDevice[],
    readonly reason: string,
  ) {
    super(message);
  }

  get userMessage(): string {
    return this.describe(this.devices);
  }

  /** Why `device` is not on, kept beside it after the message itself is dismissed. */
  troubleOf(device: CaptureDevice): DeviceTrouble {
    return { words: this.troubleWords(device), advice: this.describe([device]), held: this.mayBeHeld() };
  }

  /** The failure may come from another app holding the device. */
  protected mayBeHeld(): boolean {
    return false;
  }

  /** The message in words for the person, said of `devices`. */
  protected abstract describe(devices: readonly CaptureDevice[]): string;

  protected troubleWords(device: CaptureDevice): string {
    return `Your ${device} couldn't be started`;
  }
}

/**
 * A capture's `reason` when the operating system refused the browser (Chromium's NotAllowedError
 * "Permission denied by system": no camera, microphone or screen recording allowed to the browser),
 * not the person or the site's settings: the fix is in the system's privacy settings.
 */
export const REFUSED_BY_SYSTEM = 'refused by the system';

/**
 * A capture's `reason` when the person closed the browser's permission prompt without answering it
 * (Chromium's NotAllowedError "Permission dismissed"): nothing is blocked, and the next request asks again.
 */
export const PROMPT_DISMISSED = 'prompt dismissed';

/** The person closed the browser's question about camera or microphone: nothing to unblock, only to ask again. */
export class CapturePromptDismissedError extends CaptureError {
  override readonly name = 'CapturePromptDismissedError';
  protected describe(devices: readonly CaptureDevice[]): string {
    const buttons = [...(devices.includes('camera') ? ['"Start camera"'] : []), ...(devices.includes('microphone') ? ['"Unmute microphone"'] : [])].join(' or ');
    return `The browser's question about your ${deviceWords(devices)} was closed unanswered. Press ${buttons} to be asked again.`;
  }
  protected override troubleWords(device: CaptureDevice): string {
    return `Your ${device} wasn't allowed yet`;
  }
}

/** NotAllowedError / SecurityError: the person, the browser or the system refused access. */
export class CapturePermissionError extends CaptureError {
  override readonly name = 'CapturePermissionError';
  protected describe(devices: readonly CaptureDevice[]): string {
    const words = deviceWords(devices);
    return this.reason === REFUSED_BY_SYSTEM
      ? `Your system doesn't let this browser use your ${words}. Allow it for the browser in your system's privacy settings, then try again.`
      : `Parley isn't allowed to use your ${words}. Allow access in your browser's site settings, then try again.`;
  }
  protected override troubleWords(device: CaptureDevice): string {
    return this.reason === REFUSED_BY_SYSTEM ? `Your system blocks your ${device}` : `Your ${device} is blocked for Parley`;
  }
}

/** getUserMedia succeeded but a requested track is not in the result: treated as a refusal (SPEC §8). */
export class CaptureTrackMissingError extends CaptureError {
  override readonly name = 'CaptureTrackMissingError';
  protected describe(devices: readonly CaptureDevice[]): string {
    return `Your ${deviceWords(devices)} didn't start. Check that your browser may use ${pronoun(devices)}, then try again.`;
  }
  protected override troubleWords(device: CaptureDevice): string {
    return `Your ${device} didn't start`;
  }
}

/** Every AbortError retry failed (SPEC §8: up to 12 retries). */
export class CaptureAbortedError extends CaptureError {
  override readonly name = 'CaptureAbortedError';
  protected describe(devices: readonly CaptureDevice[]): string {
    return `Your ${deviceWords(devices)} couldn't be started. Another app may be using ${pronoun(devices)}: close it and try again.`;
  }
  protected override troubleWords(device: CaptureDevice): string {
    return `Your ${device} may be in use by another app`;
  }
  protected override mayBeHeld(): boolean {
    return true;
  }
}

/** Any other getUserMedia failure: no such device, device busy, constraints impossible, … */
export class CaptureDeviceError extends CaptureError {
  override readonly name = 'CaptureDeviceError';
  protected describe(devices: readonly CaptureDevice[]): string {
    const words = deviceWords(devices);
    switch (this.reason) {
      case 'NotFoundError':
        return `No ${words.replace(' and ', ' or ')} was found. Connect one and try again.`;
      case 'NotReadableError':
        return `Your ${words} ${devices.length > 1 ? 'are' : 'is'} in use by another app or can't be read. Close other apps that use ${pronoun(devices)} and try again.`;
      case 'OverconstrainedError':
        return `The selected ${words} can't provide the requested settings. Choose another device.`;
      default:
        return `Your ${words} couldn't be started.`;
    }
  }
  protected override troubleWords(device: CaptureDevice): string {
    switch (this.reason) {
      case 'NotFoundError':
        return `No ${device} was found`;
      case 'NotReadableError':
        return `Your ${device} is in use by another app`;
      case 'OverconstrainedError':
        return `The selected ${device} can't be used`;
      default:
        return super.troubleWords(device);
    }
  }
  protected override mayBeHeld(): boolean {
    return this.reason === 'NotReadableError';
  }
}

/** What a capture that ended at its source was: the device it ran on, and whether it was off (muted). */
export interface EndedCapture {
  readonly deviceId: string | undefined;
  readonly off: boolean;
}

/** A camera or microphone in use stopped at its source (unplugged, access revoked): its track ended, and its item went. */
export class CaptureEndedError extends CaptureError {
  override readonly name = 'CaptureEndedError';
  constructor(
    message: string,
    devices: readonly CaptureDevice[],
    readonly ended: EndedCapture,
  ) {
    super(message, devices, 'ended');
  }
  /** Said of one device: each track ends on its own. */
  protected describe(devices: readonly CaptureDevice[]): string {
    return `Your ${deviceWords(devices)} stopped — it may have been unplugged. Plugged back in, it comes back by itself; or pick another and turn it on.`;
  }
  protected override troubleWords(device: CaptureDevice): string {
    return `Your ${device} stopped`;
  }
}

/** The browser has no getUserMedia (an old browser, or a page that is not a secure context). */
export class UserMediaUnsupportedError extends CaptureError {
  override readonly name = 'UserMediaUnsupportedError';
  protected describe(): string {
    return "This browser can't use a camera or microphone here. Use a current browser and open Parley over https.";
  }
  protected override troubleWords(device: CaptureDevice): string {
    return `This browser can't use a ${device} here`;
  }
}

/** SPEC §5: screen capture needs display-media support. */
export class DisplayMediaUnsupportedError extends CaptureError {
  override readonly name = 'DisplayMediaUnsupportedError';
  constructor() {
    super('Screen capture is not supported: navigator.mediaDevices.getDisplayMedia is missing', [], 'NotSupportedError');
  }
  protected describe(): string {
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
  protected describe(): string {
    return this.reason === REFUSED_BY_SYSTEM
      ? "Your system doesn't let this browser share your screen. Allow screen recording for the browser in your system's privacy settings, then try again."
      : "Your screen couldn't be shared. Try again, or share a single window or tab.";
  }
}
