import { useRef } from 'react';
import { ScreenIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/**
 * Your own share of a whole display, in its tile: the picture would show this page inside itself
 * again and again, so the tile says what the others see (and hear) and offers to stop.
 */
export function OwnWholeScreen({ withSound }: { withSound: boolean }) {
  const runtime = useCallRuntime();
  const stop = useRef<HTMLButtonElement>(null);
  // The tile goes with this button: focus goes to the call's own screen-share control, which shares again.
  const stopSharing = () => {
    stop.current?.closest('.call-stage')?.querySelector<HTMLElement>('.call-controls [data-control="screen"]')?.focus({ preventScroll: true });
    runtime.stopScreenShare();
  };
  return (
    <div className="tile-own-screen">
      <ScreenIcon />
      <p className="tile-own-screen-title">You are sharing your entire screen</p>
      <p className="tile-own-screen-detail">{withSound ? 'Everyone in the call sees it and hears its sound.' : 'Everyone in the call sees it.'}</p>
      <button ref={stop} type="button" className="button small" onClick={stopSharing}>
        Stop sharing your screen
      </button>
    </div>
  );
}
