import { useAtomValue } from 'jotai';
import { CameraIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/** "Stop camera" / "Start camera" (DESIGN "Run contract"). */
export function CameraToggle() {
  const runtime = useCallRuntime();
  const { camera } = useAtomValue(runtime.atoms.local);
  const devices = useAtomValue(runtime.atoms.devices);
  const on = camera !== undefined && !camera.off;
  const label = on ? 'Stop camera' : 'Start camera';
  return (
    <button
      type="button"
      className={`control${on ? '' : ' is-off'}`}
      aria-label={label}
      title={label}
      disabled={!devices.hasCamera || devices.requestingCameraCapture}
      onClick={() => void runtime.toggleCamera()}
    >
      <CameraIcon off={!on} />
    </button>
  );
}
