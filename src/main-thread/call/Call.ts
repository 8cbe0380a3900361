import type { createStore } from 'jotai';
import { SessionManager, type Session as BaseSession } from 'stanza/jingle';
import type { SfuServerConfig } from '../../protocol/config';
import type { Peer, Room } from '../../protocol/entities';
import type { SessionState } from '../../protocol/session-state';
import type { SimulcastProfile } from '../../protocol/stanzas/talkyJingle';
import { roomByAddress } from '../../protocol/roomLookup';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { errorMessage } from '../../common/errorMessage';
import { TypedEmitter } from '../../common/TypedEmitter';
import { sameItems } from '../../common/sameItems';
import { maxBitratePerVideo, type MediaItem, type MediaItems, type VideoSendLoad } from '../media';
import { connectionAtom, sessionStateAtom } from '../sessionAtoms';
import { heldPeersAtom } from './callAtoms';
import { CallOwnership, type CallLocks } from './CallOwnership';
import { CallSessions } from './CallSessions';
import type { CallSignaling } from './CallSignaling';
import { ConnectionRecords } from './ConnectionRecords';
import { DepartureHold } from './DepartureHold';
import { CallClosedError, CallUnsupportedError, type SessionFailedError } from './errors';
import { JingleLink } from './JingleLink';
import type { Delivery } from './MediaPath';
import { MeshPath } from './mesh/MeshPath';
import { PathHandover } from './PathChange';
import { planPaths } from './pathPlan';
import { PeerReports } from './PeerReports';
import { ReceiveFirst } from './ReceiveFirst';
import { SessionFailures } from './SessionFailures';
import type { PeerMediaChange } from './peerMedia';
import { IncomingSessions, type IncomingRequest, type IncomingSessionOptions } from './receive/IncomingSessions';
import { relaySenderSize, type TileNeed, type VideoSize } from './receive/tileProfile';
import { RejoinHold } from './RejoinHold';
import { RelayDecision, relayCalledFor } from './RelayDecision';
import { RelayPath } from './relay/RelayPath';
import { SendLossWatch } from './SendLossWatch';
import { groupIntoStreams, planOutgoingSessions, USER_STREAM_KEY, videoSendCounts, type CallPeer, type ShareableMedia } from './sessionPlan';

type JotaiStore = ReturnType<typeof createStore>;

export interface CallOptions {
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

export interface CallEvents {
  /** A session ended with an error condition (already logged; the peer is flagged). */
  sessionFailed: [error: SessionFailedError];
  /** What we send changed: the capture resolution tier follows it (media's captureResolutionTier). */
  sendLoad: [load: VideoSendLoad];
  /** Another tab of yours took the call over ("Move call here"): this tab no longer runs it. */
  takenElsewhere: [];
  /** Whether the video we send is losing much on its way (SendLossWatch), when that changes. */
  sendLoss: [losing: boolean];
}

/** Whoever joins the call next, as the plan sees them: in the call, asking for video. */
const NEWCOMER: CallPeer = { address: '', joinedCall: true, requestingMedia: 'video' };

function shareable(item: MediaItem): ShareableMedia {
  return { id: item.id, kind: item.kind, streamId: item.streamId, screenCapture: item.screenCapture };
}

/**
 * One room's call, run by the one tab that owns it (DESIGN "Tab roles", SPEC §4). Whenever the
 * mirrored room state or the local media change it recomputes, in one pass:
 * - the deliveries (remote peer × shared local stream, sessionPlan) and, for each, which path
 *   carries it: the relay when SPEC §4's switch is on (RelayDecision) and the relay can carry the
 *   stream, else the mesh, the path being left running until the new one is established
 *   (pathPlan, PathChange) — each path behind the MediaPath interface (mesh/, relay/);
 * - the sessions we receive, which mesh and relay deliver alike (receive/);
 * - SPEC §9's video budget for both paths, and the peer facts other tabs show.
 * A burst of changes (a patch batch, a capture adding two items) is gathered into one pass on a
 * microtask; SPEC §9's 100 ms update queue is not used (see `schedule`).
 */
export class Call extends TypedEmitter<CallEvents> {
  private readonly manager: SessionManager;
  private readonly link: JingleLink;
  private readonly ownership: CallOwnership;
  private readonly sessions: CallSessions;
  private readonly failures: SessionFailures;
  private readonly handover: PathHandover;
  private readonly decision: RelayDecision;
  private readonly mesh: MeshPath;
  private readonly relay: RelayPath | undefined;
  private readonly incoming: IncomingSessions;
  private readonly peerReports: PeerReports;
  private readonly rejoinHold: RejoinHold;
  private readonly departureHold: DepartureHold;
  private readonly receiveFirst: ReceiveFirst;
  private readonly unsubscribes: (() => void)[] = [];
  /** The size relay senders capture at (read live: a reconnected session may bring other tiers); mesh and received sizes are judged against it. */
  private readonly relaySize = (): VideoSize => relaySenderSize(this.options.store.get(connectionAtom).callConfig?.videoResolutionTiers);
  private load: VideoSendLoad | undefined;
  private scheduled = false;
  private started = false;
  private closed = false;

  constructor(private readonly options: CallOptions) {
    super();
    const { store, clock, logger, media, roomAddress } = options;
    this.ownership = new CallOwnership(roomAddress, options.locks, () => this.emit('takenElsewhere'));
    const create = options.createPeerConnection;
    this.manager = new SessionManager({
      iceServers: [...options.iceServers],
      // PROTOCOL.md: one-way sessions never collide, so there is no tie-break.
      performTieBreak: () => false,
      prepareSession: (meta: IncomingSessionOptions, request?: IncomingRequest) => this.incoming.prepare(meta, request),
      ...(create ? { createPeerConnection: (_session: BaseSession, configuration?: RTCConfiguration) => create(configuration ?? {}) } : {}),
    });
    this.manager.on('log:error', (message: string) => logger.error(`jingle: ${message}`));
    this.link = new JingleLink(this.manager, options.signaling, logger);
    const records = new ConnectionRecords(store);
    this.sessions = new CallSessions({ roomAddress, manager: this.manager, records, clock, logger });
    this.failures = new SessionFailures({ roomAddress, store, clock });
    this.handover = new PathHandover(clock);
    this.decision = new RelayDecision(clock);
    this.mesh = new MeshPath({ manager: this.manager, sessions: this.sessions, media, handover: this.handover, clock, logger, relaySize: this.relaySize });
    this.relay =
      options.mediaRelay === false
        ? undefined
        : new RelayPath({
            roomAddress,
            store,
            manager: this.manager,
            signaling: options.signaling,
            media,
            clock,
            logger,
            handover: this.handover,
            records,
            iceServers: options.iceServers,
            sfuServer: () => this.sfuServer(),
          });
    this.incoming = new IncomingSessions({
      roomAddress,
      store,
      manager: this.manager,
      sessions: this.sessions,
      media,
      clock,
      logger,
      inCall: () => this.inCall(),
      captureWidth: () => this.relaySize().width,
      connected: () => this.schedule(),
      delivered: (request) => this.link.delivered(request),
      signallingReaches: (address) => this.reachableBySignalling(this.options.store.get(sessionStateAtom)).has(address),
    });
    this.peerReports = new PeerReports(media, options.reportPeerMedia, logger);
    this.rejoinHold = new RejoinHold(clock, () => this.schedule());
    this.departureHold = new DepartureHold(clock, (address) => this.newestPacketFrom(address), () => this.schedule());
    this.receiveFirst = new ReceiveFirst(clock, () => this.schedule());
  }

  get roomAddress(): string {
    return this.options.roomAddress;
  }

  /**
   * Takes the room's call lock (waiting while another tab of this browser runs the call), claims
   * the call's Jingle traffic and starts following the room. Resolves once running, or at once
   * when closed first. `whileHeldElsewhere` is told when another tab runs the call, before waiting.
   */
  async start(whileHeldElsewhere?: () => void): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (!this.options.createPeerConnection && typeof RTCPeerConnection !== 'function') throw new CallUnsupportedError('RTCPeerConnection');
    if (!(await this.ownership.acquire(whileHeldElsewhere)) || this.closed) return;
    // Not waited for (issue 14: a round trip less before the call presence): the session takes this
    // tab's messages in order, so the claim is in place before the "join call" that follows it can
    // make anyone offer.
    this.options.signaling.claimCall(this.roomAddress, (iq) => this.link.receive(iq)).catch((error: unknown) => this.options.logger.error(`the call could not be claimed: ${errorMessage(error)}`));
    const { store, media } = this.options;
    const schedule = (): void => this.schedule();
    this.unsubscribes.push(
      store.sub(sessionStateAtom, schedule),
      media.on('added', schedule),
      media.on('removed', schedule),
      media.on('updated', (item, previous) => {
        // What the sessions carry, and what peers' records say of their media (a screen mark arrives in description-info).
        if (item.shared !== previous.shared || item.remoteDisabled !== previous.remoteDisabled || item.name !== previous.name || item.screenCapture !== previous.screenCapture) schedule();
      }),
      media.on('localMuteChanged', (item, muted) => {
        this.relay?.mute(item, muted);
        this.mesh.mute(item, muted);
      }),
      this.sessions.on('sessionFailed', (error) => this.sessionFailed(error)),
      this.failures.on('changed', schedule),
      this.decision.on('change', schedule),
      this.handover.on('settled', schedule),
      this.mesh.on('changed', schedule),
      ...(this.relay ? [this.relay.on('changed', schedule), this.relay.on('sessionFailed', (error) => this.sessionFailed(error))] : []),
    );
    const sendLoss = new SendLossWatch(this.options.clock, () => [...this.mesh.videoSenders(), ...(this.relay?.videoSenders() ?? [])]);
    this.unsubscribes.push(
      sendLoss.on('changed', (losing) => this.emit('sendLoss', losing)),
      () => sendLoss.stop(),
    );
    this.reconcile();
  }

  /** While another tab of yours runs the call (`start` waiting for it): takes the call from it now. */
  takeOver(): void {
    this.ownership.takeOver();
  }

  /** Ends every session and gives the call up (another tab may take it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    // The claim goes before the sessions end: a peer who answers our session-terminate with an offer
    // anew (the call goes on in another tab of yours, "Move call here") reaches whichever tab claims
    // the call next — the session holds it for that claim — never this closing one.
    const released = this.options.signaling.releaseCall(this.roomAddress);
    await this.relay?.close();
    await this.mesh.close();
    this.sessions.close();
    this.failures.close();
    this.incoming.close();
    this.decision.dispose();
    this.handover.clear();
    this.rejoinHold.clear();
    this.departureHold.clear();
    this.receiveFirst.reset();
    this.showHeld([]);
    this.ownership.release();
    await released;
  }

  /** Asks the sender of a remote video for a quality (ReceivedVideo.requestVideoProfile). */
  requestVideoProfile(mediaId: string, profile: SimulcastProfile): Promise<void> {
    if (this.closed) return Promise.reject(new CallClosedError(this.roomAddress));
    return this.incoming.view.requestVideoProfile(mediaId, profile);
  }

  /** What a remote video's tile needs, as the UI measures it (ReceivedVideo.setTileNeed). */
  setTileNeed(mediaId: string, need: TileNeed): Promise<void> {
    if (this.closed) return Promise.reject(new CallClosedError(this.roomAddress));
    return this.incoming.view.setTileNeed(mediaId, need);
  }

  /** A remote video shows frames of this size now, as the page's element reports it (ReceivedVideo.setFrameSize). */
  setFrameSize(mediaId: string, size: VideoSize): void {
    if (!this.closed) this.incoming.view.setFrameSize(mediaId, size);
  }

  /** The RTCRtpReceiver of a remote media item: its statistics (inbound-rtp) for quality displays and tests. */
  receiver(mediaId: string): RTCRtpReceiver | undefined {
    return this.incoming.receiver(mediaId);
  }

  /** The mesh's RTCRtpSenders that send a local item, by peer address: their parameters (bitrate) and statistics. */
  senders(mediaId: string): Map<string, RTCRtpSender> {
    return this.mesh.senders(mediaId);
  }

  /**
   * Gathers a burst of changes into one pass, on a microtask. SPEC §9's update queue (100 ms
   * debounce, priorities) is SimpleWebRTC's answer to the same bursts; a pass here reads the whole
   * current state and its slow steps run on each session's own queue, so there is nothing for
   * priorities to order, and waiting 100 ms would delay every join's first video by as much
   * (DESIGN's join-time targets).
   */
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
    const roomPeers = Object.values(state.peers).filter((peer) => peer.roomAddress === this.roomAddress && !peer.isSelf);
    // Through a lost connection, ours or theirs, the call keeps the people it had (RejoinHold,
    // DepartureHold): media does not go through the server.
    const rejoin = this.rejoinHold.follow(room, roomPeers, this.inCall(), (address) => this.inTouchWith(address));
    const departures = this.followDepartures(state, room, roomPeers);
    const peers = [...rejoin.peers, ...departures.held];
    const returned = [...rejoin.returned, ...departures.returned];
    this.showHeld([...this.rejoinHold.heldPeers(), ...departures.held]);
    const inCall = rejoin.inRoom && this.inCall();
    this.incoming.follow(new Set(peers.map((peer) => peer.address)), inCall);

    if (returned.length > 0) {
      // What was said while signalling was down never reached them (issue 13): say what is true now,
      // before the deliveries below start anew what catching up ends.
      const back = new Set(returned);
      this.mesh.catchUp(back);
      this.relay?.catchUp(back);
      // …and what we asked of them: a quality request made meanwhile could not go.
      this.incoming.view.catchUp(back);
    }

    const { media } = this.options;
    const shared = media
      .shared()
      .filter((item) => media.getTrack(item.id) !== undefined)
      .map(shareable);
    const streams = groupIntoStreams(shared);
    const plan = planOutgoingSessions({ inCall, peers, shared });
    // Sessions start only to people signalling reaches; a failed session holds its peer back a while (SPEC §4).
    const held = this.sessions.held;
    const reachable = this.reachableBySignalling(state);
    const startable = new Set(roomPeers.map((peer) => peer.address).filter((address) => reachable.has(address) && !held.has(address)));
    const deliveries = this.deliveriesOf(plan, peers, startable);
    // A newcomer connects what those already in the call send it before offering to them (ReceiveFirst).
    const awaited = this.receiveFirst.awaited(inCall, room?.joinedAt, peers, (address) => this.incoming.theirSession(address));
    const meshDeliveries = this.relay ? this.followRelay(this.relay, deliveries, streams, peers, inCall, awaited.size > 0) : deliveries;
    this.applyBitrate({ ...videoSendCounts(plan, shared), relayInUse: this.relay?.inUse ?? false, relayPending: this.relayPending(streams) });
    this.mesh.deliver(meshDeliveries.filter((delivery) => !awaited.has(delivery.peerAddress) || this.mesh.carries(delivery.key)));
    // The session to whoever joins next starts from an offer made ahead, when the mesh would carry it.
    this.mesh.prepareFor(inCall && !this.relayTakesNewcomer(peers) ? streams.get(USER_STREAM_KEY) : undefined);
    // Only people the room lists have a record to report to.
    this.peerReports.follow(roomPeers, (address) => this.failures.has(address));
  }

  /** A session with someone ended with an error condition, on either path: they are flagged (SPEC §4), and the call tab told. */
  private sessionFailed(error: SessionFailedError): void {
    this.failures.failed(error);
    this.emit('sessionFailed', error);
  }

  /**
   * Who signalling reaches now: the people the room lists while it is joined — nobody while it waits
   * for its rejoin, nor the people RejoinHold keeps through their own outage.
   */
  private reachableBySignalling(state: SessionState): ReadonlySet<string> {
    if (roomByAddress(state.rooms, this.roomAddress)?.joined !== true) return new Set();
    return new Set(Object.values(state.peers).filter((peer) => peer.roomAddress === this.roomAddress).map((peer) => peer.address));
  }

  /**
   * DepartureHold follows the room while it is joined and we are in its call; otherwise nobody is
   * held for their return (RejoinHold keeps the people through our own outage).
   */
  private followDepartures(state: SessionState, room: Room | undefined, roomPeers: readonly Peer[]): { held: readonly Peer[]; returned: readonly string[] } {
    if (room?.joined !== true || !this.inCall()) {
      this.departureHold.clear();
      return { held: [], returned: [] };
    }
    return this.departureHold.follow(roomPeers, (address) => this.leftPlainly(state, address));
  }

  /** The room's last word about this person was that they left: not a removal, not a new nickname (RoomEvent). */
  private leftPlainly(state: SessionState, address: string): boolean {
    let kind: string | undefined;
    for (const event of Object.values(state.roomEvents)) if (event.roomAddress === this.roomAddress && event.peerAddress === address) kind = event.kind;
    return kind === 'left';
  }

  /** When the newest packet of theirs reached us, on any connected session that receives from them; undefined when none does. */
  private newestPacketFrom(address: string): number | undefined {
    let newest: number | undefined;
    for (const call of this.sessions.all()) {
      if (call.peerAddress !== address || call.sending || !call.accepted || call.session.connectionState !== 'connected') continue;
      for (const { track } of call.tracks) {
        const packetAt = call.session.newestPacketOf(track);
        if (packetAt !== undefined && (newest === undefined || packetAt > newest)) newest = packetAt;
      }
    }
    return newest;
  }

  /** A session with this person runs, received or sent, on either path. */
  private inTouchWith(address: string): boolean {
    return this.sessions.all().some((call) => call.peerAddress === address) || this.relay?.sendsTo(address) === true;
  }

  /** The held people, for the call tab's tiles (heldPeersAtom); written only when they change. */
  private showHeld(held: readonly Peer[]): void {
    const { store, roomAddress } = this.options;
    const shown = store.get(heldPeersAtom);
    const current = shown[roomAddress] ?? [];
    if (sameItems(current, held)) return;
    const next = { ...shown };
    if (held.length > 0) next[roomAddress] = held;
    else delete next[roomAddress];
    store.set(heldPeersAtom, next);
  }

  private deliveriesOf(plan: ReturnType<typeof planOutgoingSessions>, peers: readonly Peer[], startable: ReadonlySet<string>): Delivery[] {
    const peerIds = new Map(peers.map((peer) => [peer.address, peer.id]));
    return plan.map((session) => ({ ...session, peerId: peerIds.get(session.peerAddress) ?? session.peerAddress, startable: startable.has(session.peerAddress) }));
  }

  /**
   * SPEC §4: the relay takes what it can carry; the mesh keeps the rest, and each running session
   * until its relay consumer is established (pathPlan). Returns the deliveries the mesh carries.
   */
  private followRelay(relay: RelayPath, deliveries: readonly Delivery[], streams: ReadonlyMap<string, readonly ShareableMedia[]>, peers: readonly Peer[], inCall: boolean, receivingFirst: boolean): Delivery[] {
    const wanted = this.decision.update(peers, this.sfuServer()) && inCall;
    // A newcomer to a call the relay carries receives first (ReceiveFirst) here too: its connection to
    // the relay, mediasoup-client and the ingest come once what the others send it is connected,
    // not while it answers their offers. No mesh session starts meanwhile either; one running stays.
    if (wanted && receivingFirst && !relay.inUse) return deliveries.filter((delivery) => this.mesh.carries(delivery.key));
    relay.publish(streams, wanted && deliveries.length > 0);
    const paths = planPaths({
      planned: deliveries,
      relayReady: (streamKey) => relay.canCarry(streamKey),
      relayPending: (streamKey) => relay.pending(streamKey),
      relayFailed: (key) => relay.failedReceiver(key),
      relayExists: (key) => relay.carries(key),
      relayEstablished: (key) => relay.established(key),
      meshExists: (key) => this.mesh.carries(key),
      meshEstablished: (key) => this.mesh.established(key),
    });
    relay.deliver(deliveries.filter((delivery) => paths.relay.has(delivery.key)));
    return deliveries.filter((delivery) => paths.mesh.has(delivery.key));
  }

  /** Someone who joins next and asks for video would get our streams from the relay: it carries them already, or their arrival switches it on. */
  private relayTakesNewcomer(peers: readonly Peer[]): boolean {
    const sfuServer = this.sfuServer();
    if (!this.relay || !sfuServer) return false;
    return this.relay.inUse || this.decision.wanted || relayCalledFor([...peers, NEWCOMER], sfuServer);
  }

  /** The relay is on its way to carrying some stream we share (RelayPath.pending). */
  private relayPending(streams: ReadonlyMap<string, readonly ShareableMedia[]>): boolean {
    const { relay } = this;
    return relay !== undefined && [...streams.keys()].some((streamKey) => relay.pending(streamKey));
  }

  /** SPEC §9: the video budget per sent video, applied to both paths when it changes. */
  private applyBitrate(load: VideoSendLoad): void {
    const { load: last } = this;
    const changed = (['videoReceivingPeers', 'sharedVideoStreams', 'relayInUse', 'relayPending'] as const).some((field) => last?.[field] !== load[field]);
    if (changed) {
      this.load = load;
      this.emit('sendLoad', load);
    }
    const bitrate = maxBitratePerVideo(load);
    this.relay?.setMaxBitrate(bitrate);
    this.mesh.setMaxBitrate(bitrate);
  }

  private inCall(): boolean {
    return !this.closed && this.options.store.get(sessionStateAtom).calls[this.roomAddress]?.joined === true;
  }

  /** The config's relay, unless this call runs mesh only (read live: a reconnected session brings a fresh token). */
  private sfuServer(): SfuServerConfig | undefined {
    return this.options.mediaRelay === false ? undefined : this.options.store.get(sessionStateAtom).connection.callConfig?.sfuServer;
  }
}
