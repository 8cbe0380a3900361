import type { types } from 'mediasoup';
import type { IngestTransportResult } from '../../src/protocol/relay';
import { asClientError, ConflictError, LimitExceededError } from './errors';
import { KeyFrameSpacing } from './KeyFrameSpacing';
import { LayerWatch } from './LayerWatch';
import type { RoomDirectory, RoomKey } from './RoomDirectory';
import { planIngest, writeIngestAnswer } from './sdp/ingestOffer';

/** A producer with the browser's ids for it, which consumer offers repeat in `a=msid`. */
export interface IngestTrack {
  readonly producer: types.Producer;
  readonly streamId: string;
  readonly trackId: string;
  /** Simulcast video: which of its layers arrive. */
  readonly layers?: LayerWatch;
  /** Simulcast video: when its sender hears a keyframe request. */
  readonly keyFrames?: KeyFrameSpacing;
}

/** One ingest's figures, for tests and benchmarks. */
export interface IngestStats {
  id: string;
  routerId: string;
  madeBy: 'sdp' | 'client';
  producers: {
    id: string;
    kind: types.MediaKind;
    type: types.ProducerType;
    trackId: string;
    /** Per RTP stream (a simulcast layer each, by rid), mediasoup's 0–10 score of what arrives; absent streams are not listed. */
    scores: { rid: string | undefined; score: number }[];
    /** Simulcast video followed by a consumer: the highest spatial layer arriving now (LayerWatch). */
    highestLayerArriving: number | undefined;
  }[];
}

export interface IngestPlacement {
  /** Every router's capabilities (all routers share one codec list). */
  capabilities: types.RtpCapabilities;
  rooms: RoomDirectory;
  room: RoomKey;
  transportOptions: types.WebRtcTransportOptions;
  maxProducers: number;
}

/**
 * One ingested local stream: a WebRtcTransport that receives it and its producers. Made from
 * an SDP offer (INGEST, the 1.30.3 client) or step by step by mediasoup-client
 * (CREATE_INGEST_TRANSPORT, CONNECT_INGEST_TRANSPORT, PRODUCE). Closing it closes its producers,
 * and with them every consumer of them, pipes included.
 */
export class Ingest {
  private readonly ownTracks: IngestTrack[] = [];

  private constructor(
    readonly id: string,
    readonly router: types.Router,
    readonly transport: types.WebRtcTransport,
    /** How it was made: an SDP offer takes no CONNECT/PRODUCE. */
    readonly madeBy: 'sdp' | 'client',
    private readonly maxProducers: number,
  ) {}

  /** INGEST: receives what the offer sends and returns the relay's answer. */
  static async fromOffer(id: string, sdp: string, placement: IngestPlacement): Promise<{ ingest: Ingest; answer: string }> {
    // Read first: an offer the relay cannot take costs no transport.
    const plan = planIngest(sdp, placement.capabilities, id, placement.maxProducers);
    const { router, transport } = await Ingest.placeTransport(id, placement);
    const ingest = new Ingest(id, router, transport, 'sdp', placement.maxProducers);
    try {
      for (const { kind, rtpParameters, streamId, trackId } of plan.producers) {
        await ingest.addProducer({ kind, rtpParameters, appData: { streamId, trackId } }, streamId, trackId);
      }
      await transport.connect({ dtlsParameters: plan.remoteDtlsParameters });
      return { ingest, answer: writeIngestAnswer(plan, transport) };
    } catch (error) {
      ingest.close();
      throw error;
    }
  }

  /** CREATE_INGEST_TRANSPORT: a transport for mediasoup-client's SendTransport. */
  static async forClient(id: string, placement: IngestPlacement): Promise<Ingest> {
    const { router, transport } = await Ingest.placeTransport(id, placement);
    return new Ingest(id, router, transport, 'client', placement.maxProducers);
  }

  private static placeTransport(
    id: string,
    { rooms, room, transportOptions }: IngestPlacement,
  ): Promise<{ router: types.Router; transport: types.WebRtcTransport }> {
    return rooms.placeTransport(room, undefined, (router) =>
      router.createWebRtcTransport({ ...transportOptions, appData: { role: 'ingest', streamId: id } }),
    );
  }

  get tracks(): readonly IngestTrack[] {
    return this.ownTracks.filter((track) => !track.producer.closed);
  }

  /** The first live track of a kind: what CREATE_CONSUMER consumes. */
  track(kind: types.MediaKind): IngestTrack | undefined {
    return this.tracks.find((track) => track.producer.kind === kind);
  }

  transportParameters(): IngestTransportResult {
    const { iceParameters, iceCandidates, dtlsParameters } = this.transport;
    return { id: this.id, iceParameters, iceCandidates, dtlsParameters };
  }

  async connect(dtlsParameters: types.DtlsParameters): Promise<void> {
    this.expectClientMade('CONNECT_INGEST_TRANSPORT');
    if (this.transport.dtlsState !== 'new') throw new ConflictError(`the ingest transport of "${this.id}" is already connected`);
    await asClientError('CONNECT_INGEST_TRANSPORT refused', () => this.transport.connect({ dtlsParameters }));
  }

  /**
   * PRODUCE; `trackId` is the browser track's id, for consumer offers. mediasoup-client closes a
   * producer without telling the relay (a kind no longer shared), so a kind produced again is the
   * stream's track of that kind from now on: the one it replaces is closed here, and its consumers
   * with it.
   */
  async produce(kind: types.MediaKind, rtpParameters: types.RtpParameters, trackId: string | undefined, appData: Record<string, unknown>): Promise<string> {
    this.expectClientMade('PRODUCE');
    const replaced = this.ownTracks.filter((track) => track.producer.kind === kind);
    const producer = await this.addProducer({ kind, rtpParameters, appData }, this.id, trackId, replaced.length);
    for (const track of replaced) {
      track.producer.close();
      this.ownTracks.splice(this.ownTracks.indexOf(track), 1);
    }
    return producer.id;
  }

  close(): void {
    this.transport.close();
  }

  stats(): IngestStats {
    return {
      id: this.id,
      routerId: this.router.id,
      madeBy: this.madeBy,
      producers: this.tracks.map(({ producer, trackId, layers }) => ({
        id: producer.id,
        kind: producer.kind,
        type: producer.type,
        trackId,
        scores: producer.score.map(({ rid, score }) => ({ rid, score })),
        highestLayerArriving: layers?.highestArriving,
      })),
    };
  }

  /** A track of the stream; `replacing` of its tracks go once it is made, and do not count against the bound. */
  private async addProducer(options: types.ProducerOptions, streamId: string, trackId: string | undefined, replacing = 0): Promise<types.Producer> {
    if (this.ownTracks.length - replacing >= this.maxProducers) throw new LimitExceededError(`a stream has at most ${this.maxProducers} tracks`);
    const producer = await asClientError(`${options.kind} producer refused`, () => this.transport.produce(options));
    const simulcast = producer.type === 'simulcast' ? { layers: new LayerWatch(producer), keyFrames: new KeyFrameSpacing(producer) } : {};
    this.ownTracks.push({ producer, streamId, trackId: trackId ?? producer.id, ...simulcast });
    return producer;
  }

  private expectClientMade(method: string): void {
    if (this.madeBy !== 'client') throw new ConflictError(`stream "${this.id}" was ingested from an SDP offer; ${method} is for CREATE_INGEST_TRANSPORT streams`);
  }
}
