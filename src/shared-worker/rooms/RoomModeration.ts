import type { Agent } from 'stanza';
import { bareAddress, parseUserAddress } from '../../protocol/addresses';
import type { BannedPerson } from '../../protocol/entities';
import { ModerationRefusedError, RoomNotJoinedError, ValidationError } from '../../protocol/errors';
import type { SessionContext } from '../SessionContext';
import { banListOf, KnownNames, refusalCondition } from './banList';
import { optionalAlternate } from './commandInput';
import type { AddressedRoom, RoomRecords } from './RoomRecords';
import { stanzaErrorText } from './stanzaErrorText';

/**
 * SPEC §6 kick, ban list and destroy (PROTOCOL.md "Kick", "Destroy"). The room enforces who may:
 * a command the room refuses rejects with ModerationRefusedError (and is logged, SPEC §8), so that the
 * owner is told the person stays, or the room does.
 */
export class RoomModeration {
  /** Display names of the people kicked in this session, for the ban list (the server keeps only addresses). */
  private readonly names = new KnownNames();
  /** Rooms this session asked to destroy: the room's screen then says you closed it, not "the owner". */
  private readonly destroyAsked = new Set<string>();

  constructor(
    private readonly context: SessionContext,
    private readonly records: RoomRecords,
  ) {}

  /**
   * Sets the peer's affiliation to outcast by their real address (shown to moderators only), then
   * rereads the ban list. A refusal of the room's rejects (ModerationRefusedError).
   */
  async kick(peerAddress: unknown): Promise<void> {
    const peer = typeof peerAddress === 'string' ? this.context.store.get('peers', peerAddress) : undefined;
    const room = peer && this.records.joined(peer.roomAddress);
    const client = this.context.client;
    if (!peer || !room || !client) return;
    if (!peer.userAddress) {
      this.context.log.error(`Could not kick ${peer.address}: the room does not show their real address`);
      return;
    }
    const userAddress = bareAddress(peer.userAddress);
    this.names.remember(userAddress, peer.displayName);
    try {
      await client.setRoomAffiliation(room.address, userAddress, 'outcast');
    } catch (error) {
      throw this.refused(`kick ${peer.address}`, room, error);
    }
    await this.listBans(room.address).catch((error: unknown) => this.context.log.error(`Could not read the bans of ${room.address}: ${stanzaErrorText(error)}`));
  }

  /**
   * Reads the room's outcasts (muc#admin affiliation list) into the room's `bans`, and resolves with
   * them. Only an owner may; the room refuses anyone else (ModerationRefusedError).
   */
  async listBans(roomAddress: unknown): Promise<BannedPerson[]> {
    const { room, client } = this.joinedRoom(roomAddress);
    let answer: unknown;
    try {
      answer = await client.getRoomMembers(room.address, { affiliation: 'outcast' });
    } catch (error) {
      throw this.refused('list its bans', room, error);
    }
    const bans = banListOf(answer, this.names);
    this.records.updateIfJoined(room, { bans });
    return bans;
  }

  /** Lifts a ban (affiliation none), then rereads the list. Only an owner may (ModerationRefusedError). */
  async liftBan(roomAddress: unknown, userAddress: unknown): Promise<BannedPerson[]> {
    const { room, client } = this.joinedRoom(roomAddress);
    const person = parseUserAddress(userAddress);
    if (!person) throw new ValidationError('userAddress must be a person’s address (name@domain)');
    try {
      await client.setRoomAffiliation(room.address, bareAddress(person), 'none');
    } catch (error) {
      throw this.refused('lift the ban', room, error);
    }
    return this.listBans(room.address);
  }

  /**
   * Destroys the room, optionally naming an alternate venue and its password. A refusal of the room's
   * rejects (ModerationRefusedError); so does a room not joined, or no connection (RoomNotJoinedError).
   */
  async destroy(roomAddress: unknown, alternate: unknown): Promise<void> {
    const venue = optionalAlternate(alternate);
    const { room, client } = this.joinedRoom(roomAddress);
    if (venue.jid === room.address) throw new ValidationError('alternate roomAddress must be another room than the one destroyed');
    // Marked before asking: the room sends our own removal before it answers the request.
    this.destroyAsked.add(room.address);
    try {
      await client.destroyRoom(room.address, venue);
    } catch (error) {
      this.destroyAsked.delete(room.address);
      throw this.refused('be destroyed', room, error);
    }
  }

  /** Whether this session destroyed the room it was just removed from (asked once per removal). */
  takeDestroyedHere(roomAddress: string): boolean {
    return this.destroyAsked.delete(roomAddress);
  }

  /** SPEC §5: 'Room not joined' unless joined. */
  private joinedRoom(roomAddress: unknown): { room: AddressedRoom; client: Agent } {
    const room = this.records.joined(roomAddress);
    const client = this.context.client;
    if (!room || !client) throw new RoomNotJoinedError();
    return { room, client };
  }

  private refused(what: string, room: AddressedRoom, error: unknown): ModerationRefusedError {
    const refusal = new ModerationRefusedError(what, refusalCondition(error));
    this.context.log.error(`${refusal.message} (room ${room.address}; ${stanzaErrorText(error)})`);
    return refusal;
  }
}
