import type { SessionManager, Session as BaseSession } from 'stanza/jingle';
import type { Clock } from '../../../common/clock';
import type { Logger } from '../../../common/logger';
import { MESH_VIDEO_SIZE } from '../../../protocol/clientDefaults';
import type { MediaItem, MediaItems } from '../../media';
import type { CallSession } from '../CallSession';
import type { CallSessions } from '../CallSessions';
import { sendsVideo, type MediaDescription } from '../descriptionInfo';
import { describeDelivery, qualityRequestOf, type Delivery, type MediaPath } from '../MediaPath';
import { ParleyMediaSession } from '../ParleyMediaSession';
import type { PathHandover } from '../PathChange';
import { compareSessionMedia, type ShareableMedia } from '../sessionPlan';
import type { VideoSize } from '../receive/tileProfile';
import { isCamera, meshVideoBox, meshVideoEncoding, type SizedEncoding } from './meshVideoSize';
import { PreparedOffer } from './PreparedOffer';

export interface MeshPathOptions {
  /** The call's SessionManager: our sessions live in it beside the ones we receive. */
  readonly manager: SessionManager;
  readonly sessions: CallSessions;
  /** The tab's media items: the local ones are sent. */
  readonly media: MediaItems;
  readonly handover: PathHandover;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The size a relay sender captures at (tileProfile's relaySenderSize): the receivers' profiles are layers of it. */
  readonly relaySize: () => VideoSize;
}

/**
 * The mesh path (PROTOCOL.md "Jingle", DESIGN "Media paths"): one one-way Jingle session per
 * delivery (remote peer, shared local stream), initiated by us and sending only. A changed stream
 * swaps its tracks on the running session, or — a kind added or dropped — starts a new one. The
 * mesh can carry any stream at once: publishing needs nothing.
 */
export class MeshPath implements MediaPath {
  readonly name = 'mesh';
  /** Our sessions by plan key. */
  private readonly outgoing = new Map<string, CallSession>();
  private bitrate: number | undefined;
  private readonly unsubscribes: Array<() => void>;
  /** The session to the next person to join starts from it. */
  private readonly prepared: PreparedOffer;
  /** Our sessions whose receiver has asked for a quality (the others get the whole capture after MESH_VIDEO_SIZE.unaskedAfterMs). */
  private readonly asked = new WeakSet<CallSession>();
  /** Our sessions whose receiver asked for no video (`off`: a hidden tile). */
  private readonly videoRefused = new WeakSet<CallSession>();

  constructor(private readonly options: MeshPathOptions) {
    const { manager, sessions, handover, media, clock, logger } = options;
    this.prepared = new PreparedOffer({
      media,
      clock,
      logger,
      videoEncoding: (item) => this.initialEncoding(item),
      // As a session's own is made (ICESession), before there is a session: the factory reads only the configuration.
      createConnection: () => manager.createPeerConnection(undefined as unknown as BaseSession, { ...manager.config.peerConnectionConfig, iceServers: manager.iceServers }),
    });
    // StanzaJS says `resumed` for a session-info `active`: our receiver decodes this session (PathChange).
    const decoding = (session: BaseSession): void => {
      const call = sessions.get(session);
      if (call?.sending && this.isOurs(call)) handover.decoding('mesh', call.key);
    };
    manager.on('resumed', decoding);
    this.unsubscribes = [
      () => manager.off('resumed', decoding),
      sessions.on('accepted', (call) => this.onAccepted(call)),
      sessions.on('ended', (call) => {
        if (!this.isOurs(call)) return;
        this.outgoing.delete(call.key);
        handover.ended('mesh', call.key);
      }),
      // The path change hands a delivery over once its new path is established (PathHandover).
      sessions.on('connectionState', (call, state) => {
        if (!call.sending || call.key === undefined) return;
        if (state === 'connected') handover.connected('mesh', call.key);
        else handover.lost('mesh', call.key);
      }),
    ];
  }

  publish(): void {
    // The mesh sends each stream's tracks as they are: nothing to set up before delivering.
  }

  canCarry(): boolean {
    return true;
  }

  /** What the mesh would send a person who joins next and asks for video (undefined: they would not be sent on the mesh). */
  prepareFor(media: readonly ShareableMedia[] | undefined): void {
    this.prepared.follow(media);
  }

  deliver(deliveries: readonly Delivery[]): void {
    const planned = new Set(deliveries.map((delivery) => delivery.key));
    for (const [key, call] of [...this.outgoing]) if (!planned.has(key)) this.options.sessions.end(call, 'success');
    for (const delivery of deliveries) this.follow(delivery);
  }

  carries(key: string): boolean {
    return this.outgoing.has(key);
  }

  established(key: string): boolean {
    return this.options.handover.established('mesh', key);
  }

  /** SPEC §4: muting a local item tells the peers of every session that sends it; a camera turned off sends no video. */
  mute(item: MediaItem, muted: boolean): void {
    for (const call of this.outgoing.values()) {
      if (!call.sent.some((sent) => sent.id === item.id)) continue;
      void this.options.sessions.run(call, muted ? 'mute' : 'unmute', () =>
        muted ? call.session.mute('initiator', item.kind) : call.session.unmute('initiator', item.kind),
      );
      if (item.kind === 'video') this.applyVideoActive(call);
    }
  }

  catchUp(peerAddresses: ReadonlySet<string>): void {
    for (const call of [...this.outgoing.values()]) {
      if (!peerAddresses.has(call.peerAddress)) continue;
      if (!call.answered) {
        // Ended here (the peer may hold it: it is terminated), the plan starts it anew.
        this.options.sessions.end(call, 'success');
        continue;
      }
      void this.options.sessions.run(call, 'describe', () => this.describe(call));
      this.stateMute(call);
    }
  }

  /** SPEC §9: applied to every session that sends video when it changes, and to each new one. */
  setMaxBitrate(bitrate: number): void {
    if (bitrate === this.bitrate) return;
    this.bitrate = bitrate;
    for (const call of this.outgoing.values()) {
      if (call.sentOf('video')) void this.options.sessions.run(call, 'set-bitrate', () => call.session.setMaximumBitrate(bitrate));
    }
  }

  videoSenders(): RTCRtpSender[] {
    return [...this.outgoing.values()].flatMap((call) => (call.session.connectionState === 'connected' && call.sentOf('video') ? (call.session.sender('video') ?? []) : []));
  }

  /** Mesh sessions report what changes the plan through the call's sessions (an end, a failure held back, a release). */
  on(_event: 'changed', listener: () => void): () => void {
    return this.options.sessions.on('changed', listener);
  }

  /** Ends our sessions (the ones we receive end with the call's sessions). */
  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.prepared.close();
    for (const call of [...this.outgoing.values()]) this.options.sessions.end(call, 'success');
    this.outgoing.clear();
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

  /** Brings the session of a delivery up to date: start, swap tracks, or start anew (those two only when startable). */
  private follow(delivery: Delivery): void {
    const call = this.outgoing.get(delivery.key);
    if (!call) {
      if (delivery.startable) this.start(delivery);
      return;
    }
    const update = compareSessionMedia(call.sent, delivery.media);
    if (update.type === 'restart') {
      if (!delivery.startable) return;
      this.options.sessions.end(call, 'success');
      this.start(delivery);
    } else if (update.type === 'replace') {
      call.sent = delivery.media;
      this.options.sessions.publish(call);
      for (const item of update.media) this.replaceSent(call, item);
    }
  }

  private start(delivery: Delivery): void {
    const { manager, sessions, media } = this.options;
    const prepared = this.prepared.take(delivery.media);
    const session = onConnection(
      manager,
      prepared?.connection,
      () =>
        new ParleyMediaSession({
          config: manager.config.peerConnectionConfig,
          constraints: manager.config.peerConnectionConstraints,
          iceServers: manager.iceServers,
          initiator: true,
          parent: manager,
          peerID: delivery.peerAddress,
          onDescription: (from, descriptions) => this.onQualityRequest(from, descriptions),
          screenSound: delivery.media.some((item) => item.kind === 'audio' && item.screenCapture),
        }),
    );
    manager.addSession(session);
    const call = sessions.register(session, delivery.key);
    call.sent = delivery.media;
    this.outgoing.set(delivery.key, call);
    sessions.publish(call);
    void sessions.run(call, 'start', async () => {
      if (prepared) {
        await session.startPrepared(prepared.initiate);
      } else {
        for (const item of delivery.media) {
          const track = media.getTrack(item.id);
          const stream = media.getStream(item.id);
          if (track && stream) await session.addSendOnlyTrack(track, stream, this.initialEncoding(item));
        }
        await session.start();
      }
      // A new sender's encodings are active: only a camera off (or a video refused) needs a change here.
      if (call.sentOf('video') && !this.videoActive(call)) await session.setVideoActive(false);
      // PROTOCOL.md: after start, names and screen marks; the mute state follows the answer (onAccepted).
      await this.describe(call);
      if (this.bitrate !== undefined && call.sentOf('video')) await session.setMaximumBitrate(this.bitrate);
    });
  }

  /**
   * Issue 13: once the peer has answered, the mute state of everything sent, mute or unmute, so a
   * receiver that holds a person muted from their last session learns what this one is. Never
   * before the answer: a peer that declines answers a session-info with an error.
   */
  private onAccepted(call: CallSession): void {
    if (!this.isOurs(call)) return;
    this.stateMute(call);
    if (!this.sendsCamera(call)) return;
    this.options.clock.setTimeout(() => {
      if (this.asked.has(call) || !this.isOurs(call)) return;
      void this.options.sessions.run(call, 'video-size', () => call.session.setVideoBox(undefined));
    }, MESH_VIDEO_SIZE.unaskedAfterMs);
  }

  /** What a session's video starts with until its receiver asks (meshVideoSize). */
  private initialEncoding(item: ShareableMedia): SizedEncoding | undefined {
    return meshVideoEncoding(item, meshVideoBox(MESH_VIDEO_SIZE.initialProfile, this.options.relaySize()));
  }

  /** One of our sessions, still the one of its delivery. */
  private isOurs(call: CallSession): call is CallSession & { readonly key: string } {
    return call.key !== undefined && this.outgoing.get(call.key) === call;
  }

  private sendsCamera(call: CallSession): boolean {
    return call.sent.some(isCamera);
  }

  /** The mute state of everything the session sends, mute or unmute. */
  private stateMute(call: CallSession): void {
    const { sessions, media } = this.options;
    void sessions.run(call, 'mute-state', async () => {
      for (const item of call.sent) {
        await (media.isOffForOthers(item.id) ? call.session.mute('initiator', item.kind) : call.session.unmute('initiator', item.kind));
      }
    });
  }

  private async describe(call: CallSession): Promise<void> {
    const contents = describeDelivery(this.options.media, call.sent);
    if (contents.length > 0) await call.session.sendDescriptionInfo(contents);
  }

  private replaceSent(call: CallSession, item: ShareableMedia): void {
    const { media, sessions } = this.options;
    void sessions.run(call, 'replace-track', async () => {
      const track = media.getTrack(item.id);
      if (!track) return;
      await call.session.replaceSentTrack(item.kind, track);
      await this.describe(call);
      const muted = media.isOffForOthers(item.id);
      await (muted ? call.session.mute('initiator', item.kind) : call.session.unmute('initiator', item.kind));
      if (item.kind === 'video') await call.session.setVideoActive(this.videoActive(call));
    });
  }

  /**
   * Whether the session sends its video: not while its receiver asked for none, nor while the
   * camera is off for the others (`offForOthers`). A camera turned off goes quiet rather than
   * sending black frames (its track disabled): its receiver then sees it stop even when our mute
   * cannot reach them (signalling down, issue 13; receive/CamerasByFrames).
   */
  private videoActive(call: CallSession): boolean {
    const video = call.sentOf('video');
    return !this.videoRefused.has(call) && (video === undefined || !this.options.media.isOffForOthers(video.id));
  }

  private applyVideoActive(call: CallSession): void {
    void this.options.sessions.run(call, 'video-active', () => call.session.setVideoActive(this.videoActive(call)));
  }

  /**
   * The receiver's quality request: on the mesh, `off` pauses our video to it and anything else
   * resumes it (a camera that is on), at the size the request asks for (meshVideoSize; a screen stays whole).
   */
  private onQualityRequest(session: ParleyMediaSession, descriptions: readonly MediaDescription[]): void {
    const call = this.options.sessions.get(session);
    const profile = qualityRequestOf(descriptions);
    if (!call || profile === undefined) return;
    this.asked.add(call);
    const active = sendsVideo(profile);
    if (active) this.videoRefused.delete(call);
    else this.videoRefused.add(call);
    this.applyVideoActive(call);
    if (!active || !this.sendsCamera(call)) return;
    const box = meshVideoBox(profile, this.options.relaySize());
    void this.options.sessions.run(call, 'video-size', () => call.session.setVideoBox(box));
  }
}

/**
 * Constructs a session on `connection` when there is one: StanzaJS's ICESession takes its connection
 * from its manager's `createPeerConnection` as it is constructed, and has no option for one made
 * already, so for that synchronous construction only the manager hands out `connection`.
 */
function onConnection<T>(manager: SessionManager, connection: RTCPeerConnection | undefined, construct: () => T): T {
  if (!connection) return construct();
  const create = manager.createPeerConnection;
  manager.createPeerConnection = () => connection;
  try {
    return construct();
  } finally {
    manager.createPeerConnection = create;
  }
}
