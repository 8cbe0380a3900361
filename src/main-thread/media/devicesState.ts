/** One entry of the device list: MediaDeviceInfo as a plain record. */
export interface DeviceInfo {
  readonly deviceId: string;
  readonly groupId: string;
  readonly kind: MediaDeviceKind;
  readonly label: string;
}

/** SPEC §3 Devices. */
export interface DevicesState {
  /** Labelled devices only: an unlabelled entry is a placeholder the browser shows before permission. */
  readonly list: readonly DeviceInfo[];
  readonly hasCamera: boolean;
  readonly hasMicrophone: boolean;
  readonly hasAudioOutput: boolean;
  readonly cameraPermissionGranted: boolean;
  readonly cameraPermissionDenied: boolean;
  readonly microphonePermissionGranted: boolean;
  readonly microphonePermissionDenied: boolean;
  readonly requestingCameraCapture: boolean;
  readonly requestingMicrophoneCapture: boolean;
  /** Either of the two above. */
  readonly requestingCapture: boolean;
}

export const initialDevicesState: DevicesState = {
  list: [],
  hasCamera: false,
  hasMicrophone: false,
  hasAudioOutput: false,
  cameraPermissionGranted: false,
  cameraPermissionDenied: false,
  microphonePermissionGranted: false,
  microphonePermissionDenied: false,
  requestingCameraCapture: false,
  requestingMicrophoneCapture: false,
  requestingCapture: false,
};

/**
 * SPEC §5 "built-in-speaker audio inputs with a particular label are hidden". The rule, as
 * SimpleWebRTC 1.30.3 applies it: an `audioinput` whose label is exactly "MacBook Pro Speakers"
 * (Safari lists the built-in speakers as a microphone). Exact and case-sensitive; other labels,
 * other kinds (the same label as an `audiooutput` is the real speaker) and near misses stay.
 */
export const BUILT_IN_SPEAKER_INPUT_LABEL = 'MacBook Pro Speakers';

export function isBuiltInSpeakerInput(device: Pick<DeviceInfo, 'kind' | 'label'>): boolean {
  return device.kind === 'audioinput' && device.label === BUILT_IN_SPEAKER_INPUT_LABEL;
}

/** A device whose label and id the browser exposes: it does so only once access is granted. */
function isExposed(device: DeviceInfo): boolean {
  return device.label !== '' && device.deviceId !== '';
}

/**
 * The device part of the state from an enumerateDevices result. Presence flags count unlabelled
 * placeholders too (so the UI can offer "Start camera" before permission); the list holds only
 * labelled devices; a kind's permission counts as granted when one of its devices is exposed.
 * Denials are not read from the list: they record that our last capture was refused (see
 * DeviceManager), which an exposed label does not undo — the person may have blocked one kind only.
 */
export function devicesFromEnumeration(
  enumerated: readonly DeviceInfo[],
  previous: DevicesState,
): DevicesState {
  const devices = enumerated.filter((device) => !isBuiltInSpeakerInput(device));
  const ofKind = (kind: MediaDeviceKind): DeviceInfo[] => devices.filter((device) => device.kind === kind);
  return {
    ...previous,
    list: devices
      .filter((device) => device.label !== '')
      .map(({ deviceId, groupId, kind, label }) => ({ deviceId, groupId, kind, label })),
    hasCamera: ofKind('videoinput').length > 0,
    hasMicrophone: ofKind('audioinput').length > 0,
    hasAudioOutput: ofKind('audiooutput').length > 0,
    cameraPermissionGranted: ofKind('videoinput').some(isExposed),
    microphonePermissionGranted: ofKind('audioinput').some(isExposed),
  };
}

export function sameDevicesState(a: DevicesState, b: DevicesState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
