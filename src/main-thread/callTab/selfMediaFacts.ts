import type { PeerMediaFacts } from '../../protocol/commands';
import type { Peer } from '../../protocol/entities';
import type { LocalMediaState } from './localMediaState';

/** The facts this tab reports about yourself, so that every tab's Participants list shows them. */
export type SelfMediaFacts = Pick<PeerMediaFacts, 'muted' | 'hasActiveCamera' | 'hasActiveMicrophone' | 'hasActiveScreenCapture'>;

/**
 * Yourself as others hear and see you: nothing outside the call; muted while no microphone is on,
 * and a camera or microphone the system stopped is off, as the others are told (`offForOthers`).
 */
export function selfMediaFacts(local: LocalMediaState, inCall: boolean): SelfMediaFacts {
  const { microphone, camera } = local;
  const microphoneOn = inCall && microphone !== undefined && !microphone.offForOthers;
  return {
    muted: inCall && !microphoneOn,
    hasActiveMicrophone: microphoneOn,
    hasActiveCamera: inCall && camera !== undefined && !camera.offForOthers,
    hasActiveScreenCapture: inCall && local.screenIds.length > 0,
  };
}

/** The facts of `next` that the peer record does not show yet; undefined when it shows them all. */
export function selfFactsChange(peer: Pick<Peer, keyof SelfMediaFacts>, next: SelfMediaFacts): Partial<SelfMediaFacts> | undefined {
  const change: Partial<SelfMediaFacts> = {};
  for (const key of Object.keys(next) as Array<keyof SelfMediaFacts>) if (peer[key] !== next[key]) change[key] = next[key];
  return Object.keys(change).length > 0 ? change : undefined;
}
