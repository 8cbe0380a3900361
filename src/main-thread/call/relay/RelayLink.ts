import type { Device } from 'mediasoup-client';
import { SESSION_TERMINATION } from '../../../protocol/constants';
import type { SfuServerConfig } from '../../../protocol/config';
import { relayUrlForRoom, type ConsumerIceStateParams } from '../../../protocol/relay';
import type { Clock } from '../../../common/clock';
import type { Logger } from '../../../common/logger';
import { OperationQueue } from '../../../common/OperationQueue';
import { TypedEmitter } from '../../../common/TypedEmitter';
import type { MediaItems, MediaKind } from '../../media';
import type { ShareableMedia } from '../sessionPlan';
import { relayRetryDelayMs } from './backoff';
import { RelayIngest, type IngestTrack } from './RelayIngest';
import { RelayRpcClient } from './RelayRpcClient';
import { errorMessage } from '../../../common/errorMessage';

export interface RelayLinkOptions {
  readonly roomAddress: string;
  readonly media: MediaItems;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly iceServers: readonly RTCIceServer[];
  /** The config's sfuServer, read at each (re)connect: a reconnected session may carry a fresh token. */
  readonly sfuServer: () => SfuServerConfig | undefined;
}

export interface RelayLinkEvents {
  /** The connection, an ingest or a retry moved on: recompute. */
  changed: [];
  /** A connection closed: what it made on the relay (ingests, consumers) is gone with it. */
  lost: [client: RelayRpcClient];
  /** The relay's CONSUMER_ICE_STATE for a consumer made on this connection. */
  consumerIceState: [client: RelayRpcClient, params: ConsumerIceStateParams];
}

/** The connection to the relay, with the mediasoup-client Device loaded for its router. */
export interface Link {
  readonly client: RelayRpcClient;
  readonly device: Device;
}

interface IngestEntry {
  /** The stream id the relay knows it by. */
  readonly id: string;
  ingest: RelayIngest | undefined;
  /** The item ids last synced (sorted), so that an unchanged stream costs nothing. */
  synced: string;
  /** Its first sync has produced every track: consumers offer all of them. */
  produced: boolean;
  /** Its transport has connected at least once (until then the relay is still on its way). */
  connectedOnce: boolean;
  /**
   * Its transport went `disconnected` (the upload stalled: Chromium says so after ~2.5 s without
   * packets) less than SPEC §4's interrupted timeout ago: it still carries its stream meanwhile.
   */
  stalled: boolean;
  stallTimer: unknown;
  /** Its last try failed: the mesh carries the stream until `retryTimer` tries again. */
  failed: boolean;
  /** Tries failed in a row (RELAY_RECONNECT's backoff), until one connects. */
  failures: number;
  retryTimer: unknown;
}

/** An ingest is named after its stream: the camera's stream id (else the first item's), or the screen's. */
function streamIdOf(items: readonly ShareableMedia[]): string {
  return (items.find((item) => item.kind === 'video') ?? items[0])?.streamId ?? crypto.randomUUID();
}

/**
 * The relay path's publishing side (DESIGN "Media paths"): while wanted, one connection to
 * `sfuServer.url` and each shared local stream ingested with mediasoup-client. A socket the network
 * dropped is resumed under it (RelayRpcClient); when the connection ends (the relay died, or did not
 * take the session back) it is reconnected with backoff (RELAY_RECONNECT) and everything ingested
 * again; meanwhile the mesh carries the call.
 */
export class RelayLink extends TypedEmitter<RelayLinkEvents> {
  private current: Link | undefined;
  private connecting = false;
  private retryTimer: unknown;
  private attempts = 0;
  private outageNow = false;
  private readonly queue = new OperationQueue();
  private readonly ingests = new Map<string, IngestEntry>();
  private wantedNow = false;
  private bitrate: number | undefined;
  private closed = false;

  constructor(private readonly options: RelayLinkOptions) {
    super();
  }

  get link(): Link | undefined {
    return this.current;
  }

  get wanted(): boolean {
    return this.wantedNow;
  }

  /** The relay cannot be reached now (the mesh carries the call, a retry is planned). */
  get outage(): boolean {
    return this.outageNow;
  }

  /** Some stream's ingest failed, and is waiting to be tried again (the mesh carries that stream meanwhile). */
  get ingestFailed(): boolean {
    return [...this.ingests.values()].some((entry) => entry.failed);
  }

  /** Some stream goes through the relay now: SPEC §9 counts 1 peer, and the capture takes the relay tier. */
  get inUse(): boolean {
    return this.wantedNow && this.current !== undefined && [...this.ingests.values()].some((entry) => this.carrying(entry));
  }

  /**
   * The relay can carry this stream now: its transport is connected and its first sync done (the
   * transport connects with the first producer, before the stream's other kind is produced).
   */
  ready(streamKey: string): boolean {
    const entry = this.ingests.get(streamKey);
    return this.wantedNow && this.current !== undefined && entry?.produced === true && this.carrying(entry);
  }

  /**
   * The ingest's transport carries its stream: connected, or `disconnected` for less than SPEC §4's
   * interrupted timeout (a disconnected session is ended only once it has stayed so for 5 s; a
   * brief stall must not move every delivery of the stream to the mesh and back).
   */
  private carrying(entry: IngestEntry): boolean {
    return entry.ingest?.connected === true || (entry.ingest !== undefined && entry.stalled);
  }

  /**
   * The relay is wanted and still on its way to carrying this stream for the first time: connecting,
   * the ingest made but not yet connected, or connected with its first track while its first sync
   * still produces the others — not in an outage, the ingest never failed. Meanwhile the call starts
   * no mesh session for it (pathPlan); an outage or a failed ingest ends the wait (an ingest tried
   * again after failing is not waited for: it may fail again).
   */
  pending(streamKey: string): boolean {
    if (!this.wantedNow || this.closed || this.outageNow || !this.options.sfuServer()) return false;
    const entry = this.ingests.get(streamKey);
    return entry === undefined || (entry.failures === 0 && !(entry.connectedOnce && entry.produced));
  }

  /** The senders of the video its ingests produce, over transports that are connected. */
  videoSenders(): RTCRtpSender[] {
    return [...this.ingests.values()].flatMap((entry) => entry.ingest?.videoSender ?? []);
  }

  /** The ingest of a stream: its relay id and the kinds it produces. */
  ingestOf(streamKey: string): { readonly id: string; readonly kinds: readonly MediaKind[] } | undefined {
    const entry = this.ingests.get(streamKey);
    return entry && { id: entry.id, kinds: entry.ingest?.kinds ?? [] };
  }

  /** While wanted: connected, and every shared stream ingested. */
  publish(streams: ReadonlyMap<string, readonly ShareableMedia[]>, wanted: boolean): void {
    if (this.closed) return;
    this.wantedNow = wanted;
    if (!wanted) return;
    this.connect();
    if (this.current) for (const [streamKey, items] of streams) this.ensureIngest(streamKey, items);
  }

  /** Ingests no consumer needs go: a stream no longer shared, or the relay switched off and handed back; then the connection. */
  release(streams: ReadonlyMap<string, readonly ShareableMedia[]>, used: (streamKey: string) => boolean, consumersLeft: boolean): void {
    for (const [streamKey, entry] of [...this.ingests]) {
      if (!used(streamKey) && (!this.wantedNow || !streams.has(streamKey))) this.dispose(streamKey, entry);
    }
    if (!this.wantedNow && !consumersLeft && this.ingests.size === 0) this.disconnect();
  }

  /** SPEC §9: the budget of each sent video, applied to every ingest. */
  setMaxBitrate(bitrate: number): void {
    if (bitrate === this.bitrate) return;
    this.bitrate = bitrate;
    for (const entry of this.ingests.values()) {
      const ingest = entry.ingest;
      if (!ingest) continue;
      this.onLink('set-bitrate', () => ingest.setMaxBitrate(bitrate)).catch((error: unknown) => this.options.logger.info(`relay bitrate not set: ${errorMessage(error)}`));
    }
  }

  /** A camera turned off or on: the ingest that sends it stops or starts its video (RelayIngest.setVideoOff). */
  setVideoOff(itemId: string, off: boolean): void {
    for (const entry of this.ingests.values()) {
      const ingest = entry.ingest;
      if (!ingest) continue;
      this.onLink('video-off', () => ingest.setVideoOff(itemId, off)).catch((error: unknown) => this.options.logger.info(`relay video not ${off ? 'stopped' : 'started'}: ${errorMessage(error)}`));
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wantedNow = false;
    this.options.clock.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const entry of this.ingests.values()) this.closeIngest(entry);
    this.ingests.clear();
    this.queue.close();
    this.current?.client.close();
    this.current = undefined;
  }

  private connect(): void {
    if (this.current || this.connecting || this.retryTimer !== undefined || this.closed) return;
    const config = this.options.sfuServer();
    if (!config) return;
    this.connecting = true;
    void this.open(config).finally(() => {
      this.connecting = false;
      this.emit('changed');
    });
  }

  private async open(config: SfuServerConfig): Promise<void> {
    const { clock, roomAddress, logger } = this.options;
    // Loaded on first use, beside the relay's connection and its capabilities (issue 14, the join
    // path): a call that never reaches the relay's minimum does not download mediasoup-client, and a
    // newcomer to a relay call does not wait for its download after the relay's answer.
    const relayClientCode = import('mediasoup-client');
    // Its failure is read where it is awaited; a connection that failed first never awaits it.
    relayClientCode.catch(() => undefined);
    let client: RelayRpcClient | undefined;
    try {
      client = await RelayRpcClient.connect({ url: relayUrlForRoom(config.url, roomAddress), token: config.password, clock });
      const opened = client;
      opened.on('closed', (error) => this.onClosed(opened, error.message));
      opened.on('consumerIceState', (params) => this.emit('consumerIceState', opened, params));
      opened.on('layersWanted', ({ id, spatialLayer }) => this.onLayersWanted(opened, id, spatialLayer));
      opened.on('messageDropped', (error) => logger.info(`relay: ${error.message}`));
      opened.on('interrupted', (error) => logger.info(`${error.message}; resuming the relay session on a new one`));
      opened.on('resumed', () => logger.info('relay session resumed: its ingests and consumers carried on'));
      const { rtpCapabilities } = await opened.request('GET_ROUTER_CAPABILITIES', { roomAddress });
      const { Device } = await relayClientCode;
      const device = new Device();
      await device.load({ routerRtpCapabilities: rtpCapabilities });
      if (this.closed || !opened.isOpen) {
        opened.close();
        return;
      }
      this.current = { client: opened, device };
      // `attempts` is reset only once an upload connects (ensureIngest): a relay whose signalling
      // works but whose media cannot connect (UDP blocked, no TURN) backs off like an unreachable one.
      if (this.outageNow) logger.info(`media relay reachable again at ${config.url}`);
      this.outageNow = false;
    } catch (error) {
      client?.close();
      this.failed(`media relay at ${config.url} not usable: ${errorMessage(error)}`);
    }
  }

  /** The connection is gone: what it made on the relay is gone with it. */
  private onClosed(client: RelayRpcClient, reason: string): void {
    if (this.current?.client !== client) return;
    this.current = undefined;
    for (const entry of this.ingests.values()) this.closeIngest(entry);
    this.ingests.clear();
    this.emit('lost', client);
    if (!this.closed) this.failed(reason);
    this.emit('changed');
  }

  /** Logs an outage once, and tries again later while the relay is still wanted. */
  private failed(reason: string): void {
    if (this.closed) return;
    if (this.outageNow) this.options.logger.info(reason);
    else this.options.logger.error(`${reason}; the call continues over the mesh`);
    this.outageNow = true;
    if (!this.wantedNow || this.retryTimer !== undefined) return;
    const delay = relayRetryDelayMs(this.attempts, this.options.clock);
    this.attempts += 1;
    this.retryTimer = this.options.clock.setTimeout(() => {
      this.retryTimer = undefined;
      this.emit('changed');
    }, delay);
  }

  private disconnect(): void {
    this.options.clock.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempts = 0;
    this.outageNow = false;
    const link = this.current;
    this.current = undefined;
    link?.client.close();
  }

  private ensureIngest(streamKey: string, items: readonly ShareableMedia[]): void {
    let entry = this.ingests.get(streamKey);
    if (!entry) {
      entry = { id: streamIdOf(items), ingest: undefined, synced: '', produced: false, connectedOnce: false, stalled: false, stallTimer: undefined, failed: false, failures: 0, retryTimer: undefined };
      this.ingests.set(streamKey, entry);
    }
    const ids = items
      .map((item) => item.id)
      .sort()
      .join();
    if (entry.failed || entry.synced === ids) return;
    entry.synced = ids;
    const target = entry;
    const link = this.current;
    if (!link) return;
    this.onLink('ingest', async () => {
      if (this.ingests.get(streamKey) !== target || this.current !== link) return;
      if (!target.ingest) {
        const ingest = await RelayIngest.create({ rpc: link.client, device: link.device, id: target.id, roomAddress: this.options.roomAddress, iceServers: this.options.iceServers });
        if (this.ingests.get(streamKey) !== target || this.current !== link) {
          // Unshared, or the relay no longer wanted, while CREATE_INGEST_TRANSPORT was on its way:
          // dispose found nothing to DISPOSE, so the relay would keep it (counting toward its
          // ingests per user, the stream id refused if ingested again).
          ingest.close();
          if (this.current === link) await this.disposeOnRelay(link, target.id);
          return;
        }
        target.ingest = ingest;
        ingest.on('connectionState', (state) => this.onIngestState(link, target, state));
        if (this.bitrate !== undefined) await ingest.setMaxBitrate(this.bitrate);
      }
      await target.ingest.sync(this.tracksOf(items));
      target.produced = true;
      this.emit('changed');
    }).catch((error: unknown) => {
      if (this.ingests.get(streamKey) !== target || this.current !== link) return;
      // The mesh carries this stream until the ingest is tried again, after a backoff. What it made
      // so far goes, here and on the relay (it would go on encoding, and hold one of the user's
      // ingests there): DISPOSE also when CREATE_INGEST_TRANSPORT failed, which the relay may have
      // done all the same (it timed out), or done nothing (DISPOSE then finds nothing).
      this.closeIngest(target);
      target.ingest = undefined;
      target.produced = false;
      target.failed = true;
      target.synced = '';
      this.options.logger.error(errorMessage(error));
      this.onLink('dispose', () => this.disposeOnRelay(link, target.id)).catch(() => undefined);
      target.retryTimer = this.options.clock.setTimeout(() => {
        target.retryTimer = undefined;
        target.failed = false;
        this.emit('changed');
      }, relayRetryDelayMs(target.failures, this.options.clock));
      target.failures += 1;
      this.emit('changed');
    });
  }

  /** LAYERS_WANTED for one of this connection's ingests: applied in turn with its other steps (both set the sender's parameters). */
  private onLayersWanted(client: RelayRpcClient, id: string, spatialLayer: number): void {
    const ingest = [...this.ingests.values()].find((entry) => entry.id === id)?.ingest;
    if (this.current?.client !== client || !ingest) return;
    this.onLink('layers-wanted', () => ingest.setLayersWanted(spatialLayer)).catch((error: unknown) => this.options.logger.info(`relay layers not set: ${errorMessage(error)}`));
  }

  private tracksOf(items: readonly ShareableMedia[]): IngestTrack[] {
    return items.flatMap((item) => {
      const track = this.options.media.getTrack(item.id);
      return track ? [{ itemId: item.id, kind: item.kind, track, screenCapture: item.screenCapture, off: this.options.media.isOffForOthers(item.id) }] : [];
    });
  }

  private onIngestState(link: Link, entry: IngestEntry, state: string): void {
    if (this.current !== link || entry.ingest === undefined) return;
    if (state === 'connected') {
      entry.connectedOnce = true;
      entry.failures = 0;
      // An upload connected: the relay is usable, and the next outage backs off from the start.
      this.attempts = 0;
    }
    // Disconnected after it connected: it still carries its stream until SPEC §4's interrupted timeout.
    if (state === 'disconnected' && entry.connectedOnce) {
      if (!entry.stalled) {
        entry.stalled = true;
        entry.stallTimer = this.options.clock.setTimeout(() => {
          entry.stalled = false;
          entry.stallTimer = undefined;
          this.emit('changed');
        }, SESSION_TERMINATION.interruptedTimeoutMs);
      }
    } else {
      this.endStall(entry);
    }
    // mediasoup-client's transport does not recover from failed: start the connection over.
    if (state === 'failed') {
      link.client.close();
      return;
    }
    this.emit('changed');
  }

  private endStall(entry: IngestEntry): void {
    this.options.clock.clearTimeout(entry.stallTimer);
    entry.stallTimer = undefined;
    entry.stalled = false;
  }

  private closeIngest(entry: IngestEntry): void {
    this.endStall(entry);
    this.options.clock.clearTimeout(entry.retryTimer);
    entry.retryTimer = undefined;
    entry.ingest?.close();
  }

  private dispose(streamKey: string, entry: IngestEntry): void {
    this.ingests.delete(streamKey);
    this.closeIngest(entry);
    const link = this.current;
    if (link && entry.ingest) this.onLink('dispose', () => this.disposeOnRelay(link, entry.id)).catch(() => undefined);
  }

  /** DISPOSE of an ingest on the relay; a failure is logged (the relay drops it with the connection anyway). */
  private async disposeOnRelay(link: Link, id: string): Promise<void> {
    await link.client.request('DISPOSE', { id }).catch((error: unknown) => this.options.logger.info(`DISPOSE of ${id}: ${errorMessage(error)}`));
  }

  /** Steps on the connection (ingests) run one at a time, in order. */
  private onLink(name: string, step: () => Promise<void>): Promise<void> {
    return this.queue.push(name, step);
  }
}
