import { describe, expect, it } from 'vitest';
import { DEVICES_REFRESH_MS } from '../../src/protocol/constants';
import type { Logger } from '../../src/common/logger';
import { DeviceManager } from '../../src/main-thread/media/DeviceManager';
import {
  BUILT_IN_SPEAKER_INPUT_LABEL,
  devicesFromEnumeration,
  initialDevicesState,
  type DeviceInfo,
  type DevicesState,
} from '../../src/main-thread/media/devicesState';
import type { MediaDevicesApi } from '../../src/main-thread/media/MediaDevicesApi';
import { ManualClock } from '../support/ManualClock';

const device = (kind: MediaDeviceKind, label: string, deviceId = label ? `${kind}-${label}` : ''): DeviceInfo => ({
  kind,
  label,
  deviceId,
  groupId: '',
});

/**
 * Fake enumerateDevices: the device lists here (a Mac's speaker listed as a microphone, hardware
 * coming and going, a failing enumeration) are what Chromium's fake devices cannot produce.
 * `pending` holds each call's answer until the test releases it.
 */
class FakeMediaDevices extends EventTarget {
  devices: DeviceInfo[] = [];
  enumerations = 0;
  failNext = false;
  readonly pending: Array<() => void> = [];
  holdAnswers = false;

  enumerateDevices(): Promise<MediaDeviceInfo[]> {
    this.enumerations += 1;
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new DOMException('enumeration failed', 'InvalidStateError'));
    }
    const answer = [...this.devices] as unknown as MediaDeviceInfo[];
    if (!this.holdAnswers) return Promise.resolve(answer);
    return new Promise((resolve) => this.pending.push(() => resolve(answer)));
  }
}

function setup() {
  const clock = new ManualClock();
  const fake = new FakeMediaDevices();
  const errors: string[] = [];
  const logger: Logger = { info: () => {}, error: (message) => errors.push(message) };
  const manager = new DeviceManager({ mediaDevices: fake as unknown as MediaDevicesApi, clock, logger });
  const changes: DevicesState[] = [];
  manager.on('change', (state) => changes.push(state));
  return { clock, fake, manager, changes, errors };
}

describe('device list (SPEC §3 Devices, §5)', () => {
  it(`hides an audio input labelled exactly "${BUILT_IN_SPEAKER_INPUT_LABEL}", and nothing else`, () => {
    const state = devicesFromEnumeration(
      [
        device('audioinput', 'MacBook Pro Speakers'),
        device('audiooutput', 'MacBook Pro Speakers'),
        device('audioinput', 'MacBook Pro Microphone'),
        device('audioinput', 'macbook pro speakers'),
        device('audioinput', 'MacBook Pro Speakers (Bluetooth)'),
        device('audioinput', 'Speakerphone'),
      ],
      initialDevicesState,
    );
    expect(state.list.map(({ kind, label }) => `${kind}: ${label}`)).toEqual([
      'audiooutput: MacBook Pro Speakers',
      'audioinput: MacBook Pro Microphone',
      'audioinput: macbook pro speakers',
      'audioinput: MacBook Pro Speakers (Bluetooth)',
      'audioinput: Speakerphone',
    ]);
  });

  it('does not count a hidden speaker input as a microphone', () => {
    const state = devicesFromEnumeration([device('audioinput', 'MacBook Pro Speakers')], initialDevicesState);
    expect(state).toMatchObject({ hasMicrophone: false, microphonePermissionGranted: false, list: [] });
  });

  it('ignores unlabelled devices until permission is granted, but reports that they exist', () => {
    const before = devicesFromEnumeration(
      [device('videoinput', ''), device('audioinput', ''), device('audiooutput', '')],
      initialDevicesState,
    );
    expect(before).toMatchObject({
      list: [],
      hasCamera: true,
      hasMicrophone: true,
      hasAudioOutput: true,
      cameraPermissionGranted: false,
      microphonePermissionGranted: false,
    });
    const after = devicesFromEnumeration([device('videoinput', ''), device('audioinput', 'Headset')], before);
    expect(after.list.map((entry) => entry.label)).toEqual(['Headset']);
    expect(after).toMatchObject({ cameraPermissionGranted: false, microphonePermissionGranted: true, hasAudioOutput: false });
  });

  it('keeps only plain fields of each device', () => {
    const withExtras = { ...device('videoinput', 'Cam'), toJSON: () => ({}) } as DeviceInfo;
    expect(devicesFromEnumeration([withExtras], initialDevicesState).list).toEqual([device('videoinput', 'Cam')]);
  });
});

describe('SPEC §9 "Device list refresh every 3 s", and on devicechange; SPEC §3 Devices’ permission and capture-in-progress flags (DeviceManager)', () => {
  it('reads the devices at start and again every 3 s', async () => {
    const { clock, fake, manager, changes } = setup();
    fake.devices = [device('audioinput', '')];
    manager.start();
    await clock.advance(0);
    expect(manager.state.hasMicrophone).toBe(true);
    expect(manager.state.hasCamera).toBe(false);

    fake.devices.push(device('videoinput', ''));
    await clock.advance(DEVICES_REFRESH_MS - 1);
    expect(manager.state.hasCamera).toBe(false);
    await clock.advance(1);
    expect(manager.state.hasCamera).toBe(true);
    expect(fake.enumerations).toBe(2);
    expect(changes).toHaveLength(2);
  });

  it('re-reads on devicechange, and emits change only when something changed', async () => {
    const { clock, fake, manager, changes } = setup();
    fake.devices = [device('audioinput', 'Mic')];
    manager.start();
    await clock.advance(0);
    fake.dispatchEvent(new Event('devicechange'));
    await clock.advance(0);
    expect(fake.enumerations).toBe(2);
    expect(changes).toHaveLength(1);

    fake.devices.push(device('videoinput', 'USB camera'));
    fake.dispatchEvent(new Event('devicechange'));
    await clock.advance(0);
    expect(manager.state.list.map((entry) => entry.label)).toEqual(['Mic', 'USB camera']);
    expect(changes).toHaveLength(2);
  });

  it('stops polling and listening when stopped', async () => {
    const { clock, fake, manager } = setup();
    manager.start();
    await clock.advance(0);
    manager.stop();
    fake.dispatchEvent(new Event('devicechange'));
    await clock.advance(DEVICES_REFRESH_MS * 3);
    expect(fake.enumerations).toBe(1);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it('reads once more after a read under way, however many refreshes were asked meanwhile', async () => {
    const { clock, fake, manager } = setup();
    fake.holdAnswers = true;
    fake.devices = [device('audioinput', 'Mic')];
    const first = manager.refresh();
    fake.devices = [device('audioinput', 'Mic'), device('videoinput', 'Cam')];
    const second = manager.refresh();
    const third = manager.refresh();
    expect(fake.enumerations).toBe(1);

    fake.pending.shift()?.();
    await first;
    await clock.advance(0);
    expect(fake.enumerations).toBe(2);
    fake.pending.shift()?.();
    await Promise.all([second, third]);
    expect(fake.enumerations).toBe(2);
    expect(manager.state.hasCamera).toBe(true);
  });

  it('logs a failed read and keeps the last list', async () => {
    const { fake, manager, errors } = setup();
    fake.devices = [device('audioinput', 'Mic')];
    await manager.refresh();
    fake.failNext = true;
    await manager.refresh();
    expect(manager.state.list).toHaveLength(1);
    expect(errors).toEqual(['Could not list media devices: enumeration failed']);
  });

  it('keeps a denial until a capture of that device succeeds, whatever the list shows', async () => {
    const { fake, manager } = setup();
    fake.devices = [device('audioinput', 'Mic'), device('videoinput', 'Cam')];
    manager.markPermissionDenied('camera');
    await manager.refresh();
    expect(manager.state).toMatchObject({ cameraPermissionDenied: true, cameraPermissionGranted: true, microphonePermissionDenied: false });
    manager.markCaptured('camera');
    expect(manager.state.cameraPermissionDenied).toBe(false);
  });

  it('sets the capture-in-progress flags', () => {
    const { manager } = setup();
    manager.setCaptureInProgress(true, false);
    expect(manager.state).toMatchObject({ requestingCameraCapture: true, requestingMicrophoneCapture: false, requestingCapture: true });
    manager.setCaptureInProgress(false, false);
    expect(manager.state.requestingCapture).toBe(false);
  });
});
