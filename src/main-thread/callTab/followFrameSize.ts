import type { VideoSize } from '../call/receive/tileProfile';

/** The events a <video> element reads out its frame size on (HTMLVideoElement videoWidth × videoHeight). */
type FrameSizeElement = Pick<HTMLVideoElement, 'videoWidth' | 'videoHeight' | 'addEventListener' | 'removeEventListener'>;

/**
 * Reports the size of the frames a <video> element shows: at once if it shows one already, then at
 * its first frame (`loadedmetadata`) and at every change of size (`resize`, as a relay switches
 * layers). Returns the stop.
 */
export function followFrameSize(element: FrameSizeElement, onSize: (size: VideoSize) => void): () => void {
  const report = (): void => {
    if (element.videoWidth > 0 && element.videoHeight > 0) onSize({ width: element.videoWidth, height: element.videoHeight });
  };
  report();
  element.addEventListener('loadedmetadata', report);
  element.addEventListener('resize', report);
  return () => {
    element.removeEventListener('loadedmetadata', report);
    element.removeEventListener('resize', report);
  };
}
