import { useAtomValue } from 'jotai';
import { CameraIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';
import { CALL_SHORTCUTS } from './callShortcuts';
import { DeviceToggle } from './DeviceToggle';

/** "Stop camera" / "Start camera" (DESIGN "Run contract"), also on Ctrl+E. */
export function CameraToggle() {
  const runtime = useCallRuntime();
  const { on, starting, enabled } = useAtomValue(runtime.atoms.deviceToggles).camera;
  return (
    <DeviceToggle
      on={on}
      starting={starting}
      disabled={!enabled}
      label={on ? 'Stop camera' : 'Start camera'}
      shortcut={CALL_SHORTCUTS.camera}
      onToggle={() => void runtime.toggleCamera()}
      icon={(off) => <CameraIcon off={off} />}
      stateWords={['Camera on', 'Camera off']}
    />
  );
}
