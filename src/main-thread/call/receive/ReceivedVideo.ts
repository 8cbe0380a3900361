import type { createStore } from 'jotai';
import type { SimulcastProfile } from '../../../protocol/stanzas/talkyJingle';
import type { Clock } from '../../../common/clock';
import type { Logger } from '../../../common/logger';
import type { MediaItem, MediaItems, MediaKind } from '../../media';
import type { CallSession } from '../CallSession';
import type { CallSessions } from '../CallSessions';
import { describeProfile } from '../descriptionInfo';
import { DecodeWatch } from '../PathChange';
import { ReceivedPaths } from './ReceivedPaths';
import { CamerasByFrames } from './CamerasByFrames';
import { profileForTile, type TileNeed, type VideoSize } from './tileProfile';
import { errorMessage } from '../../../common/errorMessage';

type JotaiStore = ReturnType<typeof createStore>;

export interface ReceivedVideoOptions {
  readonly roomAddress: string;
  readonly store: JotaiStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly media: MediaItems;
  readonly sessions: CallSessions;
  /** The width relay senders capture at, by the config's tiers (relaySenderWidth). */
  readonly captureWidth: () => number;
  /** Whether a request a session sent reached its peer (JingleLink.delivered): false when it could not go. */
  readonly delivered: (request: object) => Promise<boolean> | undefined;
  /** Signalling reaches this person now: their Jingle mute can reach us (CamerasByFrames judges the others' frames). */
  readonly signallingReaches: (peerAddress: string) => boolean;
  /** Turns a received track into a media item (IncomingSessions). */
  readonly show: (call: CallSession, track: MediaStreamTrack, stream: MediaStream | undefined) => void;
}

/**
 * What the receiver sees of each sender's video, in one place:
 * - continuity across a path change (PathChange): a session that carries a stream another session
 *   of the same sender shows (the sender moving mesh ↔ relay) shows its media only once it decodes
 *   (DecodeWatch, within PATH_CHANGE.decodeWaitMs) and tells the sender so; its predecessors' media then goes. Should it end
 *   first, its predecessors show their media again;
 * - the layer each tile asks for (tileProfile): what the tile needs becomes the quality asked of
 *   the sender, and carries over to the session that takes over;
 * - how each received item arrives, and through the relay at which layer (ReceivedPaths);
 * - while signalling cannot reach a sender, their camera is shown off when its frames stop and on
 *   when they move again (CamerasByFrames), as their mute or unmute would show it; while it can, a
 *   camera on whose frames stop is a stall its tile tells of (ReceivedPath `framesStalled`).
 */
export class ReceivedVideo {
  private readonly paths: ReceivedPaths;
  private readonly camerasByFrames: CamerasByFrames;
  /** Remote videos: what the tile last needed (setTileNeed), carried to a session that takes over. */
  private readonly tileNeeds = new Map<string, TileNeed>();
  /**
   * Remote videos: the profile last asked of the sender, while its request is on its way or got
   * there. A request that could not go (signalling down, issue 13) is no longer recorded here, so
   * the tile's next need asks again.
   */
  private readonly askedProfiles = new Map<string, { readonly profile: SimulcastProfile }>();
  /** Remote videos: the profile last asked for, whether it got there or not; said again to a sender back after an outage (`catchUp`). */
  private readonly wantedProfiles = new Map<string, SimulcastProfile>();

  constructor(private readonly options: ReceivedVideoOptions) {
    this.paths = new ReceivedPaths(options.store, options.captureWidth);
    this.camerasByFrames = new CamerasByFrames(options.clock, options.media, options.sessions, options.signallingReaches, (itemId, stalled) =>
      this.paths.setFramesStalled(itemId, stalled),
    );
  }

  // ------------------------------------------------------------------------------------------
  // Continuity across a path change
  // ------------------------------------------------------------------------------------------

  /**
   * An accepted session's media is shown: at once, or — when it carries a stream another session
   * of the same sender shows — once it decodes, so the tile goes from the old track to the new one
   * without a gap.
   */
  accepted(call: CallSession): void {
    if (this.predecessorsOf(call).length === 0) {
      for (const { track, stream } of call.arrived.splice(0)) this.options.show(call, track, stream);
      return;
    }
    call.decodeWatch = new DecodeWatch(
      this.options.clock,
      () => call.tracks.flatMap(({ track }) => call.session.receiverOf(track) ?? []),
      (decoding) => this.takeOver(call, decoding),
    );
    if (call.session.connectionState === 'connected') call.decodeWatch.connected();
  }

  /** The session connected: a session waiting to take over starts its wait's limit. */
  connected(call: CallSession): void {
    call.decodeWatch?.connected();
  }

  /** A session ended: a wait of its own stops, and the sessions it had replaced (still running) show their media again. */
  ended(ended: CallSession): void {
    ended.decodeWatch?.cancel();
    const { sessions } = this.options;
    for (const call of sessions.all()) {
      if (call.supersededBy !== ended.sid) continue;
      call.supersededBy = undefined;
      for (const { track, stream } of call.tracks) if (track.readyState === 'live') this.options.show(call, track, stream);
    }
    // A session waiting to take over from the one that ended has nothing left to wait for.
    for (const call of sessions.all()) if (call.decodeWatch && this.predecessorsOf(call).length === 0) call.decodeWatch.finish();
  }

  /** Accepted sessions of the same sender whose media shows a stream `call` carries too. */
  private predecessorsOf(call: CallSession): CallSession[] {
    return this.options.sessions
      .all()
      .filter(
        (other) =>
          other !== call &&
          !other.sending &&
          other.accepted &&
          other.supersededBy === undefined &&
          other.peerAddress === call.peerAddress &&
          other.received.size > 0 &&
          [...other.streamIds].some((id) => call.streamIds.has(id)),
      );
  }

  /**
   * The new session's media replaces its predecessors' (which run on until their sender ends them);
   * the tile's need carries over. Seen decoding, the sender is told, so that it stops the old path.
   */
  private takeOver(call: CallSession, decoding: boolean): void {
    call.decodeWatch = undefined;
    const { media, sessions } = this.options;
    if (!sessions.isCurrent(call)) return;
    if (decoding) {
      call.queue.push('say-decoding', () => call.session.sayDecoding()).catch((error: unknown) => this.options.logger.info(`decoding not said on ${call.sid}: ${errorMessage(error)}`));
    }
    let carried: { need: TileNeed | undefined; profile: SimulcastProfile | undefined } | undefined;
    for (const old of this.predecessorsOf(call)) {
      const video = old.received.get('video');
      if (video !== undefined) carried = { need: this.tileNeeds.get(video), profile: this.wantedProfiles.get(video) };
      old.supersededBy = call.sid;
      for (const id of [...old.received.values()]) media.remove(id, false);
      old.received.clear();
      sessions.publish(old);
    }
    for (const { track, stream } of call.arrived.splice(0)) this.options.show(call, track, stream);
    const video = call.received.get('video');
    if (video === undefined || !carried) return;
    const carry = carried.need ? this.setTileNeed(video, carried.need) : carried.profile ? this.requestVideoProfile(video, carried.profile) : undefined;
    carry?.catch((error: unknown) => this.options.logger.error(`quality of ${video} not carried over: ${errorMessage(error)}`));
  }

  // ------------------------------------------------------------------------------------------
  // The layer a tile asks for
  // ------------------------------------------------------------------------------------------

  /**
   * Asks the sender of a remote video for a quality (PROTOCOL.md simulcast profile): on the mesh
   * `off` pauses it and anything else resumes it; through the relay it picks the simulcast layer.
   */
  async requestVideoProfile(mediaId: string, profile: SimulcastProfile): Promise<void> {
    const call = this.options.sessions.all().find((candidate) => candidate.received.get('video') === mediaId);
    if (!call) return;
    this.options.media.update(mediaId, { profile });
    const asked = { profile };
    this.askedProfiles.set(mediaId, asked);
    this.wantedProfiles.set(mediaId, profile);
    this.paths.setRequestedProfile(mediaId, profile);
    let delivered = false;
    try {
      const request = await call.queue.push('request-profile', () => call.session.sendDescriptionInfo(describeProfile(profile)));
      delivered = (await this.options.delivered(request)) ?? true;
    } finally {
      // Not sent (signalling down: JingleLink logged it) or refused: not asked, so the tile's next
      // need asks again, and a sender back after an outage hears it then (catchUp).
      if (!delivered && this.askedProfiles.get(mediaId) === asked) this.askedProfiles.delete(mediaId);
    }
  }

  /**
   * What a remote video's tile needs, as the UI measures it (rendered size, visibility, full
   * screen): asks the sender for the matching quality (tileProfile's thresholds: hidden → off,
   * small → low, large or full screen → high) whenever that changes.
   */
  setTileNeed(mediaId: string, need: TileNeed): Promise<void> {
    this.tileNeeds.set(mediaId, need);
    const profile = profileForTile(need, this.paths.senderWidth(mediaId));
    if (this.askedProfiles.get(mediaId)?.profile === profile) return Promise.resolve();
    return this.requestVideoProfile(mediaId, profile);
  }

  /**
   * Issue 13: people back after an outage are asked again for what each of their videos' tiles
   * last asked, on every accepted session of theirs: a request made while signalling was down never
   * reached them, and a tile whose need has not changed since does not ask again (a sender that
   * paused its video for a hidden tab would stay paused).
   */
  catchUp(peerAddresses: ReadonlySet<string>): void {
    for (const call of this.options.sessions.all()) {
      if (call.sending || !call.accepted || !peerAddresses.has(call.peerAddress)) continue;
      const video = call.received.get('video');
      const profile = video === undefined ? undefined : this.wantedProfiles.get(video);
      if (video === undefined || profile === undefined) continue;
      this.requestVideoProfile(video, profile).catch((error: unknown) => this.options.logger.error(`quality of ${video} not asked again: ${errorMessage(error)}`));
    }
  }

  // ------------------------------------------------------------------------------------------
  // How each item arrives
  // ------------------------------------------------------------------------------------------

  /** A received track became a media item. */
  added(item: MediaItem, call: CallSession, kind: MediaKind): void {
    this.paths.add({ mediaId: item.id, roomAddress: this.options.roomAddress, owner: call.peerAddress, kind, path: call.path, requestedProfile: item.profile });
  }

  /** A remote video shows frames of this size now, as the page's element reports it. */
  setFrameSize(mediaId: string, size: VideoSize): void {
    this.paths.setFrameSize(mediaId, size);
  }

  /** The sender said (Jingle mute or unmute) whether this received video is on: its word stands over frames seen stopping. */
  senderSaid(mediaId: string): void {
    this.camerasByFrames.forget(mediaId);
  }

  /** A received item is gone. */
  forget(item: MediaItem): void {
    if (item.source !== 'remote') return;
    this.paths.remove(item.id);
    this.camerasByFrames.forget(item.id);
    this.tileNeeds.delete(item.id);
    this.askedProfiles.delete(item.id);
    this.wantedProfiles.delete(item.id);
  }

  dispose(): void {
    this.paths.dispose();
    this.camerasByFrames.dispose();
  }
}
