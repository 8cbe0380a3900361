import { VIDEO_LOADED_CHECK_TIMEOUT_MS } from '../../protocol/constants';
import type { Clock } from '../../common/clock';
import type { MediaKind } from './MediaItem';

/** The media item fields a playback probe fills in. */
export interface MediaLoadedInfo {
  readonly loaded: boolean;
  readonly width?: number;
  readonly height?: number;
}

/**
 * Plays the stream in a detached, muted element until it can play, and reports the video size.
 * Video gives up after 500 ms (SPEC §9) and reports loaded with whatever size the element knows
 * then, so a tile is never held back by a stream that is slow to start. Audio waits for playback.
 * Never rejects. Needs a DOM (a tab, not a worker).
 */
export function probeMediaLoaded(
  kind: MediaKind,
  stream: MediaStream,
  clock: Clock,
  timeoutMs: number = VIDEO_LOADED_CHECK_TIMEOUT_MS,
): Promise<MediaLoadedInfo> {
  return new Promise((resolve) => {
    const player = document.createElement(kind);
    let timer: unknown = undefined;
    const finish = (): void => {
      if (timer !== undefined) clock.clearTimeout(timer);
      player.oncanplay = null;
      const size = player instanceof HTMLVideoElement ? { width: player.videoWidth, height: player.videoHeight } : {};
      resolve({ loaded: true, ...size });
      // Tearing a player down takes the main thread milliseconds: in a task of its own, not in the
      // one that reports the media loaded (issue 14, long tasks while joining).
      clock.setTimeout(() => {
        player.pause();
        player.srcObject = null;
      }, 0);
    };
    player.muted = true;
    player.autoplay = true;
    if (player instanceof HTMLVideoElement) {
      player.playsInline = true;
      timer = clock.setTimeout(finish, timeoutMs);
    }
    player.oncanplay = finish;
    player.srcObject = stream;
  });
}
