import { useCallback, useEffect, useState } from 'react';
import { MediaVideo } from './MediaVideo';

/** A replacement video not showing a frame by then is shown anyway: a tile never waits long for it. */
const REPLACEMENT_WAIT_MS = 2_000;

interface TileVideoProps {
  itemId: string;
  mirrored: boolean;
}

/**
 * The tile's video. When the tile's video item is replaced (the same camera arriving by another
 * path: mesh ↔ relay), the new one plays hidden beneath the old one until it has shown a frame, and
 * only then takes its place: the picture never blanks while the new element starts.
 */
export function TileVideo({ itemId, mirrored }: TileVideoProps) {
  const [shown, setShown] = useState(itemId);
  const incoming = itemId === shown ? undefined : itemId;
  // Stable while the same item comes in, so that its element is not attached again on every render.
  const showIncoming = useCallback(() => {
    if (incoming !== undefined) setShown(incoming);
  }, [incoming]);
  useEffect(() => {
    if (incoming === undefined) return;
    const timer = setTimeout(showIncoming, REPLACEMENT_WAIT_MS);
    return () => clearTimeout(timer);
  }, [incoming, showIncoming]);
  return (
    <>
      <MediaVideo key={shown} itemId={shown} mirrored={mirrored} />
      {incoming !== undefined && <MediaVideo key={incoming} itemId={incoming} mirrored={mirrored} incoming onFirstFrame={showIncoming} />}
    </>
  );
}
