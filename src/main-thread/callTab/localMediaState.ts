import { isVoice, offForOthers, type MediaItem } from '../media';

/** What this tab captures, as the controls show it. */
export interface LocalMediaState {
  /**
   * The microphone (not audio captured with a screen); muted while its track is disabled (the
   * person's word), stopped while the system gives it no sound (another app took it, a switch),
   * silent while what it delivers is no sound at all (its input lost: VoiceMonitors); off for the
   * others while muted or stopped (`offForOthers`).
   */
  readonly microphone:
    | { readonly itemId: string; readonly muted: boolean; readonly stopped: boolean; readonly offForOthers: boolean; readonly silent: boolean; readonly speaking: boolean }
    | undefined;
  /** The camera; off while its track is disabled (the person's word), stopped while the system gives it no frames, off for the others while either. */
  readonly camera: { readonly itemId: string; readonly off: boolean; readonly stopped: boolean; readonly offForOthers: boolean; readonly mirrored: boolean } | undefined;
  /** Screen capture video items, oldest first. */
  readonly screenIds: readonly string[];
}

/**
 * The local microphone, camera and screens among a tab's media items. Audio captured with a
 * screen is part of that share, not the microphone; of several microphones or cameras (one
 * replacing another) the newest counts.
 */
export function localMediaState(items: readonly MediaItem[]): LocalMediaState {
  const local = items.filter((item) => item.source === 'local');
  const screens = local.filter((item) => item.kind === 'video' && item.screenCapture);
  const microphone = local.findLast(isVoice);
  const camera = local.findLast((item) => item.kind === 'video' && !item.screenCapture);
  return {
    microphone: microphone && {
      itemId: microphone.id,
      muted: microphone.localDisabled,
      stopped: microphone.externalDisabled,
      offForOthers: offForOthers(microphone),
      silent: microphone.inputLost !== undefined,
      speaking: microphone.speaking,
    },
    camera: camera && { itemId: camera.id, off: camera.localDisabled, stopped: camera.externalDisabled, offForOthers: offForOthers(camera), mirrored: camera.renderMirrored },
    screenIds: screens.map((item) => item.id),
  };
}
