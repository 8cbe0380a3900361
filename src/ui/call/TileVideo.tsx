import { useCallback, useState, type ReactNode } from 'react';
import { MediaVideo } from './MediaVideo';

interface TileVideoProps {
  itemId: string;
  mirrored: boolean;
  /** Shown over the video until it presents its first frame (the person's initial), never a black rectangle. */
  beforeFirstFrame: ReactNode;
}

/**
 * The tile's video. When the tile's video item is replaced (the same camera arriving by another
 * path: mesh ↔ relay), the new one plays hidden beneath the old one until it presents its first
 * frame, and only then takes its place: the picture never blanks while the new element starts.
 * When to replace is decided before (the call's PathChange: the new item exists once its session
 * decodes), so this needs no timer of its own. Until the first video has presented a frame (its
 * media still on the way: the connection being set up, a sender whose camera has not delivered yet),
 * `beforeFirstFrame` covers it.
 */
export function TileVideo({ itemId, mirrored, beforeFirstFrame }: TileVideoProps) {
  const [shown, setShown] = useState(itemId);
  const [presented, setPresented] = useState<string | undefined>(undefined);
  const incoming = itemId === shown ? undefined : itemId;
  // Stable while the same item comes in, so that its element is not attached again on every render.
  const showIncoming = useCallback(() => {
    if (incoming === undefined) return;
    setShown(incoming);
    setPresented(incoming);
  }, [incoming]);
  const shownPresented = useCallback(() => setPresented(shown), [shown]);
  return (
    <>
      <MediaVideo key={shown} itemId={shown} mirrored={mirrored} onFirstFrame={shownPresented} />
      {presented !== shown && beforeFirstFrame}
      {incoming !== undefined && <MediaVideo key={incoming} itemId={incoming} mirrored={mirrored} incoming onFirstFrame={showIncoming} />}
    </>
  );
}
