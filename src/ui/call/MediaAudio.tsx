import { useCallback } from 'react';
import { useCallRuntime } from './callRuntimeContext';

/** A remote audio item, played at that person's volume on the chosen speaker. Nothing to see. */
export function MediaAudio({ itemId }: { itemId: string }) {
  const runtime = useCallRuntime();
  const attach = useCallback((element: HTMLAudioElement) => runtime.attachAudio(itemId, element), [runtime, itemId]);
  return <audio ref={attach} autoPlay />;
}
