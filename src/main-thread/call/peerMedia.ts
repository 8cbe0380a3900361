import type { PeerMediaChange, PeerMediaFacts } from '../../protocol/commands';
import { isVoice, type MediaItem, type PeerMediaActivity } from '../media';

export type { PeerMediaChange, PeerMediaFacts };

/**
 * A peer's facts from the media we receive from it: `muted` when it sends its voice and has muted all
 * of it (Jingle mute; a shared screen's sound is not its voice), and while none of it arrives, what
 * it was (`mutedWithoutAudio`), so a person whose session is being replaced never shows as live in
 * between; the has-active fields as MediaItems derives them.
 */
export function peerMediaFacts(activity: PeerMediaActivity, received: readonly MediaItem[], sessionFailed: boolean, mutedWithoutAudio = false): PeerMediaFacts {
  const audio = received.filter(isVoice);
  return {
    ...activity,
    muted: audio.length > 0 ? audio.every((item) => item.remoteDisabled) : mutedWithoutAudio,
    sessionFailed,
  };
}

/** The fields of `next` that differ from what the peer record shows; undefined when none do. */
export function peerMediaChange(current: PeerMediaFacts, next: PeerMediaFacts): PeerMediaChange | undefined {
  const change: PeerMediaChange = {};
  for (const key of Object.keys(next) as (keyof PeerMediaFacts)[]) if (current[key] !== next[key]) change[key] = next[key];
  return Object.keys(change).length > 0 ? change : undefined;
}
