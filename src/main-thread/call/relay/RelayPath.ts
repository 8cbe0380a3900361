import type { createStore } from 'jotai';
import type { Stanzas } from 'stanza';
import type { SessionManager, Session as BaseSession } from 'stanza/jingle';
import { SESSION_TERMINATION } from '../../../protocol/constants';
import { RELAY_ERROR, RelayRpcError, type ConsumerIceStateParams } from '../../../protocol/relay';
import { TypedEmitter } from '../../../common/TypedEmitter';
import { QueueClosedError } from '../../../common/OperationQueue';
import type { MediaItem } from '../../media';
import { roomByAddressAtomFamily } from '../../sessionAtoms';
import type { CallSignaling } from '../CallSignaling';
import type { SessionConnectionState, SessionState } from '../Connection';
import type { ConnectionRecords } from '../ConnectionRecords';
import type { MediaDescription } from '../descriptionInfo';
import { describeDelivery, qualityRequestOf, type Delivery, type MediaPath } from '../MediaPath';
import type { PathHandover } from '../PathChange';
import type { ShareableMedia } from '../sessionPlan';
import { terminationOutcome } from '../termination';
import { SessionFailedError } from '../errors';
import { CONSUMER_AHEAD_AFTER_MS } from '../../../protocol/clientDefaults';
import { relayRetryDelayMs } from './backoff';
import { ConsumerAhead, type ConsumerSource } from './ConsumerAhead';
import { RelayClosedError } from './errors';
import { ReceiverFallback } from './ReceiverFallback';
import { relayStatusAtom, type RelayState } from './relayAtoms';
import { RelayConsumer } from './RelayConsumer';
import { RelayJingleSession } from './RelayJingleSession';
import { relayOfferToJingle } from './relayJingle';
import { RelayLink, type RelayLinkOptions } from './RelayLink';
import { errorMessage } from '../../../common/errorMessage';
import type { RelayRpcClient } from './RelayRpcClient';

type JotaiStore = ReturnType<typeof createStore>;

export interface RelayPathOptions extends RelayLinkOptions {
  /** The room's record (its rid) is read from the mirrored state; the room's relayStatusAtom entry is written. */
  readonly store: JotaiStore;
  /** The call's SessionManager: relay Jingle sessions live beside the mesh ones. */
  readonly manager: SessionManager;
  readonly signaling: CallSignaling;
  readonly handover: PathHandover;
  readonly records: ConnectionRecords;
}

export interface RelayPathEvents {
  /** Something the plan depends on changed (connection, ingest, consumer): recompute. */
  changed: [];
  /** SPEC §4/§8: a relay session to a receiver ended with an error condition (the Call flags its peer: SessionFailures). */
  sessionFailed: [error: SessionFailedError];
}

/** The failure says the consumer is gone (its connection closed, the relay knows it no more), not that the relay could not do the step just then. */
function consumerGone(error: unknown): boolean {
  return error instanceof RelayClosedError || error instanceof QueueClosedError || (error instanceof RelayRpcError && error.rpcCode === RELAY_ERROR.notFound);
}

/** The media's kinds, or its items (as a ConsumerAhead tells them apart), in a comparable form. */
function listOf(media: readonly ShareableMedia[], property: 'kind' | 'id'): string {
  return media
    .map((item) => item[property])
    .sort()
    .join();
}

/**
 * The relay path (DESIGN "Media paths"): RelayLink publishes each shared stream (connection and
 * ingests); each delivery is one relay consumer, whose offer goes to the receiver as an ordinary
 * Jingle session-initiate (RelayJingleSession) and whose answer starts it. The receiver's quality
 * request picks the consumer's simulcast layer (SET_CONSUMER_PROFILE); a consumer whose receiver's
 * ICE failed is made again under the same id (PROTOCOL.md). Once the call's plan has settled, each
 * stream's next consumer is made ahead (ConsumerAhead), and the next receiver takes it.
 */
export class RelayPath extends TypedEmitter<RelayPathEvents> implements MediaPath {
  readonly name = 'relay';
  private readonly link: RelayLink;
  private readonly consumers = new Map<string, RelayConsumer>();
  /** Per stream key, the next receiver's consumer, made ahead (ConsumerAhead). */
  private readonly ahead = new Map<string, ConsumerAhead>();
  private aheadTimer: unknown;
  /** Plan keys held back after a consumer session failed (SPEC §4's recompute delays, as for the mesh). */
  private readonly held = new Map<string, unknown>();
  /** Deliveries whose receiver the relay failed: the mesh carries them until the relay is tried again. */
  private readonly fallback: ReceiverFallback;
  private streams: ReadonlyMap<string, readonly ShareableMedia[]> = new Map();
  private closed = false;
  private readonly unsubscribes: (() => void)[] = [];

  constructor(private readonly options: RelayPathOptions) {
    super();
    this.link = new RelayLink(options);
    this.fallback = new ReceiverFallback(options.clock, () => this.emit('changed'));
    const publish = (session: BaseSession): void => {
      const consumer = this.bySid(session.sid);
      if (consumer) this.publishConnection(consumer);
    };
    options.manager.on('sessionState', publish);
    options.manager.on('connectionState', publish);
    this.unsubscribes.push(
      () => {
        options.manager.off('sessionState', publish);
        options.manager.off('connectionState', publish);
      },
      this.link.on('changed', () => this.emit('changed')),
      this.link.on('lost', (client) => this.onLinkLost(client)),
      this.link.on('consumerIceState', (client, params) => this.onIceState(client, params)),
    );
  }

  /** Some stream goes through the relay now: SPEC §9 counts 1 peer, and the capture takes the relay tier. */
  get inUse(): boolean {
    return this.link.inUse;
  }

  publish(streams: ReadonlyMap<string, readonly ShareableMedia[]>, wanted: boolean): void {
    if (this.closed) return;
    this.streams = streams;
    this.link.publish(streams, wanted);
  }

  canCarry(streamKey: string): boolean {
    return this.link.ready(streamKey);
  }

  /** The relay is on its way to carrying this stream (RelayLink.pending). */
  pending(streamKey: string): boolean {
    return this.link.pending(streamKey);
  }

  carries(key: string): boolean {
    return this.consumers.has(key);
  }

  /** The relay failed this delivery's receiver lately (ReceiverFallback): the mesh carries it until the relay is tried again. */
  failedReceiver(key: string): boolean {
    return this.fallback.has(key);
  }

  /** A consumer of ours goes to this person. */
  sendsTo(peerAddress: string): boolean {
    return [...this.consumers.values()].some((consumer) => consumer.delivery.peerAddress === peerAddress);
  }

  established(key: string): boolean {
    const consumer = this.consumers.get(key);
    return consumer !== undefined && !consumer.dead && this.options.handover.established('relay', key);
  }

  deliver(deliveries: readonly Delivery[]): void {
    if (this.closed) return;
    const keys = new Set(deliveries.map((delivery) => delivery.key));
    for (const consumer of [...this.consumers.values()]) if (!keys.has(consumer.key)) this.drop(consumer);
    for (const delivery of deliveries) this.follow(delivery);
    const used = (streamKey: string) => [...this.consumers.values()].some((consumer) => consumer.delivery.streamKey === streamKey);
    this.link.release(this.streams, used, this.consumers.size > 0);
    this.publishStatus();
    this.options.clock.clearTimeout(this.aheadTimer);
    this.aheadTimer = this.options.clock.setTimeout(() => this.makeAhead(), CONSUMER_AHEAD_AFTER_MS);
  }

  setMaxBitrate(bitrate: number): void {
    this.link.setMaxBitrate(bitrate);
  }

  videoSenders(): RTCRtpSender[] {
    return this.link.videoSenders();
  }

  /** SPEC §4: muting a local item tells the receivers of every relay session that sends it; a camera turned off sends no video. */
  mute(item: MediaItem, muted: boolean): void {
    if (item.kind === 'video') this.link.setVideoOff(item.id, muted);
    for (const consumer of this.consumers.values()) {
      if (!consumer.delivery.media.some((sent) => sent.id === item.id)) continue;
      // Named per item: a later mute or unmute of it replaces one still to be asked again.
      this.runKept(consumer, `mute ${item.id}`, async () => {
        await consumer.session?.setMuted(item.kind, muted);
      });
    }
  }

  catchUp(peerAddresses: ReadonlySet<string>): void {
    for (const consumer of [...this.consumers.values()]) {
      if (!peerAddresses.has(consumer.delivery.peerAddress) || !consumer.session) continue;
      if (!consumer.session.answered) {
        // Ended here and on the relay, the plan makes it anew.
        this.drop(consumer);
        continue;
      }
      this.runKept(consumer, 'catch-up', async () => {
        await this.describe(consumer);
        await this.stateMute(consumer);
      });
    }
  }

  /** Ends every relay session and the connection (closing it closes everything the relay made for it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.options.clock.clearTimeout(this.aheadTimer);
    // Closing the connection below closes them on the relay.
    this.ahead.clear();
    for (const timer of this.held.values()) this.options.clock.clearTimeout(timer);
    this.held.clear();
    this.fallback.clear();
    for (const consumer of [...this.consumers.values()]) this.drop(consumer);
    this.link.close();
    this.options.store.set(relayStatusAtom, (statuses) => {
      const rest = { ...statuses };
      delete rest[this.options.roomAddress];
      return rest;
    });
  }

  private onLinkLost(client: RelayRpcClient): void {
    for (const [streamKey, ahead] of this.ahead) if (ahead.rpc === client) this.ahead.delete(streamKey);
    for (const consumer of this.consumers.values()) {
      if (consumer.rpc !== client) continue;
      consumer.dead = true;
      this.options.handover.ended('relay', consumer.key);
    }
  }

  private follow(delivery: Delivery): void {
    const existing = this.consumers.get(delivery.key);
    if (existing) {
      // Made anew, once startable: a consumer made on a connection that died, once the
      // relay is back; one whose kinds change (a kind added or dropped changes the offer; the mesh covers the gap).
      const remade = (existing.dead && this.link.ready(delivery.streamKey)) || listOf(existing.delivery.media, 'kind') !== listOf(delivery.media, 'kind');
      if (!remade) {
        const replaced = delivery.media.some((item) => !existing.delivery.media.some((other) => other.id === item.id));
        existing.delivery = delivery;
        if (replaced) this.runKept(existing, 'describe', () => this.describe(existing));
        return;
      }
      if (!delivery.startable) return;
      this.drop(existing);
    }
    const link = this.link.link;
    const ingest = this.consumableIngest(delivery.streamKey, delivery.media);
    if (!link || !ingest || this.held.has(delivery.key) || !delivery.startable) return;
    const source = this.consumerSource(ingest.id, delivery.media);
    const ahead = this.ahead.get(delivery.streamKey);
    const taken = ahead?.fits(link.client, source, listOf(delivery.media, 'id')) ? ahead : undefined;
    if (taken) this.ahead.delete(delivery.streamKey);
    const consumer = new RelayConsumer(taken?.sid ?? crypto.randomUUID(), delivery, ingest.id, link.client);
    this.consumers.set(delivery.key, consumer);
    this.run(consumer, 'create', () => this.offer(consumer, taken));
  }

  /**
   * The stream's ingest, once a consumer of `media` can be made on it: ready, and producing every
   * kind (one shared since the ingest's last sync is produced first, since the offer must carry it).
   */
  private consumableIngest(streamKey: string, media: readonly ShareableMedia[]): ReturnType<RelayLink['ingestOf']> {
    const ingest = this.link.ingestOf(streamKey);
    return ingest && this.link.ready(streamKey) && media.every((item) => ingest.kinds.includes(item.kind)) ? ingest : undefined;
  }

  /** What a consumer of stream `source` carrying `media` asks of the relay. */
  private consumerSource(source: string, media: readonly ShareableMedia[]): ConsumerSource {
    return {
      roomAddress: this.options.roomAddress,
      // PROTOCOL.md: the room's <user rid>. A server that sends none still gets relayed calls: the
      // relay only records roomId, and the address names the room as well.
      roomId: this.options.store.get(roomByAddressAtomFamily(this.options.roomAddress))?.rid ?? this.options.roomAddress,
      source,
      audio: media.some((item) => item.kind === 'audio'),
      video: media.some((item) => item.kind === 'video'),
    };
  }

  /**
   * Once the plan has settled (CONSUMER_AHEAD_AFTER_MS after the last delivery), each stream the
   * relay carries gets its next receiver's consumer made ahead; one that no longer fits its stream
   * goes.
   */
  private makeAhead(): void {
    const client = this.link.link?.client;
    if (this.closed || !client) return;
    for (const [streamKey, ahead] of this.ahead) {
      if (this.streams.has(streamKey)) continue;
      ahead.discard();
      this.ahead.delete(streamKey);
    }
    for (const [streamKey, media] of this.streams) {
      const ingest = this.consumableIngest(streamKey, media);
      if (!ingest) continue;
      const source = this.consumerSource(ingest.id, media);
      const items = listOf(media, 'id');
      const current = this.ahead.get(streamKey);
      if (current?.fits(client, source, items)) continue;
      current?.discard();
      const ahead = new ConsumerAhead(client, source, items, this.options.logger);
      this.ahead.set(streamKey, ahead);
      // Not made: it would still fit, and stand in the way of one that is (the next plan change makes it).
      void ahead.offer.then((offer) => {
        if (!offer && this.ahead.get(streamKey) === ahead) this.ahead.delete(streamKey);
      });
    }
  }

  /**
   * The offer to the receiver as a session-initiate — the one made ahead, claimed for this receiver,
   * or CREATE_CONSUMER's — then names and mute state.
   */
  private async offer(consumer: RelayConsumer, ahead?: ConsumerAhead): Promise<void> {
    const { delivery, rpc, sid } = consumer;
    const madeAhead = ahead ? await ahead.offer : undefined;
    // Not waited for before the offer goes: the relay has it before the receiver's START_CONSUMER.
    const claimed = madeAhead ? rpc.request('CLAIM_CONSUMER', { id: sid, peerId: delivery.peerId }) : undefined;
    // Its failure is read once the offer has gone; should a step before that throw, it is read nowhere.
    claimed?.catch(() => undefined);
    const jingle = madeAhead ?? relayOfferToJingle((await rpc.request('CREATE_CONSUMER', { id: sid, peerId: delivery.peerId, ...this.consumerSource(consumer.source, delivery.media) })).sdp);
    if (!this.wanted(consumer)) {
      // Dropped while CREATE_CONSUMER was on its way: the REMOVE_CONSUMER it sent came too soon.
      await claimed?.catch(() => undefined);
      await rpc.request('REMOVE_CONSUMER', { id: sid });
      return;
    }
    // Set before START_CONSUMER, the receiver's last request applies from the first frame.
    if (consumer.profile !== undefined && consumer.profile !== 'high') {
      await this.sendProfile(consumer).catch((error: unknown) => {
        if (consumerGone(error)) throw error;
        this.retryLater(consumer, 'set-profile', () => this.sendProfile(consumer), error);
      });
      // Dropped meanwhile (its REMOVE_CONSUMER sent): no session may start for it.
      if (!this.wanted(consumer)) return;
    }
    const session = new RelayJingleSession({
      parent: this.options.manager,
      sid,
      peerID: delivery.peerAddress,
      onAnswer: (answered, answer) => this.onAnswer(answered, answer),
      onDescription: (described, descriptions) => this.onQualityRequest(described, descriptions),
      onEnded: (ended, reason) => this.onEnded(ended, reason),
      onDecoding: (decoding) => this.onDecoding(decoding),
    });
    this.options.manager.addSession(session);
    consumer.session = session;
    this.publishConnection(consumer);
    await session.offer(jingle);
    await claimed;
    await this.describe(consumer);
  }

  /** PROTOCOL.md: after the initiate, names and screen marks; the mute state follows the answer (onAnswer), as on the mesh. */
  private async describe(consumer: RelayConsumer): Promise<void> {
    const session = consumer.session;
    if (!session) return;
    const contents = describeDelivery(this.options.media, consumer.delivery.media);
    if (contents.length > 0) await session.sendDescriptionInfo(contents);
  }

  private onAnswer(session: RelayJingleSession, sdp: string): void {
    const consumer = this.bySid(session.sid);
    if (!consumer || consumer.session !== session) return;
    this.run(consumer, 'start', async () => {
      if (consumer.dead || consumer.session !== session) return;
      try {
        await consumer.rpc.request('START_CONSUMER', { id: consumer.sid, sdp });
      } catch (error) {
        this.options.logger.error(`relay consumer ${consumer.sid} for ${consumer.delivery.peerAddress} not started: ${errorMessage(error)}`);
        session.end('failed-application');
        return;
      }
      // Issue 13: answered, the mute state of everything sent, mute or unmute (see MeshPath.onAccepted).
      await this.stateMute(consumer);
    });
  }

  /** The receiver decodes the consumer's media: the path change may stop the old path (PathChange). */
  private onDecoding(session: RelayJingleSession): void {
    const consumer = this.bySid(session.sid);
    if (consumer && consumer.session === session && !consumer.dead) this.options.handover.decoding('relay', consumer.key);
  }

  /** The mute state of everything the consumer's session sends, mute or unmute. */
  private async stateMute(consumer: RelayConsumer): Promise<void> {
    const session = consumer.session;
    if (!session) return;
    for (const item of consumer.delivery.media) await session.setMuted(item.kind, this.options.media.isOffForOthers(item.id));
  }

  /** The receiver's quality request: on a relay session it is SET_CONSUMER_PROFILE (PROTOCOL.md). */
  private onQualityRequest(session: RelayJingleSession, descriptions: readonly MediaDescription[]): void {
    const consumer = this.bySid(session.sid);
    const profile = qualityRequestOf(descriptions);
    if (!consumer || profile === undefined) return;
    consumer.profile = profile;
    this.runKept(consumer, 'set-profile', () => this.sendProfile(consumer));
  }

  /** SET_CONSUMER_PROFILE with the receiver's last request (asked again later, it asks for the latest). */
  private async sendProfile(consumer: RelayConsumer): Promise<void> {
    const { profile } = consumer;
    if (profile !== undefined && !consumer.dead) await consumer.rpc.request('SET_CONSUMER_PROFILE', { id: consumer.sid, profile });
  }

  private onIceState(client: RelayRpcClient, { id, iceConnectionState }: ConsumerIceStateParams): void {
    for (const [streamKey, ahead] of this.ahead) {
      // Its stream's media went away on the relay: the next one is made once the plan settles.
      if (ahead.sid === id && ahead.rpc === client && iceConnectionState === 'closed') this.ahead.delete(streamKey);
    }
    const consumer = this.bySid(id);
    if (!consumer || consumer.rpc !== client || consumer.dead) return;
    consumer.session?.setRelayIceState(iceConnectionState);
    const { handover } = this.options;
    switch (iceConnectionState) {
      case 'connected':
      case 'completed':
        handover.connected('relay', consumer.key);
        this.fallback.connected(consumer.key);
        this.publishStatus();
        break;
      case 'failed':
        handover.ended('relay', consumer.key);
        // Its session is terminated as failed-transport and offered again (restart): the receiver is failing meanwhile.
        if (consumer.session) this.sessionFailed(consumer.session.sid, consumer.delivery.peerAddress, 'failed-transport', undefined);
        // Failing again and again: the mesh serves the receiver for a while instead.
        if (this.fallback.failed(consumer.key, false)) this.drop(consumer);
        else this.restart(consumer);
        this.emit('changed');
        break;
      case 'closed':
        // Its source's media went away on the relay: made anew if still wanted.
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
    this.options.records.remove(session.sid);
    if (!consumer || consumer.restarting || (consumer.session !== undefined && consumer.session !== session)) return;
    this.forget(consumer);
    const outcome = terminationOutcome(reason, !session.answered);
    if (!consumer.ending && !consumer.dead && outcome.failed && !this.closed) {
      // The receiver refused or failed it: as on the mesh, that delivery is held back a while.
      this.options.logger.error(`relay session ${session.sid} with ${session.peerID} ended: ${reason?.condition ?? 'unknown'}`);
      this.sessionFailed(session.sid, consumer.delivery.peerAddress, reason?.condition ?? 'unknown', reason?.text);
      this.fallback.failed(consumer.key, false);
      this.hold(consumer.key, outcome.recomputeAfterMs ?? SESSION_TERMINATION.recomputeAfterOtherErrorMs);
    }
    this.emit('changed');
  }

  /** SPEC §4: a session ended with an error condition flags its peer, as the mesh's do (CallSessions). */
  private sessionFailed(sid: string, peerAddress: string, condition: string, text: string | undefined): void {
    this.emit('sessionFailed', new SessionFailedError(sid, peerAddress, condition, text));
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
    for (const { timer } of consumer.retries.values()) this.options.clock.clearTimeout(timer);
    this.options.handover.ended('relay', consumer.key);
    if (consumer.dead || !consumer.rpc.isOpen) return;
    consumer.rpc.request('REMOVE_CONSUMER', { id: consumer.sid }).catch((error: unknown) => this.options.logger.info(`REMOVE_CONSUMER ${consumer.sid}: ${errorMessage(error)}`));
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

  /** The consumer is still the one its delivery has (not dropped meanwhile). */
  private wanted(consumer: RelayConsumer): boolean {
    return this.consumers.get(consumer.key) === consumer;
  }

  /** Runs a consumer step on its queue; a failure is logged and the consumer given up (the mesh carries its delivery). */
  private run(consumer: RelayConsumer, name: string, step: () => Promise<void>): void {
    consumer.queue.push(name, step).catch((error: unknown) => this.stepFailed(consumer, name, error));
  }

  private stepFailed(consumer: RelayConsumer, name: string, error: unknown): void {
    if (!this.wanted(consumer) || this.closed) return;
    // Its connection died under it: that outage is logged once already.
    if (!consumer.dead) {
      this.options.logger.error(`relay ${name} for ${consumer.delivery.peerAddress} failed: ${errorMessage(error)}`);
      // Refused for one of the relay's bounds (a connection's consumers), the relay will not serve
      // this receiver: the mesh does, until the fallback tries the relay again; else it is held back a while.
      const refused = error instanceof RelayRpcError && error.rpcCode === RELAY_ERROR.limitExceeded;
      if (!this.fallback.failed(consumer.key, refused)) this.hold(consumer.key, SESSION_TERMINATION.recomputeAfterOtherErrorMs);
    }
    this.drop(consumer);
    this.emit('changed');
  }

  /**
   * Runs a step of a working consumer (its profile, mute state, names) on its queue. The relay not
   * doing it just then (rate limited, timed out) does not end the consumer, whose receiver would
   * lose the sender's media for seconds: the step is logged and asked again later. Only a failure
   * that says the consumer is gone ends it.
   */
  private runKept(consumer: RelayConsumer, name: string, step: () => Promise<void>): void {
    const retry = consumer.retries.get(name);
    this.options.clock.clearTimeout(retry?.timer);
    consumer.queue.push(name, step).then(
      () => consumer.retries.delete(name),
      (error: unknown) => (consumerGone(error) ? this.stepFailed(consumer, name, error) : this.retryLater(consumer, name, step, error)),
    );
  }

  /** Asks a step of a working consumer again, after RELAY_RECONNECT's backoff for its failures in a row. */
  private retryLater(consumer: RelayConsumer, name: string, step: () => Promise<void>, error: unknown): void {
    if (!this.wanted(consumer) || this.closed) return;
    const failures = consumer.retries.get(name)?.failures ?? 0;
    this.options.logger.info(`relay ${name} for ${consumer.delivery.peerAddress} not done, asked again: ${errorMessage(error)}`);
    const timer = this.options.clock.setTimeout(() => this.runKept(consumer, name, step), relayRetryDelayMs(failures, this.options.clock));
    consumer.retries.set(name, { failures: failures + 1, timer });
  }

  /** The consumer's session as a SPEC §3 Connection (it sends; the media never touches this tab). */
  private publishConnection(consumer: RelayConsumer): void {
    const session = consumer.session;
    if (!session || session.state === 'ended') return;
    this.options.records.set({
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
    });
  }

  private publishStatus(): void {
    const { link } = this;
    const relayed = [...this.consumers.values()].filter((consumer) => !consumer.dead && this.options.handover.established('relay', consumer.key)).length;
    let state: RelayState = 'mesh';
    // A failed ingest is not "connecting": the mesh carries its stream until it is tried again.
    if (link.wanted) state = link.inUse ? 'relay' : link.outage || link.ingestFailed ? 'unavailable' : 'connecting';
    const status = { roomAddress: this.options.roomAddress, wanted: link.wanted, state, relayedDeliveries: relayed };
    const current = this.options.store.get(relayStatusAtom)[this.options.roomAddress];
    if (current && current.wanted === status.wanted && current.state === status.state && current.relayedDeliveries === status.relayedDeliveries) return;
    this.options.store.set(relayStatusAtom, (statuses) => ({ ...statuses, [this.options.roomAddress]: status }));
  }
}
