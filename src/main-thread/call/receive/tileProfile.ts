import { LAYER_UPSCALE_LIMIT } from '../../../protocol/clientDefaults';
import { VIDEO_RESOLUTION_TIERS } from '../../../protocol/constants';
import type { ConsumerProfile } from '../../../protocol/relay';
import { relayResolutionTier, type VideoResolutionTiers } from '../../media';

/** What a tile needs of the remote video it shows, as the UI measures it. */
export interface TileNeed {
  /** On screen: the tile intersects the viewport and the page is visible. */
  readonly visible: boolean;
  /** Rendered size in CSS pixels. */
  readonly width: number;
  readonly height: number;
  /** The tile is shown full screen (or as the stage's one large tile): always the best layer. */
  readonly fullScreen?: boolean;
  /** window.devicePixelRatio (1 when absent). */
  readonly pixelRatio?: number;
}

/** A frame size in pixels. */
export interface VideoSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The size a relay sender captures at: the config's relay capture tier (relayResolutionTier);
 * 1280×720 for an empty table, as for SPEC §9's tiers.
 */
export function relaySenderSize(tiers: VideoResolutionTiers = VIDEO_RESOLUTION_TIERS): VideoSize {
  const tier = relayResolutionTier(tiers);
  return tier ? { width: tier.width, height: tier.height } : { width: 1280, height: 720 };
}

/** The sender's width when no frame of its high layer has been seen yet: relaySenderSize's. */
export function relaySenderWidth(tiers: VideoResolutionTiers = VIDEO_RESOLUTION_TIERS): number {
  return relaySenderSize(tiers).width;
}

/** relaySenderWidth with SPEC §9's tiers: 1280 px. */
export const DEFAULT_SENDER_WIDTH = relaySenderWidth();

const ASPECT = 16 / 9;

/**
 * The quality a tile asks its sender for (PROTOCOL.md simulcast profile). Relay layers are the
 * sender's width W / 4 (low), / 2 (medium) and W (high); the tile needs the video width that fills
 * it (its width, or its height × 16:9 when that is wider) in device pixels, and gets the smallest
 * layer that covers it within LAYER_UPSCALE_LIMIT:
 *   hidden or empty → off; full screen → high;
 *   needed ≤ 1.5 × W/4 → low  (W = 1280: tiles up to 480 px);
 *   needed ≤ 1.5 × W/2 → medium (up to 960 px);
 *   otherwise high.
 * On the mesh only off / not off matters (off pauses the sender's video to us).
 */
export function profileForTile(need: TileNeed, senderWidth: number = DEFAULT_SENDER_WIDTH): ConsumerProfile {
  if (!need.visible) return 'off';
  if (need.fullScreen) return 'high';
  if (need.width <= 0 || need.height <= 0) return 'off';
  const needed = Math.max(need.width, need.height * ASPECT) * (need.pixelRatio ?? 1);
  const width = senderWidth > 0 ? senderWidth : DEFAULT_SENDER_WIDTH;
  if (needed <= (LAYER_UPSCALE_LIMIT * width) / 4) return 'low';
  if (needed <= (LAYER_UPSCALE_LIMIT * width) / 2) return 'medium';
  return 'high';
}
