import { useAtomValue } from 'jotai';
import { useId, useState } from 'react';
import { InfoIcon } from './CallIcons';
import { CallPathStatus } from './CallPathStatus';
import { useCallRuntime } from './callRuntimeContext';
import { TilePath } from './TilePath';

/**
 * "Call details": for the curious, how the call's media travels (directly or through the media relay,
 * SPEC §4) and, per person, how their video reaches you and at which layer. Folded away by default:
 * none of it is something to act on.
 */
export function CallDetails() {
  const runtime = useCallRuntime();
  const tiles = useAtomValue(runtime.atoms.tiles);
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const received = tiles.filter((tile) => !tile.isSelf && tile.videoItemId !== undefined);
  return (
    <div className="call-details">
      <button
        type="button"
        className={`stage-button${open ? ' is-active' : ''}`}
        aria-expanded={open}
        aria-controls={detailsId}
        title="Call details"
        onClick={() => setOpen((shown) => !shown)}
      >
        <InfoIcon />
        <span className="visually-hidden">Call details</span>
      </button>
      {open && (
        <div id={detailsId} className="call-details-panel">
          <CallPathStatus />
          {received.length > 0 && (
            <ul className="call-details-list" aria-label="Video you receive">
              {received.map((tile) => (
                <li key={tile.key}>
                  <span className="call-details-name">{tile.kind === 'screen' ? `${tile.displayName}'s screen` : tile.displayName}</span>
                  {tile.videoItemId && <TilePath itemId={tile.videoItemId} />}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
