import { useAtomValue } from 'jotai';
import { CameraIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';
import { CALL_SHORTCUTS } from './callShortcuts';
import { DeviceToggle } from './DeviceToggle';

/** "Stop camera" / "Start camera" (DESIGN "Run contract"), also on Ctrl+E. */
export function CameraToggle() {
  const runtime = useCallRuntime();
  const { camera } = useAtomValue(runtime.atoms.local);
  const devices = useAtomValue(runtime.atoms.devices);
  // Let go after you left the call: what the next join turns on.
  const joinWith = useAtomValue(runtime.atoms.joinWith);
  const released = useAtomValue(runtime.atoms.leftCall);
  const on = camera ? !camera.off : released && joinWith.camera;
  const starting = useAtomValue(runtime.atoms.previewStarting) || devices.requestingCameraCapture;
  return (
    <DeviceToggle
      on={on}
      starting={starting}
      disabled={!devices.hasCamera || starting}
      label={on ? 'Stop camera' : 'Start camera'}
      shortcut={CALL_SHORTCUTS.camera}
      onToggle={() => void runtime.toggleCamera()}
      icon={(off) => <CameraIcon off={off} />}
      stateWords={['Camera on', 'Camera off']}
    />
  );
}
