import { randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { types } from 'mediasoup';
import { isConsumerIceUp, LAYERS_WANTED_GRACE_MS, PROFILE_SPATIAL_LAYER, type ConsumerIceState, type ConsumerProfile } from '../../src/protocol/relay';
import { ConflictError, NotFoundError } from './errors';
import type { Ingest, IngestTrack } from './Ingest';
import type { LayerWatch } from './LayerWatch';
import { receiverCapabilities } from './mediaCodecs';
import type { RoomDirectory, RoomKey } from './RoomDirectory';
import { readConsumerAnswer } from './sdp/consumerAnswer';
import { type ConsumedTrack, writeConsumerOffer } from './sdp/consumerOffer';

export interface ConsumerSessionOptions {
  /** The Jingle session id. */
  id: string;
  /** The receiver's sid; none for a consumer made ahead of its receiver, until CLAIM_CONSUMER. */
  peerId: string | undefined;
  roomId: string;
  source: Ingest;
  kinds: readonly types.MediaKind[];
  rooms: RoomDirectory;
  room: RoomKey;
  transportOptions: types.WebRtcTransportOptions;
  connectTimeoutMs: number;
}

export interface ConsumerSessionEvents {
  /** CONSUMER_ICE_STATE: each change of the state the receiver's side should see. */
  icestate: [state: ConsumerIceState];
  /** Closed without being asked: its source's producers all went away. */
  lost: [];
  /** What it wants of its source's video (`wantedVideoLayer`) may have changed. */
  wanted: [];
}

/** One consumer's figures, for tests and benchmarks. */
export interface ConsumerStats {
  id: string;
  /** Its receiver's sid; none while a consumer made ahead is unclaimed. */
  peerId: string | undefined;
  /** It was made ahead of its receiver (CREATE_CONSUMER without peerId). */
  madeAhead: boolean;
  source: string;
  kind: types.MediaKind;
  consumerId: string;
  producerId: string;
  routerId: string;
  type: types.ConsumerType;
  paused: boolean;
  profile: ConsumerProfile;
  preferredSpatialLayer: number | undefined;
  currentSpatialLayer: number | undefined;
  iceState: ConsumerIceState | 'new';
}

/**
 * CREATE_CONSUMER … START_CONSUMER: a transport on a router of the room and one paused consumer
 * per requested kind of the source stream, described by an ice-lite, ssrc-signalled offer that
 * the sender delivers to the receiver over Jingle. The receiver's answer connects DTLS and
 * resumes the consumers; the transport's ICE and DTLS states become CONSUMER_ICE_STATE.
 */
export class ConsumerSession extends EventEmitter<ConsumerSessionEvents> {
  private profile: ConsumerProfile = INITIAL_PROFILE;
  private started = false;
  private reported: ConsumerIceState | undefined;
  private timedOut = false;
  private connectTimer: NodeJS.Timeout | undefined;
  /** Cancels a layer move waiting out the sender's keyframe interval (KeyFrameSpacing.whenHeard). */
  private cancelLayerMove: (() => void) | undefined;
  /** Running while its first profile is not counted in LAYERS_WANTED (LAYERS_WANTED_GRACE_MS). */
  private firstProfileGrace: NodeJS.Timeout | undefined;
  private closing = false;
  /** Its receiver's sid, once known (CLAIM_CONSUMER for a consumer made ahead). */
  private peerId: string | undefined;

  private constructor(
    private readonly options: ConsumerSessionOptions,
    readonly router: types.Router,
    readonly transport: types.WebRtcTransport,
    private readonly consumers: ReadonlyMap<types.MediaKind, types.Consumer>,
    readonly offer: string,
    /** The consumed video track: which of its layers arrive, and when its sender hears a keyframe request (simulcast only). */
    private readonly videoTrack: IngestTrack | undefined,
  ) {
    super();
    this.peerId = options.peerId;
    transport.on('icestatechange', () => this.report());
    transport.on('dtlsstatechange', () => this.report());
    for (const consumer of consumers.values()) {
      consumer.observer.once('close', () => {
        if (!this.closing && [...consumers.values()].every((each) => each.closed)) this.lose();
      });
    }
    // Followed while the video consumer lives (a receiver that refused the video has none to move).
    const video = consumers.get('video');
    const videoLayers = videoTrack?.layers;
    if (video && videoLayers) {
      videoLayers.on('change', this.followArrivingLayers);
      video.observer.once('close', () => {
        videoLayers.off('change', this.followArrivingLayers);
        this.emit('wanted');
      });
    }
    if (this.peerId !== undefined) this.startFirstProfileGrace();
  }

  /** A simulcast video's first profile is not counted until its receiver has had LAYERS_WANTED_GRACE_MS to say what it needs. */
  private startFirstProfileGrace(): void {
    if (!this.videoTrack?.layers || !this.consumers.get('video')) return;
    this.firstProfileGrace = setTimeout(() => {
      this.firstProfileGrace = undefined;
      this.emit('wanted');
    }, LAYERS_WANTED_GRACE_MS);
    this.firstProfileGrace.unref();
  }

  static async create(options: ConsumerSessionOptions): Promise<ConsumerSession> {
    const { source, kinds, rooms, room, transportOptions, id } = options;
    const tracks = kinds.flatMap((kind) => source.track(kind) ?? []);
    if (tracks.length === 0) throw new NotFoundError(`stream "${source.id}" has no ${kinds.join(' or ')} to consume`);
    const { router, transport } = await rooms.placeTransport(room, source.router, (placed) =>
      placed.createWebRtcTransport({ ...transportOptions, appData: { role: 'consumer', sessionId: id } }),
    );
    try {
      // The tracks at once: each is a round trip to the worker, and a newcomer waits for this offer.
      const consumed = await Promise.all(
        tracks.map(async (track) => {
          await rooms.pipe(track.producer, source.router, router);
          return transport.consume({
            producerId: track.producer.id,
            rtpCapabilities: receiverCapabilities(router.rtpCapabilities),
            ...(track.layers ? { preferredLayers: { spatialLayer: layerFor(INITIAL_PROFILE, track.layers) } } : {}),
            // Resumed by START_CONSUMER, once the receiver can take it.
            paused: true,
            mid: track.producer.kind,
            enableRtx: true,
            appData: { sessionId: id },
          });
        }),
      );
      const consumers = new Map<types.MediaKind, types.Consumer>();
      const described: ConsumedTrack[] = [];
      for (const [index, consumer] of consumed.entries()) {
        const track = tracks[index]!;
        consumers.set(consumer.kind, consumer);
        described.push({ mid: consumer.kind, kind: consumer.kind, rtpParameters: consumer.rtpParameters, streamId: track.streamId, trackId: track.trackId });
      }
      const offer = writeConsumerOffer(String(randomInt(2 ** 47)), transport, described);
      const consumedVideo = tracks.find((track) => track.producer.kind === 'video');
      return new ConsumerSession(options, router, transport, consumers, offer, consumedVideo);
    } catch (error) {
      transport.close();
      throw error;
    }
  }

  get id(): string {
    return this.options.id;
  }

  get source(): Ingest {
    return this.options.source;
  }

  /**
   * The spatial layer of its source's simulcast video it wants now (LAYERS_WANTED): its profile's;
   * none while paused (`off`), without a video, or made ahead and not yet claimed (nobody watches it).
   */
  get wantedVideoLayer(): number | undefined {
    const video = this.consumers.get('video');
    if (!video || video.closed || this.profile === 'off' || this.peerId === undefined) return undefined;
    return PROFILE_SPATIAL_LAYER[this.profile];
  }

  /** Its receiver may still change its first profile (LAYERS_WANTED_GRACE_MS): what it wants is not known yet. */
  get wantUnsettled(): boolean {
    return this.firstProfileGrace !== undefined;
  }

  /** CLAIM_CONSUMER: the receiver of a consumer made ahead; from now on it is like any new consumer. */
  claim(peerId: string): void {
    if (this.peerId !== undefined) throw new ConflictError(`consumer "${this.id}" already has its receiver`);
    this.peerId = peerId;
    this.startFirstProfileGrace();
    this.emit('wanted');
  }

  /** START_CONSUMER: the receiver's answer. */
  async start(answerSdp: string): Promise<void> {
    if (this.started) throw new ConflictError(`consumer "${this.id}" is already started`);
    if (this.peerId === undefined) throw new ConflictError(`consumer "${this.id}" was made ahead and has no receiver yet (CLAIM_CONSUMER)`);
    const answer = readConsumerAnswer(answerSdp, [...this.consumers.keys()]);
    for (const [kind, consumer] of this.consumers) if (!answer.acceptedMids.has(kind)) consumer.close();
    await this.transport.connect({ dtlsParameters: answer.dtlsParameters });
    this.started = true;
    for (const [kind, consumer] of this.consumers) {
      if (consumer.closed || (kind === 'video' && this.profile === 'off')) continue;
      // Resumed within the sender's keyframe interval, the video would ask for a keyframe the sender
      // ignores and get none until mediasoup asks again a second later: it waits the interval out.
      if (kind === 'video') await this.moveVideo(consumer);
      else await consumer.resume();
    }
    this.report();
  }

  /**
   * SET_CONSUMER_PROFILE: a spatial layer for simulcast video, or `off` to pause it. The receiver
   * keeps getting the layer it had until the new one's keyframe arrives (mediasoup switches there).
   */
  async setProfile(profile: ConsumerProfile): Promise<void> {
    this.profile = profile;
    clearTimeout(this.firstProfileGrace);
    this.firstProfileGrace = undefined;
    this.emit('wanted');
    const video = this.consumers.get('video');
    if (!video || video.closed) return;
    if (profile === 'off') {
      await video.pause();
      return;
    }
    await this.moveVideo(video);
  }

  /**
   * The sender stopped a layer, or it arrives again: the video is asked for the profile's layer
   * capped at the highest that arrives, so a receiver on a stopped layer moves down at once (on a
   * keyframe it asks for) instead of getting nothing until mediasoup notices (LAYER_WATCH), and
   * goes back up when it returns.
   */
  private readonly followArrivingLayers = (): void => {
    const video = this.consumers.get('video');
    if (!video || video.closed || this.profile === 'off') return;
    if (video.preferredLayers?.spatialLayer === layerFor(this.profile, this.videoTrack?.layers)) return;
    // A consumer closed meanwhile has no layer left to follow.
    this.moveVideo(video).catch(() => {});
  };

  /**
   * Moves the video to the profile's layer, resumed. Within the sender's keyframe interval the move
   * waits it out (KeyFrameSpacing.whenHeard), off the connection's request queue, and then takes
   * the profile of that moment.
   */
  private async moveVideo(video: types.Consumer): Promise<void> {
    const spacing = this.videoTrack?.keyFrames;
    if (spacing === undefined || spacing.msUntilHeard() === 0) {
      this.cancelLayerMove?.();
      this.cancelLayerMove = undefined;
      await this.applyProfile(video);
      return;
    }
    this.cancelLayerMove ??= spacing.whenHeard(() => {
      this.cancelLayerMove = undefined;
      // Closed or paused meanwhile: there is nothing to move.
      this.applyProfile(video).catch(() => {});
    });
  }

  private async applyProfile(video: types.Consumer): Promise<void> {
    if (video.closed || this.profile === 'off') return;
    const resuming = this.started && video.paused;
    if (video.type === 'simulcast' || video.type === 'svc') {
      const spatialLayer = layerFor(this.profile, this.videoTrack?.layers);
      if (video.preferredLayers?.spatialLayer !== spatialLayer) await video.setPreferredLayers({ spatialLayer });
    }
    if (resuming) await video.resume();
    // The layer switches on a keyframe of the new layer; mediasoup asks for one only once its target
    // layer moves, which going up waits for its bandwidth estimate: ask the sender now. A video
    // already on its layer needs none, and the request would start the sender's keyframe interval,
    // which the next switch would have to wait out.
    if (this.started && (resuming || video.currentLayers?.spatialLayer !== video.preferredLayers?.spatialLayer)) await video.requestKeyFrame();
  }

  /** Closes the transport and its consumers (asked for: no notification). */
  close(): void {
    this.closing = true;
    clearTimeout(this.connectTimer);
    this.cancelLayerMove?.();
    clearTimeout(this.firstProfileGrace);
    this.transport.close();
  }

  stats(): ConsumerStats[] {
    return [...this.consumers].flatMap(([kind, consumer]) =>
      consumer.closed
        ? []
        : [
            {
              id: this.id,
              peerId: this.peerId,
              madeAhead: this.options.peerId === undefined,
              source: this.options.source.id,
              kind,
              consumerId: consumer.id,
              producerId: consumer.producerId,
              routerId: this.router.id,
              type: consumer.type,
              paused: consumer.paused,
              profile: this.profile,
              preferredSpatialLayer: consumer.preferredLayers?.spatialLayer,
              currentSpatialLayer: consumer.currentLayers?.spatialLayer,
              iceState: this.reported ?? 'new',
            },
          ],
    );
  }

  private lose(): void {
    if (this.closing) return;
    this.close();
    this.emitState('closed');
    this.emit('lost');
  }

  /** Maps mediasoup's ice-lite ICE state and DTLS state onto RTCIceConnectionState names. */
  private derive(): ConsumerIceState | undefined {
    const ice = this.transport.iceState;
    const dtls = this.transport.dtlsState;
    if (dtls === 'failed') return 'failed';
    if ((ice === 'connected' || ice === 'completed') && dtls === 'connected') return ice;
    if (this.timedOut) return 'failed';
    if (ice === 'disconnected') return 'disconnected';
    return this.started || ice !== 'new' ? 'checking' : undefined;
  }

  private report(): void {
    if (this.closing) return;
    const state = this.derive();
    if (state && isConsumerIceUp(state)) {
      this.timedOut = false;
      clearTimeout(this.connectTimer);
      this.connectTimer = undefined;
    } else if ((state === 'checking' || state === 'disconnected') && !this.connectTimer) {
      // ice-lite has no failed state of its own: a receiver that never connects is reported failed.
      this.connectTimer = setTimeout(() => {
        this.connectTimer = undefined;
        this.timedOut = true;
        this.report();
      }, this.options.connectTimeoutMs);
      this.connectTimer.unref();
    }
    if (state) this.emitState(state);
  }

  private emitState(state: ConsumerIceState): void {
    if (state === this.reported) return;
    this.reported = state;
    this.emit('icestate', state);
  }
}

/** A consumer asks for the high layer until its receiver says otherwise (SET_CONSUMER_PROFILE). */
const INITIAL_PROFILE = 'high' satisfies ConsumerProfile;

/** The spatial layer a profile asks for, capped at the highest of the sender's layers that arrives (while any does). */
function layerFor(profile: Exclude<ConsumerProfile, 'off'>, layers: LayerWatch | undefined): number {
  const wanted = PROFILE_SPATIAL_LAYER[profile];
  const arriving = layers?.highestArriving;
  return arriving === undefined ? wanted : Math.min(wanted, arriving);
}
