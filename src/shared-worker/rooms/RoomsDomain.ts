import { parseOccupantAddress, parseRoomAddress } from '../../protocol/addresses';
import { LIMITS } from '../../protocol/constants';
import { JID, Utils, type Agent, type Stanzas } from 'stanza';
import type { JoinRoomOptions, RoomsCommands } from '../../protocol/commands';
import type { BannedPerson, CallRecord, Peer, RequestingMedia, Room } from '../../protocol/entities';
import { RoomNameMissingError, ValidationError } from '../../protocol/errors';
import { roomByLocalpart, roomNameToLocalpart } from '../../protocol/rooms';
import { rejoinHistorySince } from '../chat/historySince';
import type { SessionContext, SessionDomain } from '../SessionContext';
import { expectPassword, optionalPassword } from './commandInput';
import { DepartingOccupants } from './DepartingOccupants';
import { EarlyRoomLookups } from './EarlyRoomLookups';
import { JoinAttempts } from './JoinAttempts';
import { joinErrorChange, joinFailure } from './joinError';
import { readMucItem } from './mucItem';
import { hasStatus, MUC_STATUS, mucInfoOf } from './mucStatus';
import { peerFromPresence } from './peerFromPresence';
import { PeersBeforeOutage } from './PeersBeforeOutage';
import { PresenceSender } from './PresenceSender';
import { RoomCalls } from './RoomCalls';
import { RoomLock } from './RoomLock';
import { roomByAddress } from '../../protocol/roomLookup';
import { RoomModeration } from './RoomModeration';
import { RoomRecords, type AddressedRoom } from './RoomRecords';
import { RoomJoinRetries } from './RoomJoinRetries';
import { newRoomRecord, OUT_OF_ROOM } from './roomRecord';
import { rejoinRetried, roomHasEnded } from '../../protocol/roomEnded';
import { moderatorReason, selfRemovalChange, selfRemovalOf, type SelfRemoval } from './selfRemoval';
import { stanzaErrorText } from './stanzaErrorText';
import { errorMessage } from '../../common/errorMessage';
import type { RoomEventLog } from '../roomEvents/RoomEventLog';
import { departureOf } from '../roomEvents/rosterEvents';

/**
 * Rooms, their peers and call records (SPEC §3; §4 room, lock and call state; §5; §6; PROTOCOL.md
 * "Rooms"). The store is the state of record: this domain turns commands into stanzas and the
 * rooms' stanzas into records. Joining is its own state machine; lock, calls and moderation are
 * delegated.
 */
export class RoomsDomain implements SessionDomain, RoomsCommands {
  private readonly records: RoomRecords;
  private readonly joins: JoinAttempts;
  private readonly presence = new PresenceSender();
  private readonly departing: DepartingOccupants;
  private readonly beforeOutage: PeersBeforeOutage;
  private readonly lock: RoomLock;
  private readonly lookups: EarlyRoomLookups;
  private readonly calls: RoomCalls;
  private readonly moderation: RoomModeration;
  private readonly joinRetries: RoomJoinRetries;
  private attachedClient: Agent | undefined;
  /** The display name the rooms were last told about. */
  private announcedName: string;

  constructor(
    private readonly context: SessionContext,
    private readonly events: RoomEventLog,
  ) {
    this.records = new RoomRecords(context.store);
    this.joins = new JoinAttempts(context.clock);
    this.departing = new DepartingOccupants(context.clock, LIMITS.roomJoinTimeoutMs);
    this.beforeOutage = new PeersBeforeOutage(context.clock);
    this.lock = new RoomLock(context, this.records, events);
    this.lookups = new EarlyRoomLookups(context, (roomId, response) => this.takeEarlyAddress(roomId, response.roomAddress));
    this.calls = new RoomCalls(context, this.records, (roomId) => this.syncPresence(roomId));
    this.moderation = new RoomModeration(context, this.records);
    this.joinRetries = new RoomJoinRetries(context.clock, (roomId) => this.retryJoin(roomId));
    this.announcedName = this.displayName;
    // The `<nick>` follows the display name preference into every joined room.
    context.store.subscribe((message) => {
      if (message.type !== 'patches' || !message.patches.some((patch) => patch.kind === 'preferences')) return;
      if (this.displayName === this.announcedName) return;
      this.announcedName = this.displayName;
      for (const roomId of Object.keys(this.records.rooms)) this.syncPresence(roomId);
    });
  }

  // ---- SessionDomain ----

  /** The config is known: the rooms waiting to join look up their address beside the websocket and the login. */
  configured(): void {
    for (const room of Object.values(this.records.rooms)) if (room.roomState === 'joining' && !room.address) this.lookups.start(room.id, room.providedName);
  }

  attachClient(client: Agent): void {
    this.attachedClient = client;
    client.on('presence', (presence) => {
      if (this.attachedClient === client) this.onPresence(presence);
    });
    client.on('message', (message) => {
      if (this.attachedClient === client) this.onMessage(message);
    });
  }

  /** Rooms join, and rejoin after a reconnect, once the session has started. */
  connected(): void {
    for (const room of Object.values(this.records.rooms)) {
      if (room.roomState === 'joining' || room.roomState === 'interrupted') this.startJoin(room.id);
    }
  }

  /**
   * SPEC §4: all peers are cleared and every room is interrupted with joined false, to be rejoined.
   * A room that ended for us is no room we are in: it keeps its end, and is not joined again.
   */
  disconnected(): void {
    this.joins.endAll();
    this.joinRetries.clear();
    this.lookups.clear();
    this.presence.forget();
    this.departing.clear();
    for (const room of Object.values(this.records.rooms)) if (!roomHasEnded(room)) this.interrupt(room);
  }

  /**
   * The room waits for its rejoin (SPEC §4 interrupted): its roster is noted for the event lines,
   * its people are remembered for their return (PeersBeforeOutage), and its peers are cleared.
   */
  private interrupt(room: Room): void {
    const { store } = this.context;
    // A drop during a rejoin keeps the people of the first.
    let peopleBeforeOutage = room.peopleBeforeOutage;
    if (room.address) {
      const people = Object.values(store.state.peers).filter((peer) => peer.roomAddress === room.address);
      if (room.roomState === 'joined') {
        this.events.interrupted(room.address, this.records.rosterOf(room.address));
        peopleBeforeOutage = people;
      }
      this.beforeOutage.keep(people);
      this.records.removePeersOf(room.address);
    }
    store.update('rooms', room.id, { roomState: 'interrupted', ...OUT_OF_ROOM, peopleBeforeOutage });
  }

  /** The last record of someone of a room who is gone from it but may be back (PeersBeforeOutage): what the call's held people are listed as. */
  lastRecordOf(peerAddress: string): Peer | undefined {
    return this.beforeOutage.lastRecordOf(peerAddress);
  }

  /** How loud you chose to hear someone gone from their room who may be back (PeersBeforeOutage): they come back at it. */
  rememberVolumeLimit(peerAddress: string, volumeLimit: number): void {
    this.beforeOutage.setVolumeLimit(peerAddress, volumeLimit);
  }

  // ---- RoomsCommands ----

  async joinRoom(name: string, options: JoinRoomOptions = {}): Promise<string> {
    if (typeof name !== 'string' || name.trim() === '') {
      const error = new RoomNameMissingError();
      this.context.log.error(error.message, error.code);
      throw error;
    }
    const password = optionalPassword(options?.password);
    const autoJoinCall: unknown = options?.autoJoinCall;
    if (autoJoinCall !== undefined && typeof autoJoinCall !== 'boolean') throw new ValidationError('autoJoinCall must be a boolean');
    const providedName = name.trim();
    const existing = roomByLocalpart(this.records.rooms, roomNameToLocalpart(providedName));
    if (existing) {
      this.joinExisting(existing, password, autoJoinCall);
      return existing.id;
    }
    // StanzaJS's v4 uuid: crypto.randomUUID needs a secure context, which a plain-http deployment lacks.
    const id = Utils.uuid();
    this.context.store.upsert('rooms', id, newRoomRecord(id, providedName, { password, autoJoinCall }));
    this.startJoin(id);
    return id;
  }

  async submitRoomPassword(roomId: string, password: string): Promise<void> {
    const secret = expectPassword(password);
    const room = this.records.room(roomId);
    if (!room || room.roomState === 'joined') return;
    this.context.store.update('rooms', room.id, { providedPassword: secret, password: undefined, roomState: 'joining', error: undefined });
    this.startJoin(room.id);
  }

  /**
   * Leaving removes the room, its peers and its call record. Its chat messages and event lines stay:
   * a tab that had the room open shows them after "Leave" ("You left this room").
   */
  async leaveRoom(roomId: string): Promise<void> {
    const room = this.records.room(roomId);
    if (!room) return;
    this.leave(room.id, room.selfAddress ?? this.joins.awaiting(room.id));
    this.joins.end(room.id);
    this.joinRetries.forget(room.id);
    this.calls.forget(room.id);
    if (room.address) {
      this.removePeople(room.address);
      this.context.store.remove('calls', room.address);
    }
    this.context.store.remove('rooms', room.id);
  }

  /** No tab shows the room any more (TabsApi): its event lines go. */
  forgetRoomEvents(address: string): void {
    for (const line of Object.values(this.context.store.state.roomEvents)) if (line.roomAddress === address) this.context.store.remove('roomEvents', line.id);
  }

  lockRoom(roomAddress: string, password: string): Promise<void> {
    return this.lock.lock(roomAddress, password);
  }

  unlockRoom(roomAddress: string): Promise<void> {
    return this.lock.unlock(roomAddress);
  }

  getRoomPassword(roomAddress: string): Promise<string | undefined> {
    return this.lock.readPassword(roomAddress);
  }

  kickPeer(peerAddress: string): Promise<void> {
    return this.moderation.kick(peerAddress);
  }

  listBans(roomAddress: string): Promise<BannedPerson[]> {
    return this.moderation.listBans(roomAddress);
  }

  liftBan(roomAddress: string, userAddress: string): Promise<BannedPerson[]> {
    return this.moderation.liftBan(roomAddress, userAddress);
  }

  destroyRoom(roomAddress: string, alternate?: { roomAddress?: string; password?: string; reason?: string }): Promise<void> {
    return this.moderation.destroy(roomAddress, alternate);
  }

  async joinCall(roomAddress: string, media?: RequestingMedia): Promise<void> {
    this.calls.join(roomAddress, media);
  }

  async leaveCall(roomAddress: string): Promise<void> {
    this.calls.leave(roomAddress);
  }

  async setRequestingMedia(roomAddress: string, media: RequestingMedia): Promise<void> {
    this.calls.setMedia(roomAddress, media);
  }

  // ---- joining ----

  /**
   * joinRoom for a name already held: the same room; a failed join retries. Asked for now, the call
   * joins as soon as the room has an address: with the join presence when that has not gone out yet
   * (runJoin), else in a presence of its own, without waiting for the room's answer (issue 14, the
   * join path: a tab's "Join call" goes out by the room's name, not once the address reaches it).
   */
  private joinExisting(room: Room, password: string | undefined, autoJoinCall: boolean | undefined): void {
    if (autoJoinCall === true) {
      this.calls.wanted(room.id);
      if (!room.autoJoinCall) this.context.store.update('rooms', room.id, { autoJoinCall: true });
      if (room.address && !this.records.call(room.address)?.joined) this.calls.join(room.address, undefined);
    }
    // Banned or removed, the room is asked again too: the ban may have been lifted since, and another
    // tab still holding the ended room must not keep the person out (the room says if it still bans).
    const retry =
      room.roomState === 'failed' || room.roomState === 'banned' || room.roomState === 'waiting' || (room.roomState === 'password-required' && password !== undefined);
    if (!retry) return;
    const withPassword = password !== undefined ? { providedPassword: password, password: undefined } : {};
    this.context.store.update('rooms', room.id, { roomState: 'joining', error: undefined, removal: undefined, banned: false, ...withPassword });
    this.startJoin(room.id);
  }

  /** Starts (or restarts) a room's join; while the session is not up the room waits, 'joining', for `connected`. */
  private startJoin(roomId: string): void {
    const client = this.context.client;
    const config = this.context.config;
    this.joins.end(roomId);
    const room = this.records.room(roomId);
    // Logging in: the address lookup need not wait for it.
    if (room && !client && !room.address && this.context.store.state.connection.state === 'connecting') this.lookups.start(roomId, room.providedName);
    if (!room || !client || !config) return;
    void this.runJoin(roomId, this.joins.begin(roomId), client, config.id);
  }

  /**
   * A room waiting for its start, or a failed rejoin, sends its join again (RoomJoinRetries); it keeps
   * saying `waiting` or `failed` meanwhile, not `joining`, so the page's words do not flicker.
   */
  private retryJoin(roomId: string): void {
    const client = this.context.client;
    const config = this.context.config;
    const room = this.records.room(roomId);
    const shownState = room?.roomState === 'waiting' ? 'waiting' : room && rejoinRetried(room) ? 'failed' : undefined;
    if (!shownState || !client || !config) return;
    void this.runJoin(roomId, this.joins.begin(roomId), client, config.id, shownState);
  }

  private async runJoin(roomId: string, token: number, client: Agent, nick: string, roomState: 'joining' | 'waiting' | 'failed' = 'joining'): Promise<void> {
    const { store } = this.context;
    const room = store.update('rooms', roomId, { roomState, joined: false });
    if (!room) return;
    const address = room.address ?? (await this.resolveAddress(room, token));
    const current = this.records.room(roomId);
    if (!address || !current || !this.joins.isCurrent(roomId, token) || this.context.client !== client) return;
    const occupant = JID.createFull(address, nick);
    // SPEC §4 auto-join: the call rides on the join presence, one presence and no room round trip
    // before the others' offers can start (issue 14, the join path).
    this.calls.autoJoin({ ...current, address });
    const stanzaId = this.presence.join(client, roomId, {
      occupant,
      displayName: this.displayName,
      call: this.records.call(address),
      join: { password: current.password ?? current.providedPassword, historySince: rejoinHistorySince(store.state.messages, address) },
    });
    this.joins.sent(roomId, token, { occupant, stanzaId }, LIMITS.roomJoinTimeoutMs, () => this.joinTimedOut(roomId, address, occupant));
  }

  /** SPEC §7 room config request; on failure the room is 'failed' with no address (SPEC §8). */
  private async resolveAddress(room: Room, token: number): Promise<string | undefined> {
    const { store, log, config } = this.context;
    if (!config) return undefined;
    let raw: string;
    try {
      raw = (await this.lookups.take(room.id, room.providedName, config)).roomAddress;
    } catch (error) {
      if (!this.joins.isCurrent(room.id, token)) return undefined;
      this.joins.end(room.id);
      log.error(errorMessage(error), 'ESWRTC_002');
      log.error('Could not fetch room config');
      store.update('rooms', room.id, { ...joinFailure('failed', 'Could not fetch room config'), address: undefined });
      return undefined;
    }
    if (!this.joins.isCurrent(room.id, token)) return undefined;
    const looked = this.addressFor(room, raw);
    if ('error' in looked) {
      this.joins.end(room.id);
      log.error(looked.error);
      store.update('rooms', room.id, joinFailure('failed', looked.error));
      return undefined;
    }
    store.update('rooms', room.id, { address: looked.address });
    return looked.address;
  }

  /** A looked-up address the room may take: a valid room address no other room of ours has. */
  private addressFor(room: Room, raw: string): { address: string } | { error: string } {
    const address = parseRoomAddress(raw);
    if (!address) return { error: 'The room config gave no valid room address' };
    const other = roomByAddress(this.records.rooms, address);
    if (other && other.id !== room.id) return { error: `Room ${address} is already joined under another name` };
    return { address };
  }

  /**
   * An early lookup answered while the room waits for the login: the room has its address now, so
   * the tab's call (preview, "Join call") need not wait for the join. Anything amiss is left to the
   * join, which says so.
   */
  private takeEarlyAddress(roomId: string, raw: string): boolean {
    const room = this.records.room(roomId);
    if (!room || room.address || room.roomState !== 'joining') return false;
    const looked = this.addressFor(room, raw);
    if ('error' in looked) return false;
    this.context.store.update('rooms', roomId, { address: looked.address });
    return true;
  }

  /** StanzaJS's joinRoom has no timeout: a join the room never answers fails, and is abandoned. */
  private joinTimedOut(roomId: string, address: string, occupant: string): void {
    this.leave(roomId, occupant);
    this.removePeople(address);
    const error = `Room ${address} did not answer the join within ${LIMITS.roomJoinTimeoutMs / 1000} s`;
    this.context.log.error(error);
    this.context.store.update('rooms', roomId, joinFailure('failed', error));
    this.afterJoinFailure(roomId, address);
  }

  /**
   * A join failed. A room we had been in leaves its call: the tab must not stay in a call with no
   * room (it shows the preview, or the room's state); one that waits for its start keeps it, as an
   * interrupted room does (awaitingRejoin). A room waiting for its start, or a failed rejoin
   * (`rejoinRetried`), is asked again by itself, while this connection lasts.
   */
  private afterJoinFailure(roomId: string, address: string): void {
    const room = this.records.room(roomId);
    if (!room) return;
    if (room.joinedAt !== undefined && room.roomState !== 'waiting') this.calls.end(address);
    if (room.roomState === 'waiting' || rejoinRetried(room)) this.joinRetries.schedule(roomId);
    else this.joinRetries.forget(roomId);
  }

  /** The self-presence (status 110) completes the join (PROTOCOL.md "Rooms"); `rid` is its `<user rid>`. */
  private completeJoin(room: AddressedRoom, selfAddress: string, presence: Stanzas.Presence, rid: string | undefined): void {
    this.joins.end(room.id);
    this.joinRetries.forget(room.id);
    const item = readMucItem(mucInfoOf(presence));
    this.context.store.update('rooms', room.id, {
      roomState: 'joined',
      joined: true,
      joinedAt: this.context.clock.now(),
      peopleBeforeOutage: undefined,
      selfAddress,
      selfRole: item.role,
      selfAffiliation: item.affiliation,
      rid,
      banned: false,
      roomFull: false,
      roomNotStarted: false,
      error: undefined,
      removal: undefined,
    });
    this.events.joined(room.address, this.records.rosterOf(room.address));
    // PROTOCOL.md "After joining": the call went with the join presence (runJoin), and whatever
    // changed while it was out went at once (syncPresence); the lock state can come after the first frame.
    this.beforeOutage.rejoined(room.address, this.context.clock.now());
    void this.lock.check(room.id, { announce: false });
  }

  /** Sends our unavailable presence; the room's answers about that stay are then not a later join's. */
  private leave(roomId: string, occupant: string | undefined): void {
    this.presence.leave(this.context.client, roomId, occupant);
    if (occupant && this.context.client) this.departing.add(occupant);
  }

  /** We are out of the room: its peers and its event lines' roster go, and none of them is awaited back from a lost connection. */
  private removePeople(roomAddress: string): void {
    this.events.forget(roomAddress);
    this.records.removePeersOf(roomAddress);
    this.beforeOutage.forgetRoom(roomAddress);
  }

  // ---- stanzas from rooms ----

  private onPresence(presence: Stanzas.ReceivedPresence): void {
    const occupant = parseOccupantAddress(presence.from);
    const room = this.records.byAddress(occupant?.room ?? presence.from);
    const answersJoin = room !== undefined && this.joins.carriesJoinId(room.id, presence.id);
    if (occupant && this.departing.absorbs(occupant.full, presence.type, answersJoin)) return;
    if (!room) return;
    const awaiting = this.joins.awaiting(room.id);
    if (presence.type === 'error') {
      if (this.joins.answersJoin(room.id, presence.id)) this.joinFailed(room, presence);
      else this.context.log.info(`room ${room.address} refused a presence: ${stanzaErrorText(presence)}`);
      return;
    }
    const info = mucInfoOf(presence);
    if (!occupant || !info) return; // not an occupant presence
    if (room.roomState !== 'joined' && awaiting === undefined) return; // not in this room (any more)
    const isSelf = hasStatus(info, MUC_STATUS.selfPresence) || occupant.full === room.selfAddress || occupant.full === awaiting;
    const previous = this.context.store.get('peers', occupant.full);
    if (presence.type === 'unavailable') {
      const removal = isSelf ? selfRemovalOf(info) : undefined;
      if (removal && removal.kind !== 'renamed') this.selfRemoved(room, removal);
      else this.context.store.remove('peers', occupant.full);
      const departure = departureOf(info);
      if (!isSelf && previous && departure && room.roomState === 'joined') {
        if (departure === 'left') this.events.left(room.address, previous);
        else {
          const reason = moderatorReason(info);
          this.events.add(room.address, departure, previous, reason === undefined ? {} : { reason });
        }
      }
      // A nickname change names the new nickname; their presence there is no arrival.
      const renamedTo = departure === undefined && typeof info.nick === 'string' ? parseOccupantAddress(`${room.address}/${info.nick}`) : undefined;
      if (!isSelf && previous && renamedTo && room.roomState === 'joined') this.events.renamed(room.address, previous, renamedTo.full);
      // Someone of the call who simply left may be back in a moment at the same address (their connection replaced): what we knew of them waits for them.
      if (!isSelf && previous?.joinedCall && departure === 'left') this.beforeOutage.departed(previous, this.context.clock.now());
      return;
    }
    if (presence.type !== undefined) return; // subscriptions and probes are not room business
    const fromPresence = peerFromPresence(presence, {
      address: occupant.full,
      roomAddress: room.address,
      nick: occupant.nick,
      isSelf,
      now: this.context.clock.now(),
      previous,
    });
    const { rid, problems } = fromPresence;
    const peer = previous ? fromPresence.peer : this.beforeOutage.restore(fromPresence.peer, this.context.clock.now());
    for (const problem of problems) this.context.log.info(`presence from ${occupant.full}: ${problem}`);
    this.context.store.upsert('peers', occupant.full, peer);
    // Before our self-presence the room is listing who is already there: not arrivals.
    if (!isSelf && !previous && room.roomState === 'joined') this.events.arrived(room.address, peer);
    if (!isSelf) return;
    if (room.roomState !== 'joined') this.completeJoin(room, occupant.full, presence, rid);
    else if (room.selfAddress !== occupant.full || room.selfRole !== peer.role || room.selfAffiliation !== peer.affiliation) {
      // Our role or affiliation changed, or the service renamed us (status 210). The rid is stable for the room.
      this.context.store.update('rooms', room.id, { selfAddress: occupant.full, selfRole: peer.role, selfAffiliation: peer.affiliation });
    }
  }

  /** SPEC §4 lock state: a status 104 notification from the room triggers a recheck. */
  private onMessage(message: Stanzas.ReceivedMessage): void {
    if (message.type !== 'groupchat' || !parseRoomAddress(message.from)) return;
    const room = this.records.joined(message.from);
    if (room && hasStatus(mucInfoOf(message), MUC_STATUS.configurationChanged)) void this.lock.check(room.id, { announce: true });
  }

  /** SPEC §4 / §8 join failures. */
  private joinFailed(room: AddressedRoom, presence: Stanzas.Presence): void {
    this.joins.end(room.id);
    this.presence.forget(room.id);
    this.removePeople(room.address);
    const change = joinErrorChange(presence);
    this.context.log.info(`room ${room.address}: ${change.error}`);
    this.context.store.update('rooms', room.id, { ...change, ...OUT_OF_ROOM });
    this.afterJoinFailure(room.id, room.address);
  }

  /**
   * Our own unavailable presence: banned (301), kicked (307), destroyed (maybe with a new venue) or
   * otherwise removed; or the room's service went away (332), and we rejoin at once, as after a
   * reconnect: the room starts again where we are (on ejabberd, on a live node of the cluster).
   */
  private selfRemoved(room: AddressedRoom, removedBy: Exclude<SelfRemoval, { kind: 'renamed' }>): void {
    const { store, log } = this.context;
    // A destroy naming the room itself as where to go (a plain XMPP app's owner may send one) names no
    // venue: following it would join again the room just destroyed.
    const removal =
      removedBy.kind === 'destroyed'
        ? { ...removedBy, byYou: this.moderation.takeDestroyedHere(room.address), alternate: removedBy.alternate === room.address ? undefined : removedBy.alternate }
        : removedBy;
    this.joins.end(room.id);
    this.presence.forget(room.id);
    if (removal.kind === 'serviceShutdown') {
      this.serviceShutdown(room);
      return;
    }
    this.removePeople(room.address);
    if (removal.kind === 'destroyed' && removal.alternate) {
      log.info(`room ${room.address} was destroyed; following it to ${removal.alternate}`);
      this.moveToAlternate(room, removal.alternate, removal, this.records.call(room.address));
      return;
    }
    this.calls.end(room.address);
    const change = selfRemovalChange(removal);
    log.info(`room ${room.address}: ${change.error}`);
    store.update('rooms', room.id, change);
  }

  /**
   * The room stopped on its server (332): no end of ours. Only a room we were in is rejoined at once;
   * one that stops again before our join completes is a failed join, asked again on the retry
   * schedule (afterJoinFailure), rather than joined over and over.
   */
  private serviceShutdown(room: AddressedRoom): void {
    const { store, log } = this.context;
    if (room.roomState === 'joined') {
      log.info(`room ${room.address} stopped running on its server; rejoining`);
      this.interrupt(room);
      this.startJoin(room.id);
      return;
    }
    this.removePeople(room.address);
    const error = 'The room stopped on its server before you were back in';
    log.info(`room ${room.address}: ${error}`);
    store.update('rooms', room.id, { ...joinFailure('failed', error), ...OUT_OF_ROOM });
    this.afterJoinFailure(room.id, room.address);
  }

  /**
   * SPEC §4 destroyed room: the room record is replaced by the alternate venue's, joined with the
   * destroy's password (or the previous one) and the same autoJoinCall; the old room's peers and call
   * record go. The record keeps its id, so tabs that opened the room keep it (TabsApi leaves by id).
   */
  private moveToAlternate(
    room: AddressedRoom,
    alternate: string,
    { password, reason, byYou }: { password: string | undefined; reason: string | undefined; byYou: boolean },
    call: CallRecord | undefined,
  ): void {
    const { store } = this.context;
    store.remove('calls', room.address);
    const other = roomByAddress(this.records.rooms, alternate);
    if (other && other.id !== room.id) {
      // Already there under another record: this one ends as destroyed (a removed record would read
      // as left, in the views that hold it).
      this.calls.forget(room.id);
      store.update('rooms', room.id, selfRemovalChange({ kind: 'destroyed', alternate, password, reason, byYou }));
      return;
    }
    const name = JID.unescapeLocal(JID.getLocal(alternate) ?? alternate);
    const options = {
      address: alternate,
      password: password ?? room.password ?? room.providedPassword,
      autoJoinCall: room.autoJoinCall,
      movedFrom: { fromAddress: room.address, fromName: room.providedName, reason, byYou },
    };
    store.upsert('rooms', room.id, newRoomRecord(room.id, name, options));
    this.calls.carry(call, alternate);
    this.startJoin(room.id);
  }

  /** SPEC §3 preferences.displayName: our `<nick>` in every room. */
  private get displayName(): string {
    return this.context.store.state.preferences.displayName;
  }

  /**
   * Brings the room's view of our presence (nick, call) up to date. While the join presence awaits
   * its answer the update goes at once, not after it (issue 14: a call joined then starts the
   * others' offers a round trip sooner): the room takes our stanzas in order, so it reads the update
   * once we are in, and refuses it with the join should the join fail (the join's answer is the
   * one that counts, by its id).
   */
  private syncPresence(roomId: string): void {
    const room = this.records.room(roomId);
    const client = this.context.client;
    const occupant = room?.roomState === 'joined' ? room.selfAddress : this.joins.awaiting(roomId);
    if (!room?.address || !occupant || !client) return;
    this.presence.update(client, roomId, { occupant, displayName: this.displayName, call: this.records.call(room.address) });
  }
}
