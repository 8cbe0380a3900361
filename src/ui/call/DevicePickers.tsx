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
  /** The preview's first capture is under way: no list yet, and none refused. */
  starting: boolean;
  onChange: (deviceId: string) => void;
}

function DevicePicker({ label, devices, value, defaultLabel, starting, onChange }: PickerProps) {
  const known = devices.some((device) => device.deviceId === value);
  return (
    <label className="field device-picker">
      <span>{label}</span>
      <select value={known ? value : ''} onChange={(event) => onChange(event.target.value)} disabled={devices.length === 0}>
        <option value="">{devices.length === 0 && !starting ? 'Allow access to choose' : defaultLabel}</option>
        {devices.map((device) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Camera, microphone and — where the browser can route audio — speaker. Names show once access is granted. */
export function DevicePickers() {
  const runtime = useCallRuntime();
  const devices = useAtomValue(runtime.atoms.devices);
  const selected = useAtomValue(runtime.atoms.selectedDevices);
  const starting = useAtomValue(runtime.atoms.previewStarting);
  const { audioOutputDeviceId } = useAtomValue(preferencesAtom);
  const ofKind = (kind: MediaDeviceKind) => devices.list.filter((device) => device.kind === kind);
  return (
    <div className="device-pickers">
      <DevicePicker label="Camera" devices={ofKind('videoinput')} value={selected.camera ?? ''} defaultLabel="Default camera" starting={starting} onChange={(id) => void runtime.selectCamera(id)} />
      <DevicePicker label="Microphone" devices={ofKind('audioinput')} value={selected.microphone ?? ''} defaultLabel="Default microphone" starting={starting} onChange={(id) => void runtime.selectMicrophone(id)} />
      {runtime.audioOutputSelectable && (
        <DevicePicker label="Speaker" devices={ofKind('audiooutput')} value={audioOutputDeviceId} defaultLabel="System default" starting={starting} onChange={(id) => runtime.selectSpeaker(id)} />
      )}
    </div>
  );
}
