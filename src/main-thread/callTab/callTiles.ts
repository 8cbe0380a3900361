import type { Peer } from '../../protocol/entities';
import { isVoice, screenSoundOf, type MediaItem } from '../media';
import { localMediaState } from './localMediaState';

export type CallTileKind = 'camera' | 'screen';

/** One tile of the call grid: a person (their camera, or their picture while it is off) or a shared screen. */
export interface CallTile {
  /** Stable while the tile lives: the React key. */
  readonly key: string;
  readonly kind: CallTileKind;
  readonly isSelf: boolean;
  /** The person's occupant address; undefined for yourself before the room names you. */
  readonly peerAddress: string | undefined;
  readonly displayName: string;
  /** The video shown, while there is one and it is on. */
  readonly videoItemId: string | undefined;
  readonly mirrored: boolean;
  /** Played in the tile: on others' camera tiles, what we receive of the person's voice; on others' screens, the screen's sound. */
  readonly audioItemIds: readonly string[];
  /** A screen shared with its sound (a tab's, the system's): yours too, which you do not play. */
  readonly withSound: boolean;
  readonly muted: boolean;
  readonly speaking: boolean;
  /** Others' camera tiles: when the person last started speaking (SPEC §3 lastSpokeAt, theirs or our analysis of their audio). */
  readonly lastSpokeAt: number | undefined;
  /** Others' camera tiles: the person's volume limit (SPEC §3, default 0.8). */
  readonly volumeLimit: number | undefined;
}

/** A screen another person shares (yours you know): what the stage, the speaker view and the screen reader's news follow. */
export const isOthersScreen = (tile: CallTile): tile is CallTile & { peerAddress: string } => tile.kind === 'screen' && !tile.isSelf && tile.peerAddress !== undefined;

export interface CallTilesInput {
  /** The room's peers, yourself included (isSelf). */
  readonly peers: readonly Peer[];
  /** Every media item of the tab. */
  readonly items: readonly MediaItem[];
  /** Your name while the room has no self peer yet. */
  readonly selfDisplayName: string;
  /** Your microphone is on its way (its capture asked for): not muted, though it sends nothing yet. */
  readonly selfMicrophoneStarting?: boolean;
}

/**
 * The tiles of a call, in grid order: the others' shared screens first (the 3-tile layout gives the
 * first tile two rows), then the others in order of arrival, then yourself and last your own shared
 * screen (what you look at is the others, not what you share). Others appear while they are in
 * the call or send us media; their tile lights up while they speak — by their own announcement or
 * our analysis of their audio — and says muted when they muted every audio they send.
 */
export function callTiles({ peers, items, selfDisplayName, selfMicrophoneStarting = false }: CallTilesInput): CallTile[] {
  const self = peers.find((peer) => peer.isSelf);
  const selfName = self?.displayName ?? selfDisplayName;
  const local = localMediaState(items);
  const others = peers.filter((peer) => !peer.isSelf);
  const remote = items.filter((item) => item.source === 'remote');
  const screens: CallTile[] = [];
  const cameras: CallTile[] = [];

  for (const peer of others) {
    const own = remote.filter((item) => item.owner === peer.address);
    if (!peer.joinedCall && own.length === 0) continue;
    const audio = own.filter(isVoice);
    const camera = own.findLast((item) => item.kind === 'video' && !item.screenCapture);
    const screenVideos = own.filter((item) => item.kind === 'video' && item.screenCapture);
    const screenSounds = new Map(screenVideos.map((screen) => [screen.id, screenSoundOf(items, screen).map((sound) => sound.id)]));
    // A screen's sound whose screen is not (yet) here plays in the person's tile: never unheard.
    const placed = new Set([...screenSounds.values()].flat());
    const unplaced = own.filter((item) => item.kind === 'audio' && item.screenCapture && !placed.has(item.id));
    const audioMuted = audio.length > 0 && audio.every((item) => item.remoteDisabled);
    cameras.push({
      key: `camera:${peer.address}`,
      kind: 'camera',
      isSelf: false,
      peerAddress: peer.address,
      displayName: peer.displayName,
      videoItemId: camera && !camera.remoteDisabled ? camera.id : undefined,
      mirrored: false,
      audioItemIds: [...audio, ...unplaced].map((item) => item.id),
      withSound: false,
      muted: peer.muted || audioMuted,
      speaking: !audioMuted && (peer.speaking || audio.some((item) => item.speaking && !item.remoteDisabled)),
      lastSpokeAt: latest([peer.lastSpokeAt, ...audio.map((item) => item.lastSpokeAt)]),
      volumeLimit: peer.volumeLimit,
    });
    for (const screen of screenVideos) screens.push(screenTile(screen, screenSounds.get(screen.id) ?? [], peer.address, peer.displayName, false));
  }
  const ownScreens: CallTile[] = [];
  for (const id of local.screenIds) {
    const screen = items.find((item) => item.id === id);
    if (screen) ownScreens.push(screenTile(screen, screenSoundOf(items, screen).map((sound) => sound.id), self?.address, selfName, true));
  }

  const microphone = local.microphone;
  const camera = local.camera;
  const selfTile: CallTile = {
    key: 'camera:self',
    kind: 'camera',
    isSelf: true,
    peerAddress: self?.address,
    displayName: selfName,
    // Yourself as the others see and hear you: a camera or microphone the system stopped is off.
    videoItemId: camera && !camera.offForOthers ? camera.itemId : undefined,
    mirrored: camera?.mirrored ?? false,
    audioItemIds: [],
    withSound: false,
    muted: microphone ? microphone.offForOthers : !selfMicrophoneStarting,
    speaking: microphone !== undefined && !microphone.muted && microphone.speaking,
    lastSpokeAt: undefined,
    volumeLimit: undefined,
  };
  return [...screens, ...cameras, selfTile, ...ownScreens];
}

function screenTile(item: MediaItem, soundIds: readonly string[], peerAddress: string | undefined, displayName: string, isSelf: boolean): CallTile {
  return {
    key: `screen:${item.id}`,
    kind: 'screen',
    isSelf,
    peerAddress,
    displayName,
    videoItemId: item.localDisabled || item.remoteDisabled ? undefined : item.id,
    mirrored: false,
    audioItemIds: isSelf ? [] : soundIds,
    withSound: soundIds.length > 0,
    muted: false,
    speaking: false,
    lastSpokeAt: undefined,
    volumeLimit: undefined,
  };
}

function latest(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((time) => time !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
}
