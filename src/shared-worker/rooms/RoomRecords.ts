import { parseRoomAddress } from '../../protocol/addresses';
import type { CallRecord, Room } from '../../protocol/entities';
import type { StateStore } from '../StateStore';
import { roomByAddress } from '../../protocol/roomLookup';
import type { Roster } from '../roomEvents/rosterEvents';

/** A room whose address is known (after the room config request). */
export type AddressedRoom = Room & { address: string };

/** The rooms domain's view of the store: rooms, their call records and peers. */
export class RoomRecords {
  constructor(private readonly store: StateStore) {}

  get rooms(): Record<string, Room> {
    return this.store.state.rooms;
  }

  room(roomId: unknown): Room | undefined {
    return typeof roomId === 'string' ? this.store.get('rooms', roomId) : undefined;
  }

  call(roomAddress: string): CallRecord | undefined {
    return this.store.get('calls', roomAddress);
  }

  /** A room by a validated address, in any state. */
  byAddress(roomAddress: unknown): AddressedRoom | undefined {
    const address = parseRoomAddress(roomAddress);
    const room = address ? roomByAddress(this.rooms, address) : undefined;
    return room?.address ? (room as AddressedRoom) : undefined;
  }

  /** A room we are in (state joined) by address. */
  joined(roomAddress: unknown): AddressedRoom | undefined {
    const room = this.byAddress(roomAddress);
    return room && room.roomState === 'joined' && room.joined ? room : undefined;
  }

  /** Applies a change learnt from the room if the room is still the one asked about, and joined; true when applied. */
  updateIfJoined(room: AddressedRoom, change: Partial<Room>): boolean {
    const current = this.room(room.id);
    if (!current || current.address !== room.address || current.roomState !== 'joined') return false;
    this.store.update('rooms', room.id, change);
    return true;
  }

  /** Who else is in the room now, by occupant address (the event log compares rosters across a reconnect). */
  rosterOf(roomAddress: string): Roster {
    const peers = Object.values(this.store.state.peers).filter((peer) => peer.roomAddress === roomAddress && !peer.isSelf);
    return new Map(peers.map((peer) => [peer.address, peer.displayName]));
  }

  removePeersOf(roomAddress: string): void {
    for (const peer of Object.values(this.store.state.peers)) {
      if (peer.roomAddress === roomAddress) this.store.remove('peers', peer.address);
    }
  }
}
