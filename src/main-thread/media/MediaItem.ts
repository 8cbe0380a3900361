import { MediaKindError } from './errors';

export type MediaKind = 'audio' | 'video';
export type MediaItemSource = 'local' | 'remote';
/** Simulcast profile a receiver asks for (PROTOCOL.md); `off` stops the video. */
export type VideoProfile = 'high' | 'medium' | 'low' | 'off';

/**
 * SPEC §3 Media item as a plain, structured-clonable record. The live MediaStreamTrack and
 * MediaStream are not clonable, so the record names them by id and MediaItems keeps them in a
 * side map (`getTrack`, `getStream`).
 */
export interface MediaItem {
  /** The track id for local media; the receiving side's own id for remote media. */
  readonly id: string;
  readonly kind: MediaKind;
  readonly source: MediaItemSource;
  /** Remote media: the owning peer's occupant address. */
  readonly owner: string | undefined;
  /** Remote media: the room it arrived in. */
  readonly roomAddress: string | undefined;
  /** SPEC `track`: the id of the live MediaStreamTrack. */
  readonly trackId: string;
  /** SPEC `stream`: the id of the live MediaStream. */
  readonly streamId: string;
  readonly name: string | undefined;
  /** Local media: offered to peers. */
  readonly shared: boolean;
  /** A screen capture, or audio captured with one (a tab's sound): part of that share, never a microphone. */
  readonly screenCapture: boolean;
  /** Disabled here: a muted microphone, a paused camera, or remote audio we silenced. */
  readonly localDisabled: boolean;
  /** Remote media the sender muted (Jingle mute). */
  readonly remoteDisabled: boolean;
  /** The track is muted by the browser or the system (no frames arrive). */
  readonly externalDisabled: boolean;
  readonly renderMirrored: boolean;
  readonly speaking: boolean;
  readonly inputDetected: boolean;
  /** When input was last lost (ms since epoch), undefined while input flows. */
  readonly inputLost: number | undefined;
  readonly lastSpokeAt: number | undefined;
  /** Level in dB; -Infinity until measured. */
  readonly volume: number;
  /** Remote video: the simulcast profile asked for (default low); undefined for audio. */
  readonly profile: VideoProfile | undefined;
  /** Local media: the id of the item this one takes over from once shared. */
  readonly replaces: string | undefined;
  readonly loaded: boolean;
  readonly width: number | undefined;
  readonly height: number | undefined;
  readonly createdAt: number;
}

/** Fields that change over an item's life; the rest are fixed when it is added. */
export type MediaItemChange = Partial<
  Pick<
    MediaItem,
    | 'name'
    | 'localDisabled'
    | 'remoteDisabled'
    | 'externalDisabled'
    | 'speaking'
    | 'inputDetected'
    | 'inputLost'
    | 'lastSpokeAt'
    | 'volume'
    | 'profile'
    | 'screenCapture'
    | 'loaded'
    | 'width'
    | 'height'
  >
>;

/** A person's voice: audio that is not a shared screen's sound. */
export function isVoice(item: Pick<MediaItem, 'kind' | 'screenCapture'>): boolean {
  return item.kind === 'audio' && !item.screenCapture;
}

/**
 * What the others are told of a local item: off while the person turned it off, and while the
 * system stopped a camera or microphone (another app took it, a privacy switch, a lid closed): no
 * frames or sound come then, so "off" is the truth to show them, not a stalled picture. A screen
 * keeps its share while its surface sends nothing: a still screen sends no frames either.
 */
export function offForOthers(item: Pick<MediaItem, 'localDisabled' | 'externalDisabled' | 'screenCapture'>): boolean {
  return item.localDisabled || (item.externalDisabled && !item.screenCapture);
}

/** A screen's sound among `items`, local or received: the audio captured with it (its owner's, its stream's). */
export function screenSoundOf(items: readonly MediaItem[], screen: MediaItem): MediaItem[] {
  return items.filter((item) => item.source === screen.source && item.owner === screen.owner && item.kind === 'audio' && item.screenCapture && item.streamId === screen.streamId);
}

/** SPEC §5: local audio must be an audio track and local video a video track. */
export function assertTrackKind(track: Pick<MediaStreamTrack, 'kind'>, expected: MediaKind): void {
  if (track.kind !== expected) throw new MediaKindError(expected, track.kind);
}
