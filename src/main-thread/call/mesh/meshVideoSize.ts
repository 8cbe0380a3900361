import { SIMULCAST_LAYERS } from '../../../protocol/constants';
import type { SimulcastProfile } from '../../../protocol/stanzas/talkyJingle';
import type { VideoSize } from '../receive/tileProfile';
import type { ShareableMedia } from '../sessionPlan';

/** The box a video's frames are scaled down to fit in (Chromium's `scaleResolutionDownTo`). */
export interface VideoBox {
  readonly maxWidth: number;
  readonly maxHeight: number;
}

/** A video encoding with that box, which lib.dom does not type yet. */
export type SizedEncoding = RTCRtpEncodingParameters & { scaleResolutionDownTo?: VideoBox };

/**
 * The box a mesh camera video is sent in for a receiver's quality request: low and medium are the
 * relay's layers of the size a relay sender captures at (`relaySize`, 1280×720 by SPEC §9: 320×180
 * and 640×360), so a tile's request (tileProfile) means the same size on both paths, and a 4:3
 * camera fits the tile's 16:9 as a layer would; high is the whole capture (SPEC §9's mesh tier), and
 * so is off, which pauses the video instead.
 */
export function meshVideoBox(profile: SimulcastProfile, relaySize: VideoSize): VideoBox | undefined {
  const layer = SIMULCAST_LAYERS.find((candidate) => candidate.rid === profile);
  if (!layer || layer.scaleResolutionDownBy === 1) return undefined;
  return { maxWidth: Math.round(relaySize.width / layer.scaleResolutionDownBy), maxHeight: Math.round(relaySize.height / layer.scaleResolutionDownBy) };
}

/**
 * The encoding a mesh session starts its video with: a camera in the box MESH_VIDEO_SIZE's first
 * request would ask for, a screen share whole (its text is read at the size it was captured).
 */
export function meshVideoEncoding(item: ShareableMedia, box: VideoBox | undefined): SizedEncoding | undefined {
  if (!isCamera(item) || box === undefined) return undefined;
  return { scaleResolutionDownTo: box };
}

/** A camera's video: what the receiver's quality sizes (a screen share goes whole). */
export function isCamera(item: Pick<ShareableMedia, 'kind' | 'screenCapture'>): boolean {
  return item.kind === 'video' && !item.screenCapture;
}
