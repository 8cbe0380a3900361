import type { createStore } from 'jotai';
import type { Stanzas } from 'stanza';
import { SessionManager, type Session as BaseSession } from 'stanza/jingle';
import type { MediaSessionOpts } from 'stanza/jingle/MediaSession';
import { NS_JINGLE_RTP_1 } from 'stanza/Namespaces';
import type { JingleReasonCondition } from 'stanza/Constants';
import type { SfuServerConfig } from '../../protocol/config';
import type { Peer } from '../../protocol/entities';
import type { SimulcastProfile } from '../../protocol/stanzas/talkyJingle';
import { roomByAddress } from '../../protocol/roomLookup';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { TypedEmitter } from '../../common/TypedEmitter';
import {
  InvalidMutePropertyError,
  maxBitratePerVideo,
  type MediaItem,
  type MediaItems,
  type MediaKind,
  type VideoSendLoad,
} from '../media';
import { MediaRelay } from '../relay/MediaRelay';
import { PathHandover } from '../relay/PathHandover';
import { ReceivedPaths } from '../relay/ReceivedPaths';
import { RelayDecision } from '../relay/RelayDecision';
import { offersIceLite } from '../relay/relayJingle';
import { profileForTile, relaySenderWidth, type TileNeed } from '../relay/tileProfile';
import { connectionAtom, sessionStateAtom } from '../sessionAtoms';
import { connectionsAtom } from './callAtoms';
import { CallOwnership, type CallLocks } from './CallOwnership';
import { CallSession } from './CallSession';
import type { CallSignaling } from './CallSignaling';
import { describeProfile, describeTracks, sendsVideo, type MediaDescription } from './descriptionInfo';
import { CallEngineClosedError, CallUnsupportedError, SessionFailedError } from './errors';
import { FrameWatch } from './FrameWatch';
import { JingleLink } from './JingleLink';
import { ParleyMediaSession } from './ParleyMediaSession';
import { peerMediaChange, peerMediaFacts, type PeerMediaChange, type PeerMediaFacts } from './peerMedia';
import { SessionTimers } from './SessionTimers';
import { compareSessionMedia, planOutgoingSessions, videoSendCounts, type PlannedSession, type ShareableMedia } from './sessionPlan';
import { endsAtOnce, isInterrupted, terminationOutcome } from './termination';

type JotaiStore = ReturnType<typeof createStore>;

export interface CallEngineOptions {
  readonly roomAddress: string;
  /** The tab's store: the mirrored session state is read from it, connections written to it. */
  readonly store: JotaiStore;
  readonly signaling: CallSignaling;
  /** The tab's media items: local ones are sent, remote ones are added here. */
  readonly media: MediaItems;
  /** From the provider config (SPEC §3). */
  readonly iceServers: readonly RTCIceServer[];
  readonly clock: Clock;
  readonly logger: Logger;
  /** navigator.locks: the call lock (one tab per room runs the call). */
  readonly locks: CallLocks;
  /** Tells the shared session peer facts other tabs show (muted, active media, sessionFailed). */
  readonly reportPeerMedia: (peerAddress: string, change: PeerMediaChange) => Promise<void>;
  /** Creates each session's RTCPeerConnection; the browser's by default (tests pass a fake). */
  readonly createPeerConnection?: (configuration: RTCConfiguration) => RTCPeerConnection;
  /**
   * Whether SPEC §4's switch may move what we send to the config's sfuServer (default true; a
   * config without sfuServer means mesh only anyway). Tests of the mesh itself pass false.
   */
  readonly mediaRelay?: boolean;
}

export interface CallEngineEvents {
  /** A session ended with an error condition (already logged; the peer is flagged). */
  sessionFailed: [error: SessionFailedError];
  /** What we send changed: the capture resolution tier follows it (media's captureResolutionTier). */
  sendLoad: [load: VideoSendLoad];
}

/** StanzaJS passes incoming-session options untyped; these are the fields it sets (SessionManager.process). */
type IncomingSessionOptions = MediaSessionOpts & { applicationTypes: string[] };
/** The session-initiate StanzaJS hands prepareSession beside the options. */
type IncomingRequest = { jingle?: Pick<Stanzas.Jingle, 'contents'> } | undefined;

function factsOf(peer: Peer): PeerMediaFacts {
  const { muted, hasActiveCamera, hasActiveMicrophone, hasActiveScreenCapture, sessionFailed } = peer;
  return { muted, hasActiveCamera, hasActiveMicrophone, hasActiveScreenCapture, sessionFailed };
}

function shareable(item: MediaItem): ShareableMedia {
  return { id: item.id, kind: item.kind, streamId: item.streamId, screenCapture: item.screenCapture };
}

/**
 * The mesh call of one room, run by the one tab that owns it (PROTOCOL.md "Jingle", SPEC §4):
 * one-way Jingle sessions, one per (remote peer, shared local stream), initiated by the sender;
 * incoming sessions accepted while this tab is in the call. Whenever the mirrored room state or
 * the local media change, the sessions are recomputed: new joiners get sessions, peers who left
 * lose theirs, changed media is swapped or renegotiated by a new session.
 *
 * The media relay (DESIGN "Media paths") is part of the same recompute: RelayDecision turns
 * SPEC §4's switch, MediaRelay ingests and asks for consumers and says which deliveries the mesh
 * must still carry, and PathHandover keeps the old path until the new one is established. A
 * received session that carries a stream another session shows takes over once its frames arrive.
 */
export class CallEngine extends TypedEmitter<CallEngineEvents> {
  private readonly manager: SessionManager;
  private readonly link: JingleLink;
  private readonly ownership: CallOwnership;
  private readonly timers: SessionTimers;
  /** Every session by sid. */
  private readonly sessions = new Map<string, CallSession>();
  /** Outgoing sessions by plan key. */
  private readonly outgoing = new Map<string, CallSession>();
  /** Peers whose last session failed, until one connects again (Peer.sessionFailed). */
  private readonly failedPeers = new Set<string>();
  /** What was last reported per peer, so each change is sent once. */
  private readonly reported = new Map<string, PeerMediaFacts>();
  private readonly unsubscribes: (() => void)[] = [];
  private readonly decision: RelayDecision;
  private readonly handover: PathHandover;
  private readonly relay: MediaRelay | undefined;
  private readonly receivedPaths: ReceivedPaths;
  /** Remote videos: what the tile last needed (setTileNeed), carried to a session that takes over. */
  private readonly tileNeeds = new Map<string, TileNeed>();
  /** Remote videos: the profile last asked of the sender. */
  private readonly askedProfiles = new Map<string, SimulcastProfile>();
  private bitrate: number | undefined;
  private load: VideoSendLoad | undefined;
  private scheduled = false;
  private started = false;
  private closed = false;

  constructor(private readonly options: CallEngineOptions) {
    super();
    this.ownership = new CallOwnership(options.roomAddress, options.locks);
    this.timers = new SessionTimers(options.clock);
    const create = options.createPeerConnection;
    this.manager = new SessionManager({
      iceServers: [...options.iceServers],
      // PROTOCOL.md: one-way sessions never collide, so there is no tie-break.
      performTieBreak: () => false,
      prepareSession: (meta: IncomingSessionOptions, request?: IncomingRequest) => this.prepareIncoming(meta, request),
      ...(create ? { createPeerConnection: (_session: BaseSession, configuration?: RTCConfiguration) => create(configuration ?? {}) } : {}),
    });
    this.link = new JingleLink(this.manager, options.signaling, options.logger);
    this.decision = new RelayDecision(options.clock);
    this.handover = new PathHandover(options.clock);
    this.receivedPaths = new ReceivedPaths(options.store, options.clock, () => relaySenderWidth(options.store.get(connectionAtom).callConfig?.videoResolutionTiers));
    this.relay =
      options.mediaRelay === false
        ? undefined
        : new MediaRelay({
            roomAddress: options.roomAddress,
            store: options.store,
            manager: this.manager,
            signaling: options.signaling,
            media: options.media,
            clock: options.clock,
            logger: options.logger,
            handover: this.handover,
            iceServers: options.iceServers,
            sfuServer: () => this.sfuServer(),
          });
    this.listen();
  }

  get roomAddress(): string {
    return this.options.roomAddress;
  }

  /**
   * Takes the room's call lock (waiting while another tab of this browser runs the call), claims
   * the call's Jingle traffic and starts following the room. Resolves once running, or at once
   * when closed first.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (!this.options.createPeerConnection && typeof RTCPeerConnection !== 'function') throw new CallUnsupportedError('RTCPeerConnection');
    if (!(await this.ownership.acquire()) || this.closed) return;
    await this.options.signaling.claimCall(this.roomAddress, (iq) => this.link.receive(iq));
    if (this.closed) return;
    const { store, media } = this.options;
    this.unsubscribes.push(
      store.sub(sessionStateAtom, () => this.schedule()),
      media.on('added', () => this.schedule()),
      media.on('removed', () => this.schedule()),
      media.on('updated', (item, previous) => {
        // What the sessions carry, and what peers' records say of their media (reportPeers: a screen mark arrives in description-info).
        if (item.shared !== previous.shared || item.remoteDisabled !== previous.remoteDisabled || item.name !== previous.name || item.screenCapture !== previous.screenCapture) this.schedule();
      }),
      media.on('localMuteChanged', (item, muted) => this.signalLocalMute(item, muted)),
      media.on('removed', (item) => this.forgetReceived(item)),
      this.decision.on('change', () => this.schedule()),
      this.handover.on('settled', () => this.schedule()),
      ...(this.relay ? [this.relay.on('changed', () => this.schedule())] : []),
    );
    this.reconcile();
  }

  /** Ends every session and gives the call up (another tab may take it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    await this.relay?.close();
    for (const call of [...this.sessions.values()]) this.end(call, 'success');
    this.timers.clear();
    this.decision.dispose();
    this.handover.clear();
    this.receivedPaths.dispose();
    this.ownership.release();
    await this.options.signaling.releaseCall(this.roomAddress);
  }

  /**
   * Asks the sender of a remote video for a quality (PROTOCOL.md simulcast profile): on the mesh
   * `off` pauses it and anything else resumes it; through the relay it picks the simulcast layer.
   */
  requestVideoProfile(mediaId: string, profile: SimulcastProfile): Promise<void> {
    if (this.closed) return Promise.reject(new CallEngineClosedError(this.roomAddress));
    const call = [...this.sessions.values()].find((candidate) => candidate.received.get('video') === mediaId);
    if (!call) return Promise.resolve();
    this.options.media.update(mediaId, { profile });
    this.askedProfiles.set(mediaId, profile);
    this.receivedPaths.setRequestedProfile(mediaId, profile);
    return call.queue.push('request-profile', () => call.session.sendDescriptionInfo(describeProfile(profile)));
  }

  /**
   * What a remote video's tile needs, as the UI measures it (rendered size, visibility, full
   * screen): asks the sender for the matching quality (tileProfile's thresholds: hidden → off,
   * small → low, large or full screen → high) whenever that changes.
   */
  setTileNeed(mediaId: string, need: TileNeed): Promise<void> {
    if (this.closed) return Promise.reject(new CallEngineClosedError(this.roomAddress));
    this.tileNeeds.set(mediaId, need);
    const profile = profileForTile(need, this.receivedPaths.senderWidth(mediaId));
    if (this.askedProfiles.get(mediaId) === profile) return Promise.resolve();
    return this.requestVideoProfile(mediaId, profile);
  }

  /** The RTCRtpReceiver of a remote media item: its statistics (inbound-rtp) for quality displays and tests. */
  receiver(mediaId: string): RTCRtpReceiver | undefined {
    const track = this.options.media.getTrack(mediaId);
    const call = [...this.sessions.values()].find((candidate) => [...candidate.received.values()].includes(mediaId));
    return track && call?.session.receiverOf(track);
  }

  /** The RTCRtpSenders that send a local item, by peer address: their parameters (bitrate) and statistics. */
  senders(mediaId: string): Map<string, RTCRtpSender> {
    const senders = new Map<string, RTCRtpSender>();
    for (const call of this.outgoing.values()) {
      const item = call.sent.find((sent) => sent.id === mediaId);
      const sender = item && call.session.sender(item.kind);
      if (sender) senders.set(call.peerAddress, sender);
    }
    return senders;
  }

  // ------------------------------------------------------------------------------------------
  // Recomputing the sessions
  // ------------------------------------------------------------------------------------------

  /** Coalesces a burst of changes (a patch batch, a capture adding two items) into one pass. */
  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (!this.closed) this.reconcile();
    });
  }

  private reconcile(): void {
    const state = this.options.store.get(sessionStateAtom);
    const room = roomByAddress(state.rooms, this.roomAddress);
    if (room?.selfAddress) this.manager.selfID = room.selfAddress;
    const inCall = room?.joined === true && this.inCall();
    const peers = Object.values(state.peers).filter((peer) => peer.roomAddress === this.roomAddress && !peer.isSelf);

    // Out of the call we receive nothing (sessions still undecided are declined when their accept runs);
    // a sender that left the room is gone. A sender that only left the call ends its own sessions.
    const present = new Set(peers.map((peer) => peer.address));
    for (const call of [...this.sessions.values()]) {
      if (call.sending) continue;
      if (!present.has(call.peerAddress)) call.session.end('gone', true);
      else if (!inCall && call.accepted) this.end(call, 'success');
    }

    const shared = this.options.media
      .shared()
      .filter((item) => this.options.media.getTrack(item.id) !== undefined)
      .map(shareable);
    const plan = planOutgoingSessions({ inCall, peers, shared, held: this.timers.held });
    // SPEC §4: the relay takes what it can carry; the mesh keeps the rest, and each running session until its relay consumer is established.
    const wanted = this.decision.update(peers, this.sfuServer()) && inCall;
    const meshKeys = this.relay?.follow({
      wanted,
      plan,
      shared,
      peers,
      meshExists: (key) => this.outgoing.has(key),
      meshEstablished: (key) => this.handover.established('mesh', key),
    });
    const meshPlan = meshKeys ? plan.filter((session) => meshKeys.has(session.key)) : plan;
    this.applyBitrate({ ...videoSendCounts(plan, shared), relayInUse: this.relay?.inUse ?? false });

    const planned = new Set(meshPlan.map((session) => session.key));
    for (const [key, call] of [...this.outgoing]) if (!planned.has(key)) this.end(call, 'success');
    for (const session of meshPlan) this.follow(session);

    this.reportPeers(peers);
  }

  /** Brings the outgoing session for a plan entry up to date: start, swap tracks, or start anew. */
  private follow(plan: PlannedSession): void {
    const call = this.outgoing.get(plan.key);
    if (!call) {
      this.startOutgoing(plan);
      return;
    }
    const update = compareSessionMedia(call.sent, plan.media);
    if (update.type === 'restart') {
      this.end(call, 'success');
      this.startOutgoing(plan);
    } else if (update.type === 'replace') {
      call.sent = plan.media;
      this.publishConnection(call);
      for (const item of update.media) this.replaceSent(call, item);
    }
  }

  /** SPEC §9: the video budget per sent video, applied to every sender when it changes. */
  private applyBitrate(load: VideoSendLoad): void {
    const { load: last } = this;
    if (last?.videoReceivingPeers !== load.videoReceivingPeers || last.sharedVideoStreams !== load.sharedVideoStreams || last.relayInUse !== load.relayInUse) {
      this.load = load;
      this.emit('sendLoad', load);
    }
    const bitrate = maxBitratePerVideo(load);
    this.relay?.setMaxBitrate(bitrate);
    if (bitrate === this.bitrate) return;
    this.bitrate = bitrate;
    for (const call of this.outgoing.values()) {
      if (call.sentOf('video')) void this.run(call, 'set-bitrate', () => call.session.setMaximumBitrate(bitrate));
    }
  }

  // ------------------------------------------------------------------------------------------
  // Sessions we send
  // ------------------------------------------------------------------------------------------

  private startOutgoing(plan: PlannedSession): void {
    const session = new ParleyMediaSession({
      config: this.manager.config.peerConnectionConfig,
      constraints: this.manager.config.peerConnectionConstraints,
      iceServers: this.manager.iceServers,
      initiator: true,
      parent: this.manager,
      peerID: plan.peerAddress,
      onDescription: (from, descriptions) => this.onDescription(from, descriptions),
    });
    this.manager.addSession(session);
    const call = this.register(session, plan.key);
    call.sent = plan.media;
    this.outgoing.set(plan.key, call);
    this.publishConnection(call);
    void this.run(call, 'start', async () => {
      const { media } = this.options;
      for (const item of plan.media) {
        const track = media.getTrack(item.id);
        const stream = media.getStream(item.id);
        if (track && stream) await session.addSendOnlyTrack(track, stream);
      }
      await session.start();
      // PROTOCOL.md: after start, names and screen marks; then the mute state, so the peer shows it from the first frame.
      await this.describeSent(call);
      for (const item of plan.media) if (media.get(item.id)?.localDisabled) await session.mute('initiator', item.kind);
      if (this.bitrate !== undefined && call.sentOf('video')) await session.setMaximumBitrate(this.bitrate);
    });
  }

  private async describeSent(call: CallSession): Promise<void> {
    const { media } = this.options;
    const contents = describeTracks(
      call.sent.map((item) => ({
        kind: item.kind,
        trackId: media.getTrack(item.id)?.id ?? item.id,
        name: media.get(item.id)?.name,
        screenCapture: item.screenCapture,
      })),
    );
    if (contents.length > 0) await call.session.sendDescriptionInfo(contents);
  }

  private replaceSent(call: CallSession, item: ShareableMedia): void {
    const { media } = this.options;
    void this.run(call, 'replace-track', async () => {
      const track = media.getTrack(item.id);
      if (!track) return;
      await call.session.replaceSentTrack(item.kind, track);
      await this.describeSent(call);
      const muted = media.get(item.id)?.localDisabled === true;
      await (muted ? call.session.mute('initiator', item.kind) : call.session.unmute('initiator', item.kind));
    });
  }

  /** SPEC §4: muting a local item tells the peers of every session that sends it. */
  private signalLocalMute(item: MediaItem, muted: boolean): void {
    this.relay?.signalMute(item, muted);
    for (const call of this.outgoing.values()) {
      if (!call.sent.some((sent) => sent.id === item.id)) continue;
      void this.run(call, muted ? 'mute' : 'unmute', () =>
        muted ? call.session.mute('initiator', item.kind) : call.session.unmute('initiator', item.kind),
      );
    }
  }

  // ------------------------------------------------------------------------------------------
  // Sessions we receive
  // ------------------------------------------------------------------------------------------

  private prepareIncoming(meta: IncomingSessionOptions, request: IncomingRequest): ParleyMediaSession | undefined {
    // Anything but RTP (file transfer, …) gets StanzaJS's base session, which can only be ended.
    if (!meta.applicationTypes.includes(NS_JINGLE_RTP_1)) return undefined;
    const session = new ParleyMediaSession({ ...meta, onDescription: (from, descriptions) => this.onDescription(from, descriptions) });
    const call = this.register(session, undefined);
    // PROTOCOL.md: an ice-lite transport marks a relay consumer's offer.
    if (offersIceLite(request?.jingle)) call.path = 'relay';
    return session;
  }

  /** PROTOCOL.md: a responder accepts when it is in the call and terminates otherwise. */
  private onIncoming(session: BaseSession): void {
    const call = this.sessions.get(session.sid);
    if (!call) {
      session.end('unsupported-applications');
      return;
    }
    this.publishConnection(call);
    // Decided when the accept runs, so that leaving the call meanwhile declines it.
    void this.run(call, 'accept', async () => {
      if (!this.inCall()) {
        this.end(call, 'decline');
        return;
      }
      await call.session.accept();
      // A failed answer has ended the session (failed-application): its tracks are not media.
      if (this.sessions.get(call.sid) !== call) return;
      call.accepted = true;
      this.showReceived(call);
    });
  }

  private inCall(): boolean {
    return !this.closed && this.options.store.get(sessionStateAtom).calls[this.roomAddress]?.joined === true;
  }

  /** The config's relay, unless this engine runs mesh only (read live: a reconnected session brings a fresh token). */
  private sfuServer(): SfuServerConfig | undefined {
    return this.options.mediaRelay === false ? undefined : this.options.store.get(sessionStateAtom).connection.callConfig?.sfuServer;
  }

  /** Tracks arrive while the offer is applied; they become media items once the session is accepted (and has taken over). */
  private onRemoteTrack(session: BaseSession, track: MediaStreamTrack, stream: MediaStream | undefined): void {
    const call = this.sessions.get(session.sid);
    if (!call || call.sending) return;
    call.tracks.push({ track, stream });
    if (stream) call.streamIds.add(stream.id);
    if (call.accepted && !call.frameWatch && call.supersededBy === undefined) this.addReceived(call, track, stream);
    else call.arrived.push({ track, stream });
  }

  /**
   * Shows an accepted session's media: at once, or — when it carries a stream another session of
   * the same sender shows (the relay switching on or off) — once its frames arrive, so the tile
   * goes from the old track to the new one without a gap.
   */
  private showReceived(call: CallSession): void {
    if (this.predecessorsOf(call).length === 0) {
      for (const { track, stream } of call.arrived.splice(0)) this.addReceived(call, track, stream);
      return;
    }
    call.frameWatch = new FrameWatch(
      this.options.clock,
      () => call.tracks.flatMap(({ track }) => call.session.receiverOf(track) ?? []),
      () => this.takeOver(call),
    );
  }

  /** Accepted sessions of the same sender whose media shows a stream `call` carries too. */
  private predecessorsOf(call: CallSession): CallSession[] {
    return [...this.sessions.values()].filter(
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

  /** The new session's media replaces its predecessors' (which run on until their sender ends them); the tile's need carries over. */
  private takeOver(call: CallSession): void {
    call.frameWatch = undefined;
    if (this.sessions.get(call.sid) !== call) return;
    const { media } = this.options;
    let carried: { need: TileNeed | undefined; profile: SimulcastProfile | undefined } | undefined;
    for (const old of this.predecessorsOf(call)) {
      const video = old.received.get('video');
      if (video !== undefined) carried = { need: this.tileNeeds.get(video), profile: this.askedProfiles.get(video) };
      old.supersededBy = call.sid;
      for (const id of [...old.received.values()]) media.remove(id, false);
      old.received.clear();
      this.publishConnection(old);
    }
    for (const { track, stream } of call.arrived.splice(0)) this.addReceived(call, track, stream);
    const video = call.received.get('video');
    if (video === undefined || !carried) return;
    const carry = carried.need ? this.setTileNeed(video, carried.need) : carried.profile ? this.requestVideoProfile(video, carried.profile) : undefined;
    carry?.catch((error: unknown) => this.options.logger.error(`quality of ${video} not carried over: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** A session that had taken over ended: the sessions it replaced (still running) show their media again. */
  private restoreSuperseded(ended: CallSession): void {
    for (const call of this.sessions.values()) {
      if (call.supersededBy !== ended.sid) continue;
      call.supersededBy = undefined;
      for (const { track, stream } of call.tracks) if (track.readyState === 'live') this.addReceived(call, track, stream);
    }
    // A session waiting to take over from the one that ended has nothing left to wait for.
    for (const call of this.sessions.values()) if (call.frameWatch && this.predecessorsOf(call).length === 0) call.frameWatch.finish();
  }

  private forgetReceived(item: MediaItem): void {
    if (item.source !== 'remote') return;
    this.receivedPaths.remove(item.id);
    this.tileNeeds.delete(item.id);
    this.askedProfiles.delete(item.id);
  }

  private addReceived(call: CallSession, track: MediaStreamTrack, stream: MediaStream | undefined): void {
    const { media } = this.options;
    const kind: MediaKind = track.kind === 'audio' ? 'audio' : 'video';
    const described = call.described.get(kind);
    const item = media.addRemoteMedia({
      // Scoped to the session: a restarted session may carry a track of the same id while the old one ends.
      id: `${call.sid}:${track.id}`,
      track,
      stream: stream ?? new MediaStream([track]),
      owner: call.peerAddress,
      roomAddress: this.roomAddress,
      screenCapture: described?.screenCapture ?? false,
      ...(described?.name !== undefined ? { name: described.name } : {}),
      // A peer we silenced here stays silenced on its new audio.
      ownerMuted: media.forPeer(call.peerAddress, 'audio').some((other) => other.localDisabled),
    });
    call.received.set(kind, item.id);
    if (call.remoteMuted.has(kind)) media.update(item.id, { remoteDisabled: true });
    this.receivedPaths.add(
      { mediaId: item.id, roomAddress: this.roomAddress, owner: call.peerAddress, kind, path: call.path, requestedProfile: item.profile },
      () => call.session.receiverOf(track),
    );
    this.publishConnection(call);
  }

  private onRemoteTrackGone(session: BaseSession, track: MediaStreamTrack): void {
    const call = this.sessions.get(session.sid);
    if (!call) return;
    for (const [kind, id] of call.received) {
      if (this.options.media.getTrack(id) !== track) continue;
      call.received.delete(kind);
      this.options.media.remove(id);
    }
  }

  private onRemoteMute(session: BaseSession, info: Stanzas.JingleInfo, muted: boolean): void {
    const call = this.sessions.get(session.sid);
    if (!call || call.sending) return;
    const name = info.name ?? '';
    try {
      this.options.media.setRemoteMuted(call.connection(this.roomAddress), name, muted);
    } catch (error) {
      if (!(error instanceof InvalidMutePropertyError)) throw error;
      this.options.logger.error(`${error.message}: ${name}`);
      return;
    }
    const kind: MediaKind = name === 'audio' ? 'audio' : 'video';
    if (muted) call.remoteMuted.add(kind);
    else call.remoteMuted.delete(kind);
  }

  /** description-info: on a session we receive, names and screen marks; on one we send, the receiver's quality. */
  private onDescription(session: ParleyMediaSession, descriptions: readonly MediaDescription[]): void {
    const call = this.sessions.get(session.sid);
    if (!call) return;
    for (const description of descriptions) {
      if (call.sending) {
        if (description.kind === 'video' && description.profile !== undefined) {
          const active = sendsVideo(description.profile);
          void this.run(call, 'video-active', () => call.session.setVideoActive(active));
        }
        continue;
      }
      const previous = call.described.get(description.kind);
      const described = {
        name: description.name ?? previous?.name,
        screenCapture: description.screenCapture || previous?.screenCapture === true,
      };
      call.described.set(description.kind, described);
      const id = call.received.get(description.kind);
      if (id !== undefined) this.describeReceived(description.kind, id, described);
    }
  }

  private describeReceived(kind: MediaKind, id: string, described: { name: string | undefined; screenCapture: boolean }): void {
    const { media } = this.options;
    const item = media.get(id);
    if (!item) return;
    const screenCapture = item.screenCapture || (described.screenCapture && kind === 'video');
    if (screenCapture !== item.screenCapture || described.name !== item.name) media.update(id, { screenCapture, name: described.name });
  }

  // ------------------------------------------------------------------------------------------
  // Session life (SPEC §4 Session termination)
  // ------------------------------------------------------------------------------------------

  private listen(): void {
    const { manager } = this;
    manager.on('incoming', (session: BaseSession) => this.onIncoming(session));
    manager.on('terminated', (session: BaseSession, reason: Stanzas.JingleReason | undefined) => this.onTerminated(session, reason));
    manager.on('connectionState', (session: BaseSession) => this.onConnectionState(session));
    manager.on('sessionState', (session: BaseSession) => this.publishConnection(this.sessions.get(session.sid)));
    manager.on('peerTrackAdded', (session: BaseSession, track: MediaStreamTrack, stream: MediaStream | undefined) =>
      this.onRemoteTrack(session, track, stream),
    );
    manager.on('peerTrackRemoved', (session: BaseSession, track: MediaStreamTrack) => this.onRemoteTrackGone(session, track));
    manager.on('mute', (session: BaseSession, info: Stanzas.JingleInfo) => this.onRemoteMute(session, info, true));
    manager.on('unmute', (session: BaseSession, info: Stanzas.JingleInfo) => this.onRemoteMute(session, info, false));
    manager.on('log:error', (message: string) => this.options.logger.error(`jingle: ${message}`));
  }

  private register(session: ParleyMediaSession, key: string | undefined): CallSession {
    const call = new CallSession(session, key);
    this.sessions.set(session.sid, call);
    return call;
  }

  private onConnectionState(session: BaseSession): void {
    const call = this.sessions.get(session.sid);
    if (!call) return;
    const state = session.connectionState;
    this.publishConnection(call);
    // The relay switch hands a delivery over once its new path has been connected for a while.
    if (this.relay && call.sending && call.key !== undefined) {
      if (state === 'connected') this.handover.connected('mesh', call.key);
      else this.handover.lost('mesh', call.key);
    }
    if (isInterrupted(state)) {
      this.timers.watchInterrupted(call.sid, () => {
        if (this.sessions.get(call.sid) === call && isInterrupted(call.session.connectionState)) this.end(call, 'failed-transport');
      });
    } else {
      this.timers.stopWatching(call.sid);
    }
    if (endsAtOnce(state, session.isInitiator)) this.end(call, 'failed-transport');
    else if (state === 'connected' && this.failedPeers.delete(call.peerAddress)) this.schedule();
  }

  private onTerminated(session: BaseSession, reason: Stanzas.JingleReason | undefined): void {
    const call = this.sessions.get(session.sid);
    // StanzaJS may report an ended session twice (a failed start ends it again).
    if (!call) return;
    const declined = call.declined;
    this.sessions.delete(call.sid);
    if (call.key !== undefined && this.outgoing.get(call.key) === call) {
      this.outgoing.delete(call.key);
      this.handover.lost('mesh', call.key);
    }
    call.queue.close();
    call.frameWatch?.cancel();
    this.restoreSuperseded(call);
    this.timers.stopWatching(call.sid);
    for (const id of call.received.values()) this.options.media.remove(id);
    this.options.store.set(connectionsAtom, (connections) => {
      const rest = { ...connections };
      delete rest[call.sid];
      return rest;
    });
    const outcome = terminationOutcome(reason);
    // Our own decline is no failure of the peer's.
    if (outcome.failed && outcome.recomputeAfterMs !== undefined && !this.closed && !declined) {
      const error = new SessionFailedError(call.sid, call.peerAddress, reason?.condition ?? 'unknown', reason?.text);
      this.options.logger.error(error.message);
      this.failedPeers.add(call.peerAddress);
      this.timers.hold(call.peerAddress, outcome.recomputeAfterMs, () => this.schedule());
      this.emit('sessionFailed', error);
    }
    this.schedule();
  }

  /** Ends a session; one the peer never heard of (its initiate not sent yet) ends silently. */
  private end(call: CallSession, reason: JingleReasonCondition): void {
    call.declined = reason === 'decline';
    call.session.end(reason, call.session.state === 'starting');
  }

  /** Runs a step on the session's queue; a failure is logged (StanzaJS has ended the session if it must). */
  private run(call: CallSession, name: string, step: () => Promise<void>): Promise<void> {
    return call.queue.push(name, step).catch((error: unknown) => {
      if (this.sessions.get(call.sid) === call) this.options.logger.error(`${name} on session ${call.sid} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private publishConnection(call: CallSession | undefined): void {
    if (!call || this.sessions.get(call.sid) !== call) return;
    const connection = call.connection(this.roomAddress);
    this.options.store.set(connectionsAtom, (connections) => ({ ...connections, [call.sid]: connection }));
  }

  /** Sends the worker each peer's changed media facts (muted, active media, sessionFailed). */
  private reportPeers(peers: readonly Peer[]): void {
    const { media } = this.options;
    const present = new Set(peers.map((peer) => peer.address));
    for (const address of this.reported.keys()) if (!present.has(address)) this.reported.delete(address);
    for (const peer of peers) {
      const facts = peerMediaFacts(media.peerActivity(peer.address), media.forPeer(peer.address), this.failedPeers.has(peer.address));
      const change = peerMediaChange(this.reported.get(peer.address) ?? factsOf(peer), facts);
      if (!change) continue;
      this.reported.set(peer.address, facts);
      this.options.reportPeerMedia(peer.address, change).catch((error: unknown) => {
        this.options.logger.error(`peer media of ${peer.address} not reported: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }
}
