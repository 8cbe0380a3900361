import type { Clock } from '../../common/clock';
import { InvalidMutePropertyError } from './errors';
import { assertTrackKind, isVoice, offForOthers, screenSoundOf, type MediaItem, type MediaItemChange, type MediaKind } from './MediaItem';
import type { MediaLoadedInfo } from './mediaLoaded';
import { TypedEmitter } from '../../common/TypedEmitter';

export interface MediaItemsEvents {
  added: [item: MediaItem];
  updated: [item: MediaItem, previous: MediaItem];
  removed: [item: MediaItem];
  /**
   * A local item went off or on for the others (`offForOthers`: its track disabled or enabled, or a
   * camera or microphone stopped or given back by the system): the Call tells the peers of every
   * session that sends it (Jingle mute / unmute, SPEC §4).
   */
  localMuteChanged: [item: MediaItem, muted: boolean];
  /**
   * A local item's track was stopped while its item stays (a microphone let go before its successor
   * is asked for): whatever else holds that device open — a clone — is to let it go too.
   */
  trackStopped: [item: MediaItem];
}

export interface MediaItemsOptions {
  readonly clock: Clock;
  /**
   * Fills `loaded`, `width` and `height` once media plays (SPEC §9: video gives up after 500 ms).
   * In a tab: `(item, stream) => probeMediaLoaded(item.kind, stream, clock)`; absent in Node tests.
   * Must not reject.
   */
  readonly probeLoaded?: (item: MediaItem, stream: MediaStream) => Promise<MediaLoadedInfo>;
}

export interface LocalMediaOptions {
  /** The item this one takes over from when it is shared (a new camera replacing the old). */
  readonly replaces?: string;
  readonly name?: string;
}

export interface RemoteMediaDescription {
  readonly id: string;
  readonly track: MediaStreamTrack;
  readonly stream: MediaStream;
  readonly owner: string;
  readonly roomAddress: string;
  /** A screen, or audio that came in a screen's session (its sound). */
  readonly screenCapture: boolean;
  readonly name?: string;
  /** The owner is muted here already: their new audio starts silenced too. */
  readonly ownerMuted: boolean;
}

/** What a Jingle session receives: the ids of the media items its tracks became. */
export interface ReceivingMedia {
  readonly receivingAudioMediaId: string | undefined;
  readonly receivingVideoMediaId: string | undefined;
}

/** Peer fields SPEC §3 derives from a peer's remote media. */
export interface PeerMediaActivity {
  readonly hasActiveCamera: boolean;
  readonly hasActiveMicrophone: boolean;
  readonly hasActiveScreenCapture: boolean;
}

interface LiveMedia {
  readonly track: MediaStreamTrack;
  readonly stream: MediaStream;
  /** Detaches the track listeners when the item goes. */
  readonly listening: AbortController;
}

type StoredChange = MediaItemChange & Partial<Pick<MediaItem, 'shared' | 'replaces'>>;

/**
 * SPEC §3/§4 media items of this tab, local and remote: plain records (events carry them; the UI
 * mirrors them into atoms) with the live tracks and streams beside them.
 *
 * Rules (SPEC §4 Media):
 * - adding local media that replaces an unshared item removes that item at once, and inherits what
 *   it replaced (so "new camera replaces old camera" chains collapse to the shared one);
 * - sharing an item removes the item it replaces and marks it shared;
 * - unsharing marks it unshared and removes any local media that replaces it;
 * - a track that ends removes its item (unsharing it first);
 * - `localDisabled` drives `track.enabled`; for local media a change of what the others are told
 *   (`offForOthers`: turned off here, or a camera or microphone stopped by the system) is reported
 *   as `localMuteChanged`.
 */
export class MediaItems extends TypedEmitter<MediaItemsEvents> {
  private readonly items = new Map<string, MediaItem>();
  private readonly live = new Map<string, LiveMedia>();

  constructor(private readonly options: MediaItemsOptions) {
    super();
  }

  get(id: string): MediaItem | undefined {
    return this.items.get(id);
  }

  /** Every item, in the order added. */
  all(): MediaItem[] {
    return [...this.items.values()];
  }

  local(kind?: MediaKind): MediaItem[] {
    return this.all().filter((item) => item.source === 'local' && (!kind || item.kind === kind));
  }

  remote(kind?: MediaKind): MediaItem[] {
    return this.all().filter((item) => item.source === 'remote' && (!kind || item.kind === kind));
  }

  shared(): MediaItem[] {
    return this.all().filter((item) => item.source === 'local' && item.shared);
  }

  forPeer(owner: string, kind?: MediaKind): MediaItem[] {
    return this.remote(kind).filter((item) => item.owner === owner);
  }

  /** Whether the others are to be told the local item `id` is off (`offForOthers`). */
  isOffForOthers(id: string): boolean {
    const item = this.items.get(id);
    return item !== undefined && offForOthers(item);
  }

  getTrack(id: string): MediaStreamTrack | undefined {
    return this.live.get(id)?.track;
  }

  getStream(id: string): MediaStream | undefined {
    return this.live.get(id)?.stream;
  }

  /** Throws MediaKindError ('Incorrect media type. Expected audio, got: video') for a video track. */
  addLocalAudio(track: MediaStreamTrack, stream: MediaStream, options: LocalMediaOptions = {}): MediaItem {
    assertTrackKind(track, 'audio');
    return this.addLocal(track, stream, options, { renderMirrored: false, screenCapture: false });
  }

  /** The sound of a shared tab or of the system, captured with a screen (same stream): part of that share. */
  addLocalScreenAudio(track: MediaStreamTrack, stream: MediaStream, options: LocalMediaOptions = {}): MediaItem {
    assertTrackKind(track, 'audio');
    return this.addLocal(track, stream, options, { renderMirrored: false, screenCapture: true });
  }

  /** A camera: rendered mirrored unless told otherwise. Throws MediaKindError for an audio track. */
  addLocalVideo(
    track: MediaStreamTrack,
    stream: MediaStream,
    options: LocalMediaOptions & { readonly mirrored?: boolean } = {},
  ): MediaItem {
    assertTrackKind(track, 'video');
    return this.addLocal(track, stream, options, { renderMirrored: options.mirrored ?? true, screenCapture: false });
  }

  /** A screen capture: never mirrored; hinted as detail content unless a hint is set already. */
  addLocalScreen(track: MediaStreamTrack, stream: MediaStream, options: LocalMediaOptions = {}): MediaItem {
    assertTrackKind(track, 'video');
    // Encoders then keep text sharp and drop frame rate first.
    if (!track.contentHint) track.contentHint = 'detail';
    return this.addLocal(track, stream, options, { renderMirrored: false, screenCapture: true });
  }

  addRemoteMedia(description: RemoteMediaDescription): MediaItem {
    const { track } = description;
    const kind: MediaKind = track.kind === 'audio' ? 'audio' : 'video';
    const item: MediaItem = {
      ...this.baseFields(track, description.stream),
      id: description.id,
      kind,
      source: 'remote',
      owner: description.owner,
      roomAddress: description.roomAddress,
      name: description.name,
      screenCapture: description.screenCapture,
      localDisabled: description.ownerMuted && kind === 'audio',
      renderMirrored: false,
      profile: kind === 'video' ? 'low' : undefined,
      replaces: undefined,
    };
    this.insert(item, track, description.stream);
    return item;
  }

  /** Applies a change; returns the new record, or undefined when there is no such item. */
  update(id: string, change: MediaItemChange): MediaItem | undefined {
    return this.write(id, change);
  }

  /** SPEC §4: mutes (disables the track) or unmutes a local item. */
  setLocalDisabled(id: string, disabled: boolean): MediaItem | undefined {
    return this.write(id, { localDisabled: disabled });
  }

  /** Mutes every local microphone (a shared screen's sound is not one). */
  muteSelf(): void {
    for (const item of this.local().filter(isVoice)) this.setLocalDisabled(item.id, true);
  }

  unmuteSelf(): void {
    for (const item of this.local().filter(isVoice)) this.setLocalDisabled(item.id, false);
  }

  /** Pauses local video; screen captures too unless `includeScreens` is false. */
  pauseVideo(includeScreens = true): void {
    for (const item of this.local('video')) if (includeScreens || !item.screenCapture) this.setLocalDisabled(item.id, true);
  }

  resumeVideo(includeScreens = true): void {
    for (const item of this.local('video')) if (includeScreens || !item.screenCapture) this.setLocalDisabled(item.id, false);
  }

  /**
   * A peer's Jingle mute / unmute for one of our receiving sessions. `property` is the `name` the
   * peer sent: 'audio' or 'video'; anything else throws InvalidMutePropertyError ('Invalid mute
   * property', SPEC §8).
   */
  setRemoteMuted(receiving: ReceivingMedia, property: string, muted: boolean): MediaItem | undefined {
    let id: string | undefined;
    if (property === 'audio') id = receiving.receivingAudioMediaId;
    else if (property === 'video') id = receiving.receivingVideoMediaId;
    else throw new InvalidMutePropertyError();
    return id === undefined ? undefined : this.write(id, { remoteDisabled: muted });
  }

  /** SPEC §4: shares a local item, removing the item it replaces. */
  share(id: string): MediaItem | undefined {
    const item = this.items.get(id);
    if (!item || item.source !== 'local') return undefined;
    if (item.replaces !== undefined) {
      const replaced = item.replaces;
      // Take over first: removing the replaced item unshares it, and unsharing removes whatever
      // still replaces it — which must not be this item.
      this.write(id, { replaces: undefined });
      this.remove(replaced);
    }
    return this.write(id, { shared: true });
  }

  /**
   * SPEC §4: stops offering a local item (it stays, to be shared again) and removes the local media
   * that replaces it. (SimpleWebRTC 1.30.3 removes the unshared item itself instead when something
   * replaces it; the spec's rule is the one kept here.)
   */
  unshare(id: string): MediaItem | undefined {
    const item = this.write(id, { shared: false });
    for (const replacement of this.local().filter((candidate) => candidate.replaces === id)) this.remove(replacement.id);
    return item;
  }

  /** Stops the track of item `id` and keeps the item (until its successor takes its place); its followers are told (`trackStopped`). */
  stopTrack(id: string): void {
    const item = this.items.get(id);
    const live = this.live.get(id);
    if (!item || !live) return;
    live.track.stop();
    this.emit('trackStopped', item);
  }

  /**
   * Removes an item, unsharing it first; stops its track unless `endTrack` is false. A local screen
   * takes the sound captured with it (its stream's screen audio) along, however the screen ended.
   */
  remove(id: string, endTrack = true): void {
    const item = this.items.get(id);
    if (!item) return;
    if (item.shared) this.unshare(id);
    const live = this.live.get(id);
    this.items.delete(id);
    this.live.delete(id);
    live?.listening.abort();
    if (endTrack) live?.track.stop();
    this.emit('removed', item);
    if (item.source === 'local' && item.kind === 'video' && item.screenCapture) for (const sound of screenSoundOf(this.all(), item)) this.remove(sound.id);
  }

  /** Removes every local item, or those of one kind. */
  removeAllLocal(kind?: MediaKind): void {
    for (const item of this.local(kind)) this.remove(item.id);
  }

  /** SPEC §3 peer fields from that peer's media the sender has not muted. */
  peerActivity(owner: string): PeerMediaActivity {
    const active = this.forPeer(owner).filter((item) => !item.remoteDisabled);
    return {
      hasActiveMicrophone: active.some(isVoice),
      hasActiveCamera: active.some((item) => item.kind === 'video' && !item.screenCapture),
      hasActiveScreenCapture: active.some((item) => item.kind === 'video' && item.screenCapture),
    };
  }

  private addLocal(
    track: MediaStreamTrack,
    stream: MediaStream,
    options: LocalMediaOptions,
    look: Pick<MediaItem, 'renderMirrored' | 'screenCapture'>,
  ): MediaItem {
    let replaces = options.replaces;
    const replaced = replaces === undefined ? undefined : this.items.get(replaces);
    if (replaced && !replaced.shared) {
      // An unshared item being replaced was never offered: drop it now, and take over its place.
      this.remove(replaced.id);
      replaces = replaced.replaces;
    }
    const item: MediaItem = {
      ...this.baseFields(track, stream),
      ...look,
      id: track.id,
      kind: track.kind === 'audio' ? 'audio' : 'video',
      source: 'local',
      owner: undefined,
      roomAddress: undefined,
      name: options.name,
      localDisabled: !track.enabled,
      profile: undefined,
      replaces,
    };
    this.insert(item, track, stream);
    return item;
  }

  private baseFields(track: MediaStreamTrack, stream: MediaStream) {
    return {
      trackId: track.id,
      streamId: stream.id,
      shared: false,
      remoteDisabled: false,
      externalDisabled: track.muted,
      speaking: false,
      inputDetected: false,
      inputLost: undefined,
      lastSpokeAt: undefined,
      volume: -Infinity,
      loaded: false,
      width: undefined,
      height: undefined,
      createdAt: this.options.clock.now(),
    };
  }

  private insert(item: MediaItem, track: MediaStreamTrack, stream: MediaStream): void {
    if (this.items.has(item.id)) this.remove(item.id, false);
    const listening = new AbortController();
    const { signal } = listening;
    track.addEventListener('ended', () => this.remove(item.id, false), { signal });
    track.addEventListener('mute', () => this.write(item.id, { externalDisabled: true }), { signal });
    track.addEventListener('unmute', () => this.write(item.id, { externalDisabled: false }), { signal });
    if (track.enabled === item.localDisabled) track.enabled = !item.localDisabled;
    this.items.set(item.id, item);
    this.live.set(item.id, { track, stream, listening });
    this.emit('added', item);
    void this.options.probeLoaded?.(item, stream).then((info) => {
      if (this.live.get(item.id)?.track === track) this.write(item.id, info);
    });
  }

  private write(id: string, change: StoredChange): MediaItem | undefined {
    const previous = this.items.get(id);
    if (!previous) return undefined;
    // Level meters write many times a second: a write that changes nothing is not an update.
    const keys = Object.keys(change) as Array<keyof StoredChange>;
    if (keys.every((key) => Object.is(previous[key], change[key]))) return previous;
    const item: MediaItem = { ...previous, ...change };
    this.items.set(id, item);
    const track = this.live.get(id)?.track;
    if (track && track.enabled === item.localDisabled) track.enabled = !item.localDisabled;
    this.emit('updated', item, previous);
    if (item.source === 'local' && offForOthers(item) !== offForOthers(previous)) {
      this.emit('localMuteChanged', item, offForOthers(item));
    }
    return item;
  }
}
