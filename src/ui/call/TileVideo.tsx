import { useCallback, useState } from 'react';
import { MediaVideo } from './MediaVideo';

interface TileVideoProps {
  itemId: string;
  mirrored: boolean;
}

/**
 * The tile's video. When the tile's video item is replaced (the same camera arriving by another
 * path: mesh ↔ relay), the new one plays hidden beneath the old one until it presents its first
 * frame, and only then takes its place: the picture never blanks while the new element starts.
 * When to replace is decided before (the call's PathChange: the new item exists once its session
 * decodes), so this needs no timer of its own.
 */
export function TileVideo({ itemId, mirrored }: TileVideoProps) {
  const [shown, setShown] = useState(itemId);
  const incoming = itemId === shown ? undefined : itemId;
  // Stable while the same item comes in, so that its element is not attached again on every render.
  const showIncoming = useCallback(() => {
    if (incoming !== undefined) setShown(incoming);
  }, [incoming]);
  return (
    <>
      <MediaVideo key={shown} itemId={shown} mirrored={mirrored} />
      {incoming !== undefined && <MediaVideo key={incoming} itemId={incoming} mirrored={mirrored} incoming onFirstFrame={showIncoming} />}
    </>
  );
}
