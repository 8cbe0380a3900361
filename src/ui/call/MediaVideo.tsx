import { useCallback, useEffect, useRef } from 'react';
import { useCallRuntime } from './callRuntimeContext';

interface MediaVideoProps {
  itemId: string;
  /** Your own camera is shown as a mirror shows you (Media item renderMirrored). */
  mirrored: boolean;
  /** Plays hidden, beneath the shown video, until `onFirstFrame`. */
  incoming?: boolean;
  onFirstFrame?: () => void;
}

/** A media item's video: muted and inline, so that it may always play on its own. */
export function MediaVideo({ itemId, mirrored, incoming = false, onFirstFrame }: MediaVideoProps) {
  const runtime = useCallRuntime();
  // Read when the frame comes: a changed callback must not attach the element again (that restarts its picture).
  const firstFrame = useRef(onFirstFrame);
  useEffect(() => {
    firstFrame.current = onFirstFrame;
  }, [onFirstFrame]);
  const attach = useCallback(
    (element: HTMLVideoElement) => {
      const detach = runtime.attachVideo(itemId, element);
      const presented = () => firstFrame.current?.();
      // requestVideoFrameCallback fires once a frame is presented (Chromium, Safari); elsewhere, once playback starts.
      const frame = typeof element.requestVideoFrameCallback === 'function' ? element.requestVideoFrameCallback(presented) : undefined;
      if (frame === undefined) element.addEventListener('playing', presented, { once: true });
      return () => {
        if (frame !== undefined) element.cancelVideoFrameCallback(frame);
        else element.removeEventListener('playing', presented);
        detach();
      };
    },
    [runtime, itemId],
  );
  return <video ref={attach} className={`media-video${mirrored ? ' is-mirrored' : ''}${incoming ? ' is-incoming' : ''}`} autoPlay playsInline muted />;
}
