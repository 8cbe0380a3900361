import { VIDEO_RESOLUTION_TIERS, type VideoResolutionTier } from '../../protocol/constants';
import type { Logger } from '../../common/logger';
import { errorMessage } from '../../common/errorMessage';

/** Tiers keyed by threshold (ProviderConfig.videoResolutionTiers; SPEC §9 by default). */
export type VideoResolutionTiers = Readonly<Record<number, VideoResolutionTier>>;

/** What this tab sends: the inputs of the capture tier (below) and the bitrate budget (videoBitrate). */
export interface VideoSendLoad {
  /** Remote peers in our calls that request video. */
  readonly videoReceivingPeers: number;
  /** Local video items we share (camera and screen). */
  readonly sharedVideoStreams: number;
  /** Our video goes to the media relay instead of to each peer. */
  readonly relayInUse: boolean;
  /**
   * The relay is on its way to carrying our video (wanted, connecting or ingesting, no outage): the
   * mesh carries it meanwhile, for the seconds of a change of path.
   */
  readonly relayPending: boolean;
}

/**
 * The tier with the largest threshold ≤ count; below every threshold, the lowest one. Undefined
 * only for an empty table.
 */
export function selectResolutionTier(tiers: VideoResolutionTiers, count: number): VideoResolutionTier | undefined {
  const thresholds = Object.keys(tiers)
    .map(Number)
    .sort((a, b) => a - b);
  const lowest = thresholds[0];
  if (lowest === undefined) return undefined;
  const threshold = thresholds.filter((candidate) => candidate <= count).pop() ?? lowest;
  return tiers[threshold];
}

/** Through the relay every sender captures at the lowest threshold's (largest) tier, as SimpleWebRTC does. */
export function relayResolutionTier(tiers: VideoResolutionTiers = VIDEO_RESOLUTION_TIERS): VideoResolutionTier | undefined {
  return selectResolutionTier(tiers, Number.NEGATIVE_INFINITY);
}

/** Nothing sent yet: a preview, or a call with nobody receiving. */
export const NO_SEND_LOAD: VideoSendLoad = { videoReceivingPeers: 0, sharedVideoStreams: 0, relayInUse: false, relayPending: false };

/** A camera capture's constraints for a tier: ideals, so that a camera that cannot reach them still starts. */
export function cameraConstraintsFor(tier: VideoResolutionTier): MediaTrackConstraints {
  return { width: { ideal: tier.width }, height: { ideal: tier.height }, frameRate: { ideal: tier.frameRate } };
}

/**
 * The capture tier for what we send. In the mesh every receiving peer costs an encode and an
 * upload per shared video, so the count is peers × shared videos. Through the relay we upload
 * once, in simulcast, and the relay picks a layer per receiver (relayResolutionTier) — from the
 * moment the relay is on its way: a call moving to the relay changes the camera's size once, not
 * first to the mesh's tier for the new count and seconds later to the relay's (each change of
 * size reconfigures the camera's encoders, a keyframe at the new size for every receiver).
 */
export function captureResolutionTier(
  load: VideoSendLoad,
  tiers: VideoResolutionTiers = VIDEO_RESOLUTION_TIERS,
): VideoResolutionTier | undefined {
  if (load.relayInUse || load.relayPending) return relayResolutionTier(tiers);
  return selectResolutionTier(tiers, load.videoReceivingPeers * load.sharedVideoStreams);
}

type ResolutionSetting = 'width' | 'height' | 'frameRate';
const RESOLUTION_SETTINGS: readonly ResolutionSetting[] = ['width', 'height', 'frameRate'];

/** Equal within less than 1 (SPEC §5: a change is applied only when it differs by 1 or more). */
function nearlyEqual(value: number | undefined, target: number): boolean {
  return value !== undefined && Math.abs(value - target) < 1;
}

function requestedValue(constraint: ConstrainDouble | ConstrainULong | undefined): number[] {
  if (constraint === undefined) return [];
  if (typeof constraint === 'number') return [constraint];
  return [constraint.ideal, constraint.exact].filter((value): value is number => value !== undefined);
}

/**
 * Whether `setting` must be asked for again: not when the track already delivers the target, and
 * not when its constraints already ask for it (the browser has done what it can; asking again
 * would only restart the camera).
 */
function settingNeedsChange(
  settings: MediaTrackSettings,
  constraints: MediaTrackConstraints,
  setting: ResolutionSetting,
  target: number,
): boolean {
  if (nearlyEqual(settings[setting], target)) return false;
  return !requestedValue(constraints[setting]).some((value) => nearlyEqual(value, target));
}

/**
 * The constraints to apply to a camera track for a tier, or undefined when nothing needs to change.
 * Only settings the browser supports are included (getSupportedConstraints); the values are ideals.
 */
export function resolutionConstraintsFor(
  tier: VideoResolutionTier,
  track: Pick<MediaStreamTrack, 'getSettings' | 'getConstraints'>,
  supported: MediaTrackSupportedConstraints,
): MediaTrackConstraints | undefined {
  const applicable = RESOLUTION_SETTINGS.filter((setting) => supported[setting] === true);
  if (applicable.length === 0) return undefined;
  const settings = track.getSettings();
  const constraints = track.getConstraints();
  if (!applicable.some((setting) => settingNeedsChange(settings, constraints, setting, tier[setting]))) return undefined;
  return Object.fromEntries(applicable.map((setting) => [setting, { ideal: tier[setting] }]));
}

/**
 * Moves camera tracks to a tier (SPEC §9). Screen captures are not passed here: their size is the
 * screen's. Failures are logged ('Could not adjust video capture resolution:', SPEC §8), never
 * thrown. Run it through the capture OperationQueue so it never interleaves with a camera switch.
 */
export async function adjustVideoCaptureResolution(
  cameraTracks: readonly MediaStreamTrack[],
  tier: VideoResolutionTier,
  supported: MediaTrackSupportedConstraints,
  logger: Logger,
): Promise<void> {
  for (const track of cameraTracks) {
    if (track.readyState === 'ended') continue;
    const constraints = resolutionConstraintsFor(tier, track, supported);
    if (!constraints) continue;
    try {
      const before = track.getSettings();
      logger.info(`camera ${before.width ?? '?'}×${before.height ?? '?'} → ${tier.width}×${tier.height} at ${tier.frameRate} fps`);
      await track.applyConstraints(constraints);
      // Ideals never fail: a camera that cannot grow, or is held open by another capture (Chromium
      // keeps a shared device's format), resolves and stays as it was.
      const after = track.getSettings();
      if (after.width !== undefined && tier.width - after.width >= 1) {
        logger.info(`camera stays ${after.width}×${after.height ?? '?'}: the device cannot capture larger, or another capture holds it at that size`);
      }
    } catch (error) {
      logger.error(`Could not adjust video capture resolution: ${errorMessage(error)}`);
    }
  }
}
