import { useAtomValue } from 'jotai';
import { useCallRuntime } from './callRuntimeContext';
import { DeviceToggle } from './DeviceToggle';

/** "Stop camera" / "Start camera" (DESIGN "Run contract"), also on Ctrl+E. */
export function CameraToggle() {
  const runtime = useCallRuntime();
  const { on, starting, enabled } = useAtomValue(runtime.atoms.deviceToggles).camera;
  const trouble = useAtomValue(runtime.atoms.deviceTroubles).camera;
  return (
    <DeviceToggle
      device="camera"
      on={on}
      starting={starting}
      disabled={!enabled}
      trouble={trouble}
      onToggle={() => void runtime.toggleCamera()}
    />
  );
}
