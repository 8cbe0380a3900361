import { listInWords } from '../../common/listInWords';
import type { OwnCallMedia, Preferences } from '../../protocol/entities';
import type { DeviceTroubles } from './LocalCapture';
import type { LocalMediaState } from './localMediaState';

/**
 * What the call record should say of your own media, from what runs in the tab that runs the call
 * and why a device did not start there; undefined when it says so already. A microphone or camera
 * that does not run (yet) changes nothing of its state: a tab that has just taken the call over must
 * not overwrite the state it carries before capturing.
 */
export function ownMediaChange(known: OwnCallMedia, local: LocalMediaState, troubles: DeviceTroubles): Partial<OwnCallMedia> | undefined {
  const next: Partial<OwnCallMedia> = {
    sharingScreen: local.screenIds.length > 0,
    cameraTrouble: troubles.camera?.advice ?? '',
    microphoneTrouble: troubles.microphone?.advice ?? '',
  };
  if (local.microphone) Object.assign(next, { microphoneMuted: local.microphone.muted, microphoneStopped: local.microphone.stopped });
  if (local.camera) Object.assign(next, { cameraOff: local.camera.off, cameraStopped: local.camera.stopped });
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
