import { listInWords } from '../../common/listInWords';
import type { OwnCallMedia, Preferences } from '../../protocol/entities';
import type { DeviceTroubles, WantedDevices } from './LocalCapture';
import type { LocalMediaState } from './localMediaState';

/**
 * What the call record should say of your own media, from what runs in the tab that runs the call,
 * what the person wants on of what does not run, and why a device did not start there; undefined
 * when it says so already. A microphone or camera that does not run is muted / off unless the person
 * wants it on: joined with both left off, a tab taking the call over (or the page after a reload)
 * must not turn them on. A tab that has just taken the call over wants what the record carries, so
 * it does not overwrite it before capturing.
 */
export function ownMediaChange(known: OwnCallMedia, local: LocalMediaState, troubles: DeviceTroubles, wanted: WantedDevices): Partial<OwnCallMedia> | undefined {
  const next: Partial<OwnCallMedia> = {
    sharingScreen: local.screenIds.length > 0,
    cameraTrouble: troubles.camera?.advice ?? '',
    microphoneTrouble: troubles.microphone?.advice ?? '',
    microphoneMuted: local.microphone ? local.microphone.muted : !wanted.microphone,
    cameraOff: local.camera ? local.camera.off : !wanted.camera,
  };
  if (local.microphone) next.microphoneStopped = local.microphone.stopped;
  if (local.camera) next.cameraStopped = local.camera.stopped;
  const changed = Object.entries(next).filter(([key, value]) => value !== known[key as keyof OwnCallMedia]);
  return changed.length > 0 ? (Object.fromEntries(changed) as Partial<OwnCallMedia>) : undefined;
}

/** The call came to this tab from another of yours (issue 13): what it carried, for the notice. */
export interface CallHandover {
  /** Another tab ran the call (it closed, crashed or went away); false: this tab was reloaded in the call. */
  readonly moved: boolean;
  readonly microphoneMuted: boolean;
  readonly cameraOff: boolean;
  /** A screen share ran: the browser needs a click to share again. */
  readonly screenShareEnded: boolean;
}

/** The notice in plain words, e.g. "Your call moved to this tab — you're muted and your camera is off." */
export function handoverMessage(handover: CallHandover, preferences: Pick<Preferences, 'pushToTalk' | 'globalVolumeLimit'>): string {
  const states = [
    preferences.pushToTalk ? 'push-to-talk is on (hold Space or "Hold to talk" to talk)' : handover.microphoneMuted ? "you're muted" : "your microphone is on",
    handover.cameraOff ? 'your camera is off' : 'your camera is on',
  ];
  if (preferences.globalVolumeLimit === 0) states.push("you can't hear the others (deafened)");
  const listed = listInWords(states);
  const lead = handover.moved ? 'Your call moved to this tab' : "You're back in the call";
  const screen = handover.screenShareEnded ? ' Your screen share stopped; share it again if you still want to.' : '';
  return `${lead} — ${listed}.${screen}`;
}
