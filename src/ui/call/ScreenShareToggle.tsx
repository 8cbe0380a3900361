import { useAtomValue } from 'jotai';
import { ScreenIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/** "Start Screenshare" (SPEC §2's plain button) and its stop; absent where the browser cannot share a screen. */
export function ScreenShareToggle() {
  const runtime = useCallRuntime();
  const { screenIds } = useAtomValue(runtime.atoms.local);
  if (!runtime.screenShareSupported) return null;
  const sharing = screenIds.length > 0;
  const label = sharing ? 'Stop Screenshare' : 'Start Screenshare';
  return (
    <button
      type="button"
      className={`control${sharing ? ' is-active' : ''}`}
      data-control="screen"
      aria-label={label}
      title={label}
      onClick={() => (sharing ? runtime.stopScreenShare() : void runtime.startScreenShare())}
    >
      <ScreenIcon />
    </button>
  );
}
