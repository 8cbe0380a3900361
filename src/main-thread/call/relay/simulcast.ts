import type { RtpEncodingParameters } from 'mediasoup-client/types';
import { SIMULCAST_LAYERS } from '../../../protocol/constants';

/** Pixels per layer relative to the smallest: scale 4 → 1, 2 → 4, 1 → 16. */
const LAYER_WEIGHTS = SIMULCAST_LAYERS.map((layer) => (4 / layer.scaleResolutionDownBy) ** 2);
const TOTAL_WEIGHT = LAYER_WEIGHTS.reduce((sum, weight) => sum + weight, 0);

/**
 * The camera's simulcast encodings (SPEC §9: low / medium / high at scale 4 / 2 / 1). A budget
 * (SPEC §9, counting 1 peer with the relay) is shared by pixel count, about what an encoder
 * spends per layer: 1.8 Mb/s gives ~86 kb/s, ~343 kb/s and ~1.37 Mb/s. Layers above
 * `highestWanted` (LAYERS_WANTED) are inactive; all are active while it is not known.
 */
export function cameraEncodings(maxBitrate: number | undefined, highestWanted?: number): RtpEncodingParameters[] {
  return SIMULCAST_LAYERS.map((layer, index) => ({
    rid: layer.rid,
    scaleResolutionDownBy: layer.scaleResolutionDownBy,
    active: highestWanted === undefined || index <= highestWanted,
    ...(maxBitrate === undefined ? {} : { maxBitrate: Math.floor((maxBitrate * (LAYER_WEIGHTS[index] ?? 0)) / TOTAL_WEIGHT) }),
  }));
}

/** A screen share is not simulcast (DESIGN "Media paths"): one encoding with the whole budget. */
export function screenEncodings(maxBitrate: number | undefined): RtpEncodingParameters[] {
  return [maxBitrate === undefined ? {} : { maxBitrate }];
}
