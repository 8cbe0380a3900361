import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useCallRuntime } from './callRuntimeContext';
import { screenShareNews, screenSharers, type ScreenSharers } from './screenShareNews';

/**
 * Says, politely, who starts and stops sharing a screen in the call: a share takes the stage, which
 * a screen reader would not otherwise hear of. The region is there empty first, so that what it
 * says on entering the call is read as news too.
 */
export function ScreenShareAnnouncer() {
  const runtime = useCallRuntime();
  const tiles = useAtomValue(runtime.atoms.tiles);
  const before = useRef<ScreenSharers | undefined>(undefined);
  const [news, setNews] = useState('');
  useEffect(() => {
    const now = screenSharers(tiles);
    const said = screenShareNews(before.current, now);
    before.current = now;
    if (said !== undefined) setNews(said);
  }, [tiles]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-label="Screen sharing">
      {news}
    </div>
  );
}
