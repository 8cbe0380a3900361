import { useCallback } from 'react';
import { useCallRuntime } from './callRuntimeContext';

interface MediaVideoProps {
  itemId: string;
  /** Your own camera is shown as a mirror shows you (Media item renderMirrored). */
  mirrored: boolean;
}

/** A media item's video: muted and inline, so that it may always play on its own. */
export function MediaVideo({ itemId, mirrored }: MediaVideoProps) {
  const runtime = useCallRuntime();
  const attach = useCallback((element: HTMLVideoElement) => runtime.attachVideo(itemId, element), [runtime, itemId]);
  return <video ref={attach} className={`media-video${mirrored ? ' is-mirrored' : ''}`} autoPlay playsInline muted />;
}
