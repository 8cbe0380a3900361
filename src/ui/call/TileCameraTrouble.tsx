import { useAtomValue } from 'jotai';
import { useCallRuntime } from './callRuntimeContext';

/**
 * On your own tile while your camera does not run because it could not start (another app holds it,
 * it was unplugged): why, in short words, where you look for yourself — also on a touch screen,
 * which shows no tooltip on the camera's button, once the notice is dismissed.
 */
export function TileCameraTrouble() {
  const runtime = useCallRuntime();
  const trouble = useAtomValue(runtime.atoms.deviceTroubles).camera;
  if (!trouble) return null;
  return <span className="chip chip-trouble">{trouble.words}</span>;
}
