import type { Device } from 'mediasoup-client';
import type { ConnectionState, Producer, Transport } from 'mediasoup-client/types';
import type { MediaKind } from '../../media';
import { TypedEmitter } from '../../../common/TypedEmitter';
import { SCREEN_SOUND_BITRATE_BPS, VIDEO_START_BITRATE_KBPS } from '../../../protocol/clientDefaults';
import { RelayIngestError } from './errors';
import type { RelayRpcClient } from './RelayRpcClient';
import { cameraEncodings, screenEncodings } from './simulcast';

/** One local item an ingest sends. */
export interface IngestTrack {
  readonly itemId: string;
  readonly kind: MediaKind;
  readonly track: MediaStreamTrack;
  readonly screenCapture: boolean;
  /** A camera off for the others (turned off, or stopped by the system: `offForOthers`): its video is not sent. */
  readonly off: boolean;
}

export interface RelayIngestOptions {
  readonly rpc: RelayRpcClient;
  readonly device: Device;
  /** The stream id: CREATE_CONSUMER's `source`, DISPOSE's id, and the msid stream receivers see. */
  readonly id: string;
  readonly roomAddress: string;
  readonly iceServers: readonly RTCIceServer[];
}

export interface RelayIngestEvents {
  /** The send transport's ICE+DTLS state (mediasoup-client's connectionstatechange). */
  connectionState: [state: ConnectionState];
}

interface Produced {
  readonly itemId: string;
  readonly producer: Producer;
}

/**
 * One shared local stream ingested into the relay with mediasoup-client (DESIGN "Media paths"):
 * a SendTransport over CREATE_INGEST_TRANSPORT / CONNECT_INGEST_TRANSPORT / PRODUCE, a camera
 * in simulcast low / medium / high, a screen in one encoding, audio as it is. Tracks stay the
 * media items' (the mesh may send them too): producers never stop them.
 */
export class RelayIngest extends TypedEmitter<RelayIngestEvents> {
  private readonly produced = new Map<MediaKind, Produced>();
  private maxBitrate: number | undefined;
  /** The highest camera layer anyone watches (LAYERS_WANTED); every layer is sent until the relay says. */
  private layersWanted: number | undefined;
  /** The video is a camera turned off: no layer is sent. */
  private videoOff = false;

  private constructor(
    private readonly options: RelayIngestOptions,
    private readonly transport: Transport,
  ) {
    super();
    const { rpc, id } = options;
    transport.on('connect', ({ dtlsParameters }, done, fail) => {
      rpc.request('CONNECT_INGEST_TRANSPORT', { id, dtlsParameters }).then(() => done(), fail);
    });
    transport.on('produce', ({ kind, rtpParameters, appData }, done, fail) => {
      rpc.request('PRODUCE', { id, kind, rtpParameters, appData }).then(({ producerId }) => done({ id: producerId }), fail);
    });
    transport.on('connectionstatechange', (state) => this.emit('connectionState', state));
  }

  static async create(options: RelayIngestOptions): Promise<RelayIngest> {
    try {
      const parameters = await options.rpc.request('CREATE_INGEST_TRANSPORT', { id: options.id, roomAddress: options.roomAddress });
      const transport = options.device.createSendTransport({ ...parameters, iceServers: [...options.iceServers] });
      return new RelayIngest(options, transport);
    } catch (error) {
      throw new RelayIngestError(options.id, error);
    }
  }

  get id(): string {
    return this.options.id;
  }

  get connected(): boolean {
    return this.transport.connectionState === 'connected';
  }

  /** The sender of the video it produces, while its transport is connected. */
  get videoSender(): RTCRtpSender | undefined {
    return this.connected ? this.produced.get('video')?.producer.rtpSender : undefined;
  }

  /** The kinds it sends now. */
  get kinds(): MediaKind[] {
    return [...this.produced.keys()];
  }

  /**
   * Brings the producers in line with the stream's items: a new kind is produced, a new item of a
   * kind swaps its track (no renegotiation), a kind no longer shared is closed.
   */
  async sync(tracks: readonly IngestTrack[]): Promise<void> {
    try {
      for (const [kind, { producer }] of [...this.produced]) {
        if (tracks.some((track) => track.kind === kind)) continue;
        producer.close();
        this.produced.delete(kind);
      }
      for (const track of tracks) {
        const current = this.produced.get(track.kind);
        if (current?.itemId === track.itemId) continue;
        if (track.kind === 'video') this.videoOff = track.off;
        if (current) {
          await current.producer.replaceTrack({ track: track.track });
          this.produced.set(track.kind, { itemId: track.itemId, producer: current.producer });
          await this.applyEncodings();
        } else {
          this.produced.set(track.kind, { itemId: track.itemId, producer: await this.produce(track) });
        }
      }
    } catch (error) {
      throw new RelayIngestError(this.id, error);
    }
  }

  /** SPEC §9 with the relay: the budget of each sent video (counting 1 peer), spread over its layers. */
  async setMaxBitrate(maxBitrate: number): Promise<void> {
    this.maxBitrate = maxBitrate;
    await this.applyEncodings();
  }

  /**
   * LAYERS_WANTED: the camera encodes its layers up to `spatialLayer` and pauses those above, which
   * no receiver watches (each tile asks for the layer its size needs): a 720p layer nobody shows
   * costs the sender's encoder most of its work. Asked again, a paused layer starts on a keyframe.
   */
  async setLayersWanted(spatialLayer: number): Promise<void> {
    this.layersWanted = spatialLayer;
    await this.applyEncodings();
  }

  /**
   * A camera turned off sends nothing, rather than the black frames of its disabled track: its
   * receivers see its video stop even when its Jingle mute cannot reach them (signalling down,
   * issue 13; receive/CamerasByFrames). Turned on, its layers start again on a keyframe.
   */
  async setVideoOff(itemId: string, off: boolean): Promise<void> {
    if (this.produced.get('video')?.itemId !== itemId) return;
    this.videoOff = off;
    await this.applyEncodings();
  }

  /** Closes the transport and its producers (the relay's side goes with DISPOSE or the connection). */
  close(): void {
    this.transport.close();
    this.produced.clear();
  }

  private produce(track: IngestTrack): Promise<Producer> {
    const video = track.kind === 'video';
    // The relay counts a new video as sending every layer until it says otherwise (LAYERS_WANTED).
    if (video) this.layersWanted = undefined;
    return this.transport.produce({
      track: track.track,
      stopTracks: false,
      ...(video ? { encodings: this.encodings(track.screenCapture), codecOptions: { videoGoogleStartBitrate: VIDEO_START_BITRATE_KBPS } } : {}),
      // A screen's sound in stereo (its consumers' offers then say so: sprop-stereo), at a music bitrate.
      ...(!video && track.screenCapture ? { codecOptions: { opusStereo: true, opusMaxAverageBitrate: SCREEN_SOUND_BITRATE_BPS } } : {}),
      // trackId: the id receivers see in a=msid (src/protocol/relay.ts); screenCapture: which encodings it has.
      appData: { trackId: track.track.id, screenCapture: track.screenCapture },
    });
  }

  private encodings(screenCapture: boolean) {
    const encodings = screenCapture ? screenEncodings(this.maxBitrate) : cameraEncodings(this.maxBitrate, this.layersWanted);
    return this.videoOff ? encodings.map((encoding) => ({ ...encoding, active: false })) : encodings;
  }

  /** Brings the sent video's encodings (budget, layers sent) in line with `encodings()`; nothing when they are. */
  private async applyEncodings(): Promise<void> {
    const video = this.produced.get('video');
    const sender = video?.producer.rtpSender;
    if (!video || !sender) return;
    const wanted = this.encodings(video.producer.appData.screenCapture === true);
    const parameters = sender.getParameters();
    const same = (encoding: RTCRtpEncodingParameters, index: number) =>
      (wanted[index]?.maxBitrate === undefined || encoding.maxBitrate === wanted[index].maxBitrate) && encoding.active === (wanted[index]?.active ?? true);
    if (parameters.encodings.every(same)) return;
    parameters.encodings.forEach((encoding, index) => {
      const bitrate = wanted[index]?.maxBitrate;
      if (bitrate !== undefined) encoding.maxBitrate = bitrate;
      encoding.active = wanted[index]?.active ?? true;
    });
    await sender.setParameters(parameters);
  }
}
