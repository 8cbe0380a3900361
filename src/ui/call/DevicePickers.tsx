import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import type { DeviceInfo } from '../../main-thread/media';
import { useCallRuntime } from './callRuntimeContext';

interface PickerProps {
  label: string;
  devices: readonly DeviceInfo[];
  value: string;
  /** The entry for "whatever the browser picks", shown first. */
  defaultLabel: string;
  /** What the list holds, for its empty entry: "No camera found". */
  kind: string;
  /** The browser names the devices (access was granted): an empty list is one with none plugged in. */
  named: boolean;
  /** The preview's first capture is under way: no list yet, and none refused. */
  starting: boolean;
  onChange: (deviceId: string) => void;
}

function DevicePicker({ label, devices, value, defaultLabel, kind, named, starting, onChange }: PickerProps) {
  const known = devices.some((device) => device.deviceId === value);
  return (
    <label className="field device-picker">
      <span>{label}</span>
      <select value={known ? value : ''} onChange={(event) => onChange(event.target.value)} disabled={devices.length === 0}>
        <option value="">{devices.length > 0 || starting ? defaultLabel : named ? `No ${kind} found` : 'Allow access to choose'}</option>
        {devices.map((device) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The devices of a kind the call tab knows, whether the preview's first capture is under way, and
 * the device each picker shows: the one running, else the one picked (kept after leaving the call,
 * or with the device left off, for the next capture to ask for).
 */
function useDevices() {
  const runtime = useCallRuntime();
  const devices = useAtomValue(runtime.atoms.devices);
  const starting = useAtomValue(runtime.atoms.previewStarting);
  const running = useAtomValue(runtime.atoms.selectedDevices);
  const picked = useAtomValue(runtime.atoms.pickedDevices);
  const shown = { camera: running.camera ?? picked.camera ?? '', microphone: running.microphone ?? picked.microphone ?? '' };
  // The list holds labelled devices only: one at all says access was granted.
  return { runtime, starting, shown, named: devices.list.length > 0, ofKind: (kind: MediaDeviceKind) => devices.list.filter((device) => device.kind === kind) };
}

/** The microphone picker; `label` names it where it stands (beside the others, or in a notice about the microphone). */
export function MicrophonePicker({ label }: { label: string }) {
  const { runtime, starting, shown, named, ofKind } = useDevices();
  return (
    <DevicePicker
      label={label}
      devices={ofKind('audioinput')}
      value={shown.microphone}
      defaultLabel="Default microphone"
      kind="microphone"
      named={named}
      starting={starting}
      onChange={(id) => void runtime.selectMicrophone(id)}
    />
  );
}

/** Camera, microphone and — where the browser can route audio — speaker. Names show once access is granted. */
export function DevicePickers() {
  const { runtime, starting, shown, named, ofKind } = useDevices();
  const { audioOutputDeviceId } = useAtomValue(preferencesAtom);
  return (
    <div className="device-pickers">
      <DevicePicker label="Camera" devices={ofKind('videoinput')} value={shown.camera} defaultLabel="Default camera" kind="camera" named={named} starting={starting} onChange={(id) => void runtime.selectCamera(id)} />
      <MicrophonePicker label="Microphone" />
      {runtime.audioOutputSelectable && (
        <DevicePicker label="Speaker" devices={ofKind('audiooutput')} value={audioOutputDeviceId} defaultLabel="System default" kind="speaker" named={named} starting={starting} onChange={(id) => runtime.selectSpeaker(id)} />
      )}
    </div>
  );
}
