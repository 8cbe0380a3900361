import { ScreenIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/**
 * Your own share of a whole display, in its tile: the picture would show this page inside itself
 * again and again, so the tile says what the others see (and hear) and offers to stop.
 */
export function OwnWholeScreen({ withSound }: { withSound: boolean }) {
  const runtime = useCallRuntime();
  return (
    <div className="tile-own-screen">
      <ScreenIcon />
      <p className="tile-own-screen-title">You are sharing your entire screen</p>
      <p className="tile-own-screen-detail">{withSound ? 'Everyone in the call sees it and hears its sound.' : 'Everyone in the call sees it.'}</p>
      <button type="button" className="button small" onClick={() => runtime.stopScreenShare()}>
        Stop sharing your screen
      </button>
    </div>
  );
}
