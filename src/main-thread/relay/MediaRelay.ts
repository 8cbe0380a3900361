import type { createStore } from 'jotai';
import type { Device } from 'mediasoup-client';
import type { Stanzas } from 'stanza';
import type { SessionManager, Session as BaseSession } from 'stanza/jingle';
import type { SfuServerConfig } from '../../protocol/config';
import { SESSION_TERMINATION } from '../../protocol/constants';
import type { Peer } from '../../protocol/entities';
import type { ConsumerIceStateParams } from '../../protocol/relay';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { connectionsAtom } from '../call/callAtoms';
import type { CallSignaling } from '../call/CallSignaling';
import type { Connection, SessionConnectionState, SessionState } from '../call/Connection';
import { describeTracks, type MediaDescription } from '../call/descriptionInfo';
import { groupIntoStreams, type PlannedSession, type ShareableMedia } from '../call/sessionPlan';
import { terminationOutcome } from '../call/termination';
import { OperationQueue } from '../../common/OperationQueue';
import { TypedEmitter } from '../../common/TypedEmitter';
import type { MediaItem, MediaItems } from '../media';
import { roomByAddressAtomFamily } from '../sessionAtoms';
import type { PathHandover } from './PathHandover';
import { planPaths } from './pathPlan';
import { relayStatusAtom, type RelayState } from './relayAtoms';
import { RelayConsumer, type RelayDelivery } from './RelayConsumer';
import { RelayIngest, type IngestTrack } from './RelayIngest';
import { RelayJingleSession } from './RelayJingleSession';
import { relayOfferToJingle } from './relayJingle';
import { RelayRpcClient } from './RelayRpcClient';

type JotaiStore = ReturnType<typeof createStore>;

/** Reconnecting after the relay went away or refused us: 1 s, doubling to at most 8 s, plus up to 0.5 s of jitter. */
export const RELAY_RECONNECT = { firstDelayMs: 1_000, maxDelayMs: 8_000, jitterMs: 500 } as const;

export interface MediaRelayOptions {
  readonly roomAddress: string;
  /** The room's record (its rid) is read from the mirrored state; relay sessions are written to connectionsAtom and the room's relayStatusAtom entry. */
  readonly store: JotaiStore;
  /** The call's SessionManager: relay Jingle sessions live beside the mesh ones. */
  readonly manager: SessionManager;
  readonly signaling: CallSignaling;
  readonly media: MediaItems;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly handover: PathHandover;
  readonly iceServers: readonly RTCIceServer[];
  /** The config's sfuServer, read at each (re)connect: a reconnected session may carry a fresh token. */
  readonly sfuServer: () => SfuServerConfig | undefined;
}

export interface RelayFollowInput {
  /** SPEC §4's switch is on and we are in the call. */
  readonly wanted: boolean;
  /** Every (peer, stream) delivery the call should make, whichever path carries it. */
  readonly plan: readonly PlannedSession[];
  readonly shared: readonly ShareableMedia[];
  /** The room's remote peers (their ids are CREATE_CONSUMER's peerId). */
  readonly peers: readonly Peer[];
  /** A mesh session runs (or starts) for a plan key. */
  readonly meshExists: (key: string) => boolean;
  /** The mesh session of a plan key has been connected for the handover grace. */
  readonly meshEstablished: (key: string) => boolean;
}

export interface MediaRelayEvents {
  /** Something the plan depends on changed (connection, ingest, consumer): recompute. */
  changed: [];
}

interface Link {
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
  failed: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An ingest is named after its stream: the camera's stream id (else the first item's), or the screen's. */
function streamIdOf(items: readonly ShareableMedia[]): string {
  return (items.find((item) => item.kind === 'video') ?? items[0])?.streamId ?? crypto.randomUUID();
}

/**
 * The relay side of one room's call, in the tab that runs it (DESIGN "Media paths"): while the
 * switch is on, one connection to `sfuServer.url`, each shared local stream ingested with
 * mediasoup-client, and once an ingest connects one consumer per receiving peer, whose offer goes
 * to the peer as an ordinary Jingle session-initiate. `follow` is called on every recompute with
 * the whole plan; it returns the deliveries the mesh must carry (planPaths), so the engine keeps
 * mesh sessions exactly while the relay cannot (yet) carry them. When the relay dies it is
 * reconnected with backoff and everything is ingested and consumed again; meanwhile the mesh
 * carries the call.
 */
export class MediaRelay extends TypedEmitter<MediaRelayEvents> {
  private link: Link | undefined;
  private connecting = false;
  private retryTimer: unknown;
  private attempts = 0;
  private outage = false;
  private readonly linkQueue = new OperationQueue();
  private readonly ingests = new Map<string, IngestEntry>();
  private readonly consumers = new Map<string, RelayConsumer>();
  /** Plan keys held back after a consumer session failed (SPEC §4's recompute delays, as for the mesh). */
  private readonly held = new Map<string, unknown>();
  private wanted = false;
  private bitrate: number | undefined;
  private closed = false;
  private readonly unsubscribes: (() => void)[] = [];

  constructor(private readonly options: MediaRelayOptions) {
    super();
    const publish = (session: BaseSession): void => {
      const consumer = this.bySid(session.sid);
      if (consumer) this.publishConnection(consumer);
    };
    options.manager.on('sessionState', publish);
    options.manager.on('connectionState', publish);
    this.unsubscribes.push(() => {
      options.manager.off('sessionState', publish);
      options.manager.off('connectionState', publish);
    });
  }

  /** Some stream goes through the relay now: SPEC §9 counts 1 peer, and the capture takes the relay tier. */
  get inUse(): boolean {
    return this.wanted && this.link !== undefined && [...this.ingests.values()].some((entry) => entry.ingest?.connected === true);
  }

  /** Brings the relay side up to date with the plan; returns the plan keys the mesh must carry. */
  follow(input: RelayFollowInput): ReadonlySet<string> {
    if (this.closed) return new Set(input.plan.map((session) => session.key));
    this.wanted = input.wanted && input.plan.length > 0;
    const streams = groupIntoStreams(input.shared);
    if (this.wanted) this.connect();
    if (this.wanted && this.link) for (const [streamKey, items] of streams) this.ensureIngest(streamKey, items);

    const paths = planPaths({
      planned: input.plan,
      relayReady: (streamKey) => this.ready(streamKey),
      relayExists: (key) => this.consumers.has(key),
      relayEstablished: (key) => {
        const consumer = this.consumers.get(key);
        return consumer !== undefined && !consumer.dead && this.options.handover.established('relay', key);
      },
      meshExists: input.meshExists,
      meshEstablished: input.meshEstablished,
    });

    for (const consumer of [...this.consumers.values()]) if (!paths.relay.has(consumer.key)) this.drop(consumer);
    const peerIds = new Map(input.peers.map((peer) => [peer.address, peer.id]));
    for (const session of input.plan) {
      if (!paths.relay.has(session.key)) continue;
      const delivery: RelayDelivery = { ...session, peerId: peerIds.get(session.peerAddress) ?? session.peerAddress };
      this.followConsumer(delivery);
    }

    // Ingests go once no consumer needs them: a stream no longer shared, or the relay switched off and handed back.
    for (const [streamKey, entry] of [...this.ingests]) {
      const used = [...this.consumers.values()].some((consumer) => consumer.delivery.streamKey === streamKey);
      if (!used && (!this.wanted || !streams.has(streamKey))) this.dispose(streamKey, entry);
    }
    if (!this.wanted && this.consumers.size === 0 && this.ingests.size === 0) this.disconnect();
    this.publishStatus();
    return paths.mesh;
  }

  /** SPEC §9: the budget of each sent video, applied to every ingest. */
  setMaxBitrate(bitrate: number): void {
    if (bitrate === this.bitrate) return;
    this.bitrate = bitrate;
    for (const entry of this.ingests.values()) {
      const ingest = entry.ingest;
      if (!ingest) continue;
      this.onLink('set-bitrate', () => ingest.setMaxBitrate(bitrate)).catch((error: unknown) => this.options.logger.info(`relay bitrate not set: ${messageOf(error)}`));
    }
  }

  /** SPEC §4: muting a local item tells the receivers of every relay session that sends it. */
  signalMute(item: MediaItem, muted: boolean): void {
    for (const consumer of this.consumers.values()) {
      if (!consumer.delivery.media.some((sent) => sent.id === item.id)) continue;
      this.run(consumer, muted ? 'mute' : 'unmute', async () => {
        await consumer.session?.setMuted(item.kind, muted);
      });
    }
  }

  /** Ends every relay session and the connection (closing it closes everything the relay made for it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wanted = false;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.options.clock.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const timer of this.held.values()) this.options.clock.clearTimeout(timer);
    this.held.clear();
    for (const consumer of [...this.consumers.values()]) this.drop(consumer);
    for (const entry of this.ingests.values()) entry.ingest?.close();
    this.ingests.clear();
    this.linkQueue.close();
    this.link?.client.close();
    this.link = undefined;
    this.options.store.set(relayStatusAtom, (statuses) => {
      const rest = { ...statuses };
      delete rest[this.options.roomAddress];
      return rest;
    });
  }

  // ------------------------------------------------------------------------------------------
  // The connection
  // ------------------------------------------------------------------------------------------

  /**
   * The relay can carry this stream now: its transport is connected and its first sync done (the
   * transport connects with the first producer, before the stream's other kind is produced).
   */
  private ready(streamKey: string): boolean {
    const entry = this.ingests.get(streamKey);
    return this.wanted && this.link !== undefined && entry?.produced === true && entry.ingest?.connected === true;
  }

  private connect(): void {
    if (this.link || this.connecting || this.retryTimer !== undefined || this.closed) return;
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
    let client: RelayRpcClient | undefined;
    try {
      client = await RelayRpcClient.connect({ url: config.url, token: config.password, clock });
      const opened = client;
      opened.on('closed', (error) => this.onLinkClosed(opened, error.message));
      opened.on('consumerIceState', (params) => this.onIceState(opened, params));
      opened.on('messageDropped', (error) => logger.info(`relay: ${error.message}`));
      const { rtpCapabilities } = await opened.request('GET_ROUTER_CAPABILITIES', { roomAddress });
      // Loaded on first use: a call that never reaches the relay's minimum does not download mediasoup-client.
      const { Device } = await import('mediasoup-client');
      const device = new Device();
      await device.load({ routerRtpCapabilities: rtpCapabilities });
      if (this.closed || !opened.isOpen) {
        opened.close();
        return;
      }
      this.link = { client: opened, device };
      this.attempts = 0;
      if (this.outage) logger.info(`media relay reachable again at ${config.url}`);
      this.outage = false;
    } catch (error) {
      client?.close();
      this.failed(`media relay at ${config.url} not usable: ${messageOf(error)}`);
    }
  }

  /** The connection is gone: what it made on the relay is gone with it. */
  private onLinkClosed(client: RelayRpcClient, reason: string): void {
    if (this.link?.client !== client) return;
    this.link = undefined;
    for (const entry of this.ingests.values()) entry.ingest?.close();
    this.ingests.clear();
    for (const consumer of this.consumers.values()) {
      if (consumer.rpc !== client) continue;
      consumer.dead = true;
      this.options.handover.lost('relay', consumer.key);
    }
    if (!this.closed) this.failed(reason);
    this.emit('changed');
  }

  /** Logs an outage once, and tries again later while the relay is still wanted. */
  private failed(reason: string): void {
    if (this.closed) return;
    if (this.outage) this.options.logger.info(reason);
    else this.options.logger.error(`${reason}; the call continues over the mesh`);
    this.outage = true;
    if (!this.wanted || this.retryTimer !== undefined) return;
    const { firstDelayMs, maxDelayMs, jitterMs } = RELAY_RECONNECT;
    const delay = Math.min(firstDelayMs * 2 ** this.attempts, maxDelayMs) + Math.floor(this.options.clock.random() * jitterMs);
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
    this.outage = false;
    const link = this.link;
    this.link = undefined;
    link?.client.close();
  }

  // ------------------------------------------------------------------------------------------
  // Ingests
  // ------------------------------------------------------------------------------------------

  private ensureIngest(streamKey: string, items: readonly ShareableMedia[]): void {
    let entry = this.ingests.get(streamKey);
    if (!entry) {
      entry = { id: streamIdOf(items), ingest: undefined, synced: '', produced: false, failed: false };
      this.ingests.set(streamKey, entry);
    }
    const ids = items
      .map((item) => item.id)
      .sort()
      .join();
    if (entry.failed || entry.synced === ids) return;
    entry.synced = ids;
    const current = entry;
    const link = this.link;
    if (!link) return;
    this.onLink('ingest', async () => {
      if (this.ingests.get(streamKey) !== current || this.link !== link) return;
      if (!current.ingest) {
        const ingest = await RelayIngest.create({ rpc: link.client, device: link.device, id: current.id, roomAddress: this.options.roomAddress, iceServers: this.options.iceServers });
        current.ingest = ingest;
        ingest.on('connectionState', (state) => this.onIngestState(link, state));
        if (this.bitrate !== undefined) await ingest.setMaxBitrate(this.bitrate);
      }
      await current.ingest.sync(this.tracksOf(items));
      current.produced = true;
      this.emit('changed');
    }).catch((error: unknown) => {
      if (this.ingests.get(streamKey) !== current || this.link !== link) return;
      // The mesh keeps carrying this stream; the ingest is tried again on the next connection.
      current.failed = true;
      this.options.logger.error(messageOf(error));
      this.emit('changed');
    });
  }

  private tracksOf(items: readonly ShareableMedia[]): IngestTrack[] {
    return items.flatMap((item) => {
      const track = this.options.media.getTrack(item.id);
      return track ? [{ itemId: item.id, kind: item.kind, track, screenCapture: item.screenCapture }] : [];
    });
  }

  private onIngestState(link: Link, state: string): void {
    if (this.link !== link) return;
    // mediasoup-client's transport does not recover from failed: start the connection over.
    if (state === 'failed') {
      link.client.close();
      return;
    }
    this.emit('changed');
  }

  private dispose(streamKey: string, entry: IngestEntry): void {
    this.ingests.delete(streamKey);
    entry.ingest?.close();
    const link = this.link;
    if (link && entry.ingest) {
      this.onLink('dispose', async () => {
        await link.client.request('DISPOSE', { id: entry.id });
      }).catch((error: unknown) => this.options.logger.info(`DISPOSE of ${entry.id}: ${messageOf(error)}`));
    }
  }

  /** Steps on the connection (ingests) run one at a time, in order. */
  private onLink(name: string, step: () => Promise<void>): Promise<void> {
    return this.linkQueue.push(name, step);
  }

  // ------------------------------------------------------------------------------------------
  // Consumers
  // ------------------------------------------------------------------------------------------

  private followConsumer(delivery: RelayDelivery): void {
    const existing = this.consumers.get(delivery.key);
    // Made on a connection that died: once the relay is back, a consumer on the new connection replaces it.
    if (existing?.dead && this.ready(delivery.streamKey)) this.drop(existing);
    else if (existing) {
      const kinds = (media: readonly ShareableMedia[]) =>
        media
          .map((item) => item.kind)
          .sort()
          .join();
      if (kinds(existing.delivery.media) !== kinds(delivery.media)) {
        // A kind added or dropped: the offer changes, so the consumer is made anew (the mesh covers the gap).
        this.drop(existing);
      } else {
        const replaced = delivery.media.some((item) => !existing.delivery.media.some((other) => other.id === item.id));
        existing.delivery = delivery;
        if (replaced) this.run(existing, 'describe', () => this.describe(existing));
        return;
      }
    }
    const link = this.link;
    const entry = this.ingests.get(delivery.streamKey);
    if (!link || !entry || !this.ready(delivery.streamKey) || this.held.has(delivery.key)) return;
    // A kind shared since the ingest's last sync is produced first: the offer must carry it.
    const produced = entry.ingest?.kinds ?? [];
    if (!delivery.media.every((item) => produced.includes(item.kind))) return;
    const consumer = new RelayConsumer(crypto.randomUUID(), delivery, entry.id, link.client);
    this.consumers.set(delivery.key, consumer);
    this.run(consumer, 'create', () => this.offer(consumer));
  }

  /** CREATE_CONSUMER, then the offer to the receiver as a session-initiate, then names and mute state. */
  private async offer(consumer: RelayConsumer): Promise<void> {
    const { delivery, rpc, sid } = consumer;
    const { sdp } = await rpc.request('CREATE_CONSUMER', {
      id: sid,
      peerId: delivery.peerId,
      roomAddress: this.options.roomAddress,
      // PROTOCOL.md: the room's <user rid>. A server that sends none still gets relayed calls: the
      // relay only records roomId, and the address names the room as well.
      roomId: this.options.store.get(roomByAddressAtomFamily(this.options.roomAddress))?.rid ?? this.options.roomAddress,
      source: consumer.source,
      audio: consumer.kinds.includes('audio'),
      video: consumer.kinds.includes('video'),
    });
    if (this.consumers.get(consumer.key) !== consumer) {
      await rpc.request('REMOVE_CONSUMER', { id: sid });
      return;
    }
    // Set before START_CONSUMER, the receiver's last request applies from the first frame.
    if (consumer.profile !== undefined && consumer.profile !== 'high') await rpc.request('SET_CONSUMER_PROFILE', { id: sid, profile: consumer.profile });
    const session = new RelayJingleSession({
      parent: this.options.manager,
      sid,
      peerID: delivery.peerAddress,
      onAnswer: (answered, answer) => this.onAnswer(answered, answer),
      onDescription: (described, descriptions) => this.onDescription(described, descriptions),
      onEnded: (ended, reason) => this.onEnded(ended, reason),
    });
    this.options.manager.addSession(session);
    consumer.session = session;
    this.publishConnection(consumer);
    await session.offer(relayOfferToJingle(sdp));
    await this.describe(consumer);
  }

  /** PROTOCOL.md: after the initiate, names and screen marks; then the mute state, as on the mesh. */
  private async describe(consumer: RelayConsumer): Promise<void> {
    const session = consumer.session;
    if (!session) return;
    const { media } = this.options;
    const contents = describeTracks(
      consumer.delivery.media.map((item) => ({
        kind: item.kind,
        trackId: media.getTrack(item.id)?.id ?? item.id,
        name: media.get(item.id)?.name,
        screenCapture: item.screenCapture,
      })),
    );
    if (contents.length > 0) await session.sendDescriptionInfo(contents);
    for (const item of consumer.delivery.media) if (media.get(item.id)?.localDisabled) await session.setMuted(item.kind, true);
  }

  private onAnswer(session: RelayJingleSession, sdp: string): void {
    const consumer = this.bySid(session.sid);
    if (!consumer || consumer.session !== session) return;
    this.run(consumer, 'start', async () => {
      if (consumer.dead || consumer.session !== session) return;
      try {
        await consumer.rpc.request('START_CONSUMER', { id: consumer.sid, sdp });
      } catch (error) {
        this.options.logger.error(`relay consumer ${consumer.sid} for ${consumer.delivery.peerAddress} not started: ${messageOf(error)}`);
        session.end('failed-application');
      }
    });
  }

  /** The receiver's quality request: on a relay session it is SET_CONSUMER_PROFILE (PROTOCOL.md). */
  private onDescription(session: RelayJingleSession, descriptions: readonly MediaDescription[]): void {
    const consumer = this.bySid(session.sid);
    const profile = descriptions.find((description) => description.kind === 'video' && description.profile !== undefined)?.profile;
    if (!consumer || profile === undefined) return;
    consumer.profile = profile;
    this.run(consumer, 'set-profile', async () => {
      if (!consumer.dead) await consumer.rpc.request('SET_CONSUMER_PROFILE', { id: consumer.sid, profile });
    });
  }

  private onIceState(client: RelayRpcClient, { id, iceConnectionState }: ConsumerIceStateParams): void {
    const consumer = this.bySid(id);
    if (!consumer || consumer.rpc !== client || consumer.dead) return;
    consumer.session?.setRelayIceState(iceConnectionState);
    const { handover } = this.options;
    switch (iceConnectionState) {
      case 'connected':
      case 'completed':
        handover.connected('relay', consumer.key);
        this.publishStatus();
        break;
      case 'failed':
        handover.lost('relay', consumer.key);
        this.restart(consumer);
        this.emit('changed');
        break;
      case 'closed':
        // Its source's media went away on the relay: made anew if still wanted.
        handover.lost('relay', consumer.key);
        this.drop(consumer);
        this.emit('changed');
        break;
      default:
        break;
    }
  }

  /**
   * PROTOCOL.md: on `failed` the sender asks again with CREATE_CONSUMER for the same id. The
   * receiver's connection cannot take a new transport within its session, so the old session is
   * terminated (and its termination acknowledged) before the new offer goes out under the same sid.
   */
  private restart(consumer: RelayConsumer): void {
    this.run(consumer, 'restart', async () => {
      const old = consumer.session;
      if (this.consumers.get(consumer.key) !== consumer || consumer.dead) return;
      consumer.restarting = true;
      consumer.session = undefined;
      if (old) {
        old.end('failed-transport', true);
        await this.options.signaling
          .send({ type: 'set', to: old.peerID, jingle: { action: 'session-terminate', sid: old.sid, reason: { condition: 'failed-transport' } } })
          .catch(() => undefined);
      }
      consumer.restarting = false;
      await this.offer(consumer);
    });
  }

  private onEnded(session: RelayJingleSession, reason: Stanzas.JingleReason | undefined): void {
    const consumer = this.bySid(session.sid);
    this.unpublishConnection(session.sid);
    if (!consumer || consumer.restarting || (consumer.session !== undefined && consumer.session !== session)) return;
    this.forget(consumer);
    const outcome = terminationOutcome(reason);
    if (!consumer.ending && !consumer.dead && outcome.failed && !this.closed) {
      // The receiver refused or failed it: as on the mesh, that delivery is held back a while.
      this.options.logger.error(`relay session ${session.sid} with ${session.peerID} ended: ${reason?.condition ?? 'unknown'}`);
      this.hold(consumer.key, outcome.recomputeAfterMs ?? SESSION_TERMINATION.recomputeAfterOtherErrorMs);
    }
    this.emit('changed');
  }

  /** Ends a consumer we no longer want: its Jingle session (the receiver's mesh has taken over) and the relay's side. */
  private drop(consumer: RelayConsumer): void {
    consumer.ending = true;
    if (consumer.session && consumer.session.state !== 'ended') {
      consumer.session.end('success');
      return;
    }
    this.forget(consumer);
  }

  private forget(consumer: RelayConsumer): void {
    if (this.consumers.get(consumer.key) === consumer) this.consumers.delete(consumer.key);
    consumer.queue.close();
    this.options.handover.lost('relay', consumer.key);
    if (consumer.dead || !consumer.rpc.isOpen) return;
    consumer.rpc.request('REMOVE_CONSUMER', { id: consumer.sid }).catch((error: unknown) => this.options.logger.info(`REMOVE_CONSUMER ${consumer.sid}: ${messageOf(error)}`));
  }

  private hold(key: string, delayMs: number): void {
    this.options.clock.clearTimeout(this.held.get(key));
    this.held.set(
      key,
      this.options.clock.setTimeout(() => {
        this.held.delete(key);
        this.emit('changed');
      }, delayMs),
    );
  }

  private bySid(sid: string): RelayConsumer | undefined {
    for (const consumer of this.consumers.values()) if (consumer.sid === sid) return consumer;
    return undefined;
  }

  /** Runs a consumer step on its queue; a failure is logged and the consumer given up (the mesh carries its delivery). */
  private run(consumer: RelayConsumer, name: string, step: () => Promise<void>): void {
    consumer.queue.push(name, step).catch((error: unknown) => {
      if (this.consumers.get(consumer.key) !== consumer || this.closed) return;
      // Its connection died under it: that outage is logged once already.
      if (!consumer.dead) {
        this.options.logger.error(`relay ${name} for ${consumer.delivery.peerAddress} failed: ${messageOf(error)}`);
        this.hold(consumer.key, SESSION_TERMINATION.recomputeAfterOtherErrorMs);
      }
      this.drop(consumer);
      this.emit('changed');
    });
  }

  // ------------------------------------------------------------------------------------------
  // What the UI reads
  // ------------------------------------------------------------------------------------------

  private publishConnection(consumer: RelayConsumer): void {
    const session = consumer.session;
    if (!session || session.state === 'ended') return;
    const connection: Connection = {
      id: session.sid,
      peerAddress: session.peerID,
      roomAddress: this.options.roomAddress,
      connectionState: session.connectionState as SessionConnectionState,
      sessionState: session.state as SessionState,
      sendingAudioMediaId: consumer.sentOf('audio')?.id,
      sendingVideoMediaId: consumer.sentOf('video')?.id,
      receivingAudioMediaId: undefined,
      receivingVideoMediaId: undefined,
      restarting: consumer.restarting,
    };
    this.options.store.set(connectionsAtom, (connections) => ({ ...connections, [session.sid]: connection }));
  }

  private unpublishConnection(sid: string): void {
    this.options.store.set(connectionsAtom, (connections) => {
      if (!(sid in connections)) return connections;
      const rest = { ...connections };
      delete rest[sid];
      return rest;
    });
  }

  private publishStatus(): void {
    const relayed = [...this.consumers.values()].filter((consumer) => !consumer.dead && this.options.handover.established('relay', consumer.key)).length;
    let state: RelayState = 'mesh';
    if (this.wanted) state = this.inUse ? 'relay' : this.outage ? 'unavailable' : 'connecting';
    const status = { roomAddress: this.options.roomAddress, wanted: this.wanted, state, relayedDeliveries: relayed };
    const current = this.options.store.get(relayStatusAtom)[this.options.roomAddress];
    if (current && current.wanted === status.wanted && current.state === status.state && current.relayedDeliveries === status.relayedDeliveries) return;
    this.options.store.set(relayStatusAtom, (statuses) => ({ ...statuses, [this.options.roomAddress]: status }));
  }
}
