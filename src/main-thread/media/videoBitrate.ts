import { TOTAL_VIDEO_BITRATE_BPS } from '../../protocol/constants';
import type { VideoSendLoad } from './videoResolution';

/**
 * The maximum bitrate for each video we send (SPEC §9): the total budget divided by the number of
 * video-receiving peers × shared video streams, with the peer count taken as 1 when the relay is
 * in use (we upload once). The division is by the real count — a known defect elsewhere divides by
 * min(…, 1), which never splits the budget. With nothing to divide (no receivers or no shared
 * video: a screen share may still go to audio-only peers) the whole budget applies.
 */
export function maxBitratePerVideo(load: VideoSendLoad): number {
  const receivers = load.relayInUse ? 1 : load.videoReceivingPeers;
  const outgoingVideos = receivers * load.sharedVideoStreams;
  return outgoingVideos > 0 ? Math.floor(TOTAL_VIDEO_BITRATE_BPS / outgoingVideos) : TOTAL_VIDEO_BITRATE_BPS;
}
