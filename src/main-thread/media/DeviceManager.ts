import { DEVICES_REFRESH_MS } from '../../protocol/constants';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import {
  devicesFromEnumeration,
  initialDevicesState,
  sameDevicesState,
  type DevicesState,
} from './devicesState';
import type { CaptureDevice } from './errors';
import type { MediaDevicesApi } from './MediaDevicesApi';
import { TypedEmitter } from '../../common/TypedEmitter';
import { errorMessage } from '../../common/errorMessage';

export interface DeviceManagerEvents {
  /** The state changed (never emitted for a refresh that found the same devices). */
  change: [state: DevicesState];
}

export interface DeviceManagerOptions {
  readonly mediaDevices: MediaDevicesApi;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * SPEC §3 Devices for this tab: the device list refreshed on `devicechange` and every 3 s, the
 * permission flags, and the capture-in-progress flags that MediaCapture sets.
 *
 * The 3 s poll runs for as long as the manager listens: browsers fire `devicechange` only once a
 * kind's permission is granted, and do not fire it when a permission is granted or revoked, so
 * the poll is what notices a first camera being plugged in, or labels appearing or disappearing.
 */
export class DeviceManager extends TypedEmitter<DeviceManagerEvents> {
  private current: DevicesState = initialDevicesState;
  private pollTimer: unknown = undefined;
  private reading: Promise<void> | undefined;
  private followingRead: Promise<void> | undefined;
  private readonly onDeviceChange = (): void => void this.refresh();

  constructor(private readonly options: DeviceManagerOptions) {
    super();
  }

  get state(): DevicesState {
    return this.current;
  }

  /** Starts listening and refreshes now. */
  start(): void {
    if (this.pollTimer !== undefined) return;
    this.options.mediaDevices.addEventListener('devicechange', this.onDeviceChange);
    this.pollTimer = this.options.clock.setInterval(() => void this.refresh(), DEVICES_REFRESH_MS);
    void this.refresh();
  }

  stop(): void {
    if (this.pollTimer === undefined) return;
    this.options.mediaDevices.removeEventListener('devicechange', this.onDeviceChange);
    this.options.clock.clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /**
   * Re-reads the device list. A call made while a read is under way waits for one more read after
   * it (shared by every such call), so a change reported mid-read is never lost, the caller sees
   * the list as it is now, and reads never pile up.
   */
  refresh(): Promise<void> {
    if (!this.reading) {
      this.reading = this.readDevices().finally(() => (this.reading = undefined));
      return this.reading;
    }
    this.followingRead ??= this.reading.then(() => {
      this.followingRead = undefined;
      return this.refresh();
    });
    return this.followingRead;
  }

  /** SPEC §8: a refused capture (or a requested track missing from the result). */
  markPermissionDenied(device: CaptureDevice): void {
    this.set(device === 'camera' ? { cameraPermissionDenied: true } : { microphonePermissionDenied: true });
  }

  /** A capture of this device succeeded: an earlier refusal no longer holds. */
  markCaptured(device: CaptureDevice): void {
    this.set(device === 'camera' ? { cameraPermissionDenied: false } : { microphonePermissionDenied: false });
  }

  setCaptureInProgress(camera: boolean, microphone: boolean): void {
    this.set({
      requestingCameraCapture: camera,
      requestingMicrophoneCapture: microphone,
      requestingCapture: camera || microphone,
    });
  }

  private async readDevices(): Promise<void> {
    let enumerated: MediaDeviceInfo[];
    try {
      enumerated = await this.options.mediaDevices.enumerateDevices();
    } catch (error) {
      this.options.logger.error(`Could not list media devices: ${errorMessage(error)}`);
      return;
    }
    this.replace(devicesFromEnumeration(enumerated, this.current));
  }

  private set(change: Partial<DevicesState>): void {
    this.replace({ ...this.current, ...change });
  }

  private replace(next: DevicesState): void {
    if (sameDevicesState(next, this.current)) return;
    this.current = next;
    this.emit('change', next);
  }
}
