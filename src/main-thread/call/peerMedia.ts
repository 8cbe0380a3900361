import type { Peer } from '../../protocol/entities';
import type { MediaItem, PeerMediaActivity } from '../media';

/** Peer fields that only the tab running the call knows; the worker merges them into the Peer record. */
export type PeerMediaFacts = Pick<Peer, 'muted' | 'hasActiveCamera' | 'hasActiveMicrophone' | 'hasActiveScreenCapture' | 'sessionFailed'>;
export type PeerMediaChange = Partial<PeerMediaFacts>;

/**
 * A peer's facts from the media we receive from it: `muted` when it sends audio and has muted all
 * of it (Jingle mute); the has-active fields as MediaItems derives them.
 */
export function peerMediaFacts(activity: PeerMediaActivity, received: readonly MediaItem[], sessionFailed: boolean): PeerMediaFacts {
  const audio = received.filter((item) => item.kind === 'audio');
  return {
    ...activity,
    muted: audio.length > 0 && audio.every((item) => item.remoteDisabled),
    sessionFailed,
  };
}

/** The fields of `next` that differ from what the peer record shows; undefined when none do. */
export function peerMediaChange(current: PeerMediaFacts, next: PeerMediaFacts): PeerMediaChange | undefined {
  const change: PeerMediaChange = {};
  for (const key of Object.keys(next) as (keyof PeerMediaFacts)[]) if (current[key] !== next[key]) change[key] = next[key];
  return Object.keys(change).length > 0 ? change : undefined;
}
