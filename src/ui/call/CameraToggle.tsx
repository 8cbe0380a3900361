import { useAtomValue } from 'jotai';
import { CameraIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/** "Stop camera" / "Start camera" (DESIGN "Run contract"). */
export function CameraToggle() {
  const runtime = useCallRuntime();
  const { camera } = useAtomValue(runtime.atoms.local);
  const devices = useAtomValue(runtime.atoms.devices);
  const on = camera !== undefined && !camera.off;
  // A camera on its way is neither shown off nor toggled: a click then would start it, not stop it.
  const starting = useAtomValue(runtime.atoms.previewStarting) || devices.requestingCameraCapture;
  const label = on ? 'Stop camera' : 'Start camera';
  return (
    <button
      type="button"
      className={`control${on || starting ? '' : ' is-off'}`}
      aria-label={label}
      title={label}
      disabled={!devices.hasCamera || starting}
      onClick={() => void runtime.toggleCamera()}
    >
      <CameraIcon off={!on && !starting} />
    </button>
  );
}
