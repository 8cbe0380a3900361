import { bareAddress } from '../../protocol/addresses';
import type { SessionContext } from '../SessionContext';
import { optionalAlternate } from './commandInput';
import type { RoomRecords } from './RoomRecords';
import { stanzaErrorText } from './stanzaErrorText';

/** SPEC §6 kick and destroy (PROTOCOL.md "Kick", "Destroy"). The room enforces who may; failures are logged. */
export class RoomModeration {
  constructor(
    private readonly context: SessionContext,
    private readonly records: RoomRecords,
  ) {}

  /** Sets the peer's affiliation to outcast by their real address (shown to moderators only). */
  async kick(peerAddress: unknown): Promise<void> {
    const peer = typeof peerAddress === 'string' ? this.context.store.get('peers', peerAddress) : undefined;
    const room = peer && this.records.joined(peer.roomAddress);
    const client = this.context.client;
    if (!peer || !room || !client) return;
    if (!peer.userAddress) {
      this.context.log.error(`Could not kick ${peer.address}: the room does not show their real address`);
      return;
    }
    try {
      await client.setRoomAffiliation(room.address, bareAddress(peer.userAddress), 'outcast');
    } catch (error) {
      this.context.log.error(`Could not kick ${peer.address}: ${stanzaErrorText(error)}`);
    }
  }

  /** Destroys the room, optionally naming an alternate venue and its password. */
  async destroy(roomAddress: unknown, alternate: unknown): Promise<void> {
    const venue = optionalAlternate(alternate);
    const room = this.records.joined(roomAddress);
    const client = this.context.client;
    if (!room || !client) return;
    try {
      await client.destroyRoom(room.address, venue);
    } catch (error) {
      this.context.log.error(`Could not destroy room ${room.address}: ${stanzaErrorText(error)}`);
    }
  }
}
