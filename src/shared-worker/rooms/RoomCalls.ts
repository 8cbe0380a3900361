import type { CallRecord, RequestingMedia } from '../../protocol/entities';
import { RoomNotJoinedError } from '../../protocol/errors';
import type { SessionContext } from '../SessionContext';
import { stopSelfSpeaking } from '../calls/selfSpeaking';
import { newCallRecord, OWN_MEDIA_DEFAULTS } from './callRecord';
import { expectMedia } from './commandInput';
import type { AddressedRoom, RoomRecords } from './RoomRecords';

/**
 * SPEC §4 call: the call record of each room (keyed by room address) and the auto-join on joining.
 * Every change is followed by `changed(roomId)`, which brings the room presence up to date.
 */
export class RoomCalls {
  /** Rooms whose call the person left: a rejoin (after a reconnect) does not auto-join it again. */
  private readonly left = new Set<string>();

  constructor(
    private readonly context: SessionContext,
    private readonly records: RoomRecords,
    private readonly changed: (roomId: string) => void,
  ) {}

  /** Join call: joined, a joined time and the desired media (given, else kept, else the preference). */
  join(roomAddress: unknown, media: unknown): void {
    const requested = media === undefined ? undefined : expectMedia(media);
    const room = this.knownRoom(roomAddress);
    this.left.delete(room.id);
    this.setJoined(room.address, requested);
    this.changed(room.id);
  }

  /** Leave call clears joined, the joined time and the desired media; you no longer speak in it. */
  leave(roomAddress: unknown): void {
    const room = this.knownRoom(roomAddress);
    this.left.add(room.id);
    stopSelfSpeaking(this.context, room.address);
    this.end(room.address);
    this.changed(room.id);
  }

  /** Changing desired media updates it. */
  setMedia(roomAddress: unknown, media: unknown): void {
    const requested = expectMedia(media);
    const room = this.knownRoom(roomAddress);
    const call = this.records.call(room.address) ?? newCallRecord(room.address);
    this.context.store.upsert('calls', room.address, { ...call, requestingMedia: requested });
    this.changed(room.id);
  }

  /** SPEC §4: joining a room auto-joins the call unless autoJoinCall is false (or the person left it). Presence is the caller's. */
  autoJoin(room: AddressedRoom): void {
    if (room.autoJoinCall && !this.left.has(room.id) && !this.records.call(room.address)?.joined) this.setJoined(room.address, undefined);
  }

  /** The person asked for the call again (joinRoom with autoJoinCall true). */
  wanted(roomId: string): void {
    this.left.delete(roomId);
  }

  /** Leaves the call of a room we are no longer in (record kept); the next join starts with nothing muted. */
  end(roomAddress: string): void {
    const call = this.records.call(roomAddress);
    if (call) this.context.store.upsert('calls', roomAddress, { ...call, joined: false, joinedAt: undefined, requestingMedia: 'none', ownMedia: OWN_MEDIA_DEFAULTS, heldPeers: [] });
  }

  /**
   * A destroyed room's call carries over to its alternate venue with your own media, as a handover
   * does: the tab that takes it there starts your microphone and camera as they were (a muted one
   * stays muted) and offers to share your screen again.
   */
  carry(from: CallRecord | undefined, toAddress: string): void {
    if (!from?.joined) return;
    this.context.store.upsert('calls', toAddress, { ...newCallRecord(toAddress), joined: true, joinedAt: this.context.clock.now(), requestingMedia: from.requestingMedia, ownMedia: from.ownMedia });
  }

  forget(roomId: string): void {
    this.left.delete(roomId);
  }

  private setJoined(roomAddress: string, media: RequestingMedia | undefined): void {
    const call = this.records.call(roomAddress) ?? newCallRecord(roomAddress);
    const kept = call.requestingMedia !== 'none' ? call.requestingMedia : undefined;
    this.context.store.upsert('calls', roomAddress, {
      ...call,
      joined: true,
      joinedAt: call.joined ? call.joinedAt : this.context.clock.now(),
      requestingMedia: media ?? kept ?? this.context.store.state.preferences.requestingMedia,
    });
  }

  /** The call commands work on a room with a known address, joined or not; anything else is 'Room not joined'. */
  private knownRoom(roomAddress: unknown): AddressedRoom {
    const room = this.records.byAddress(roomAddress);
    if (!room) throw new RoomNotJoinedError();
    return room;
  }
}
