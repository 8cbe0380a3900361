import type { Peer, Room } from '../../protocol/entities';
import { roomByAddress } from '../../protocol/roomLookup';
import type { SessionContext } from '../SessionContext';

/** The room's record says we are in it. */
function recordSaysIn(room: Room | undefined): boolean {
  return room?.joined === true && room.roomState === 'joined';
}

/**
 * The chat domain's view of rooms and peers, which the rooms domain owns: which rooms we are in,
 * our own occupant address in each, the unread count, and the few Peer fields chat keeps current
 * (chatState, realTimeText, requestingAttention). Peers are updated only while present.
 */
export class ChatRooms {
  constructor(private readonly context: SessionContext) {}

  /** The Room record (keyed by local id) that has this address. */
  room(roomAddress: string): Room | undefined {
    return roomByAddress(this.context.store.state.rooms, roomAddress);
  }

  /**
   * Whether we are in the room: its record says joined, or the current client joined it itself
   * (StanzaJS `joinRoom` keeps `joinedRooms`).
   */
  isJoined(roomAddress: string): boolean {
    if (recordSaysIn(this.room(roomAddress))) return true;
    return this.context.client?.joinedRooms.has(roomAddress) ?? false;
  }

  /** The addresses of the rooms whose record says we are in them. */
  joinedAddresses(): Set<string> {
    const joined = Object.values(this.context.store.state.rooms).filter(recordSaysIn);
    return new Set(joined.flatMap((room) => (room.address ? [room.address] : [])));
  }

  /** Our occupant address in the room (PROTOCOL.md: `<roomAddress>/<config id>` unless the room says otherwise). */
  selfOccupant(roomAddress: string): string | undefined {
    const room = this.room(roomAddress);
    if (room?.selfAddress) return room.selfAddress;
    const nick = this.context.client?.joinedRooms.get(roomAddress) ?? this.context.config?.id;
    return nick ? `${roomAddress}/${nick}` : undefined;
  }

  incrementUnread(roomAddress: string): void {
    const room = this.room(roomAddress);
    if (room) this.context.store.update('rooms', room.id, { unreadCount: room.unreadCount + 1 });
  }

  markRead(roomAddress: string): void {
    const room = this.room(roomAddress);
    if (room && room.unreadCount !== 0) this.context.store.update('rooms', room.id, { unreadCount: 0 });
  }

  peer(occupantAddress: string): Peer | undefined {
    return this.context.store.get('peers', occupantAddress);
  }

  /** Changes a peer the rooms domain created; nothing when there is none (or nothing would change). */
  updatePeer(occupantAddress: string, change: Partial<Pick<Peer, 'chatState' | 'realTimeText' | 'requestingAttention'>>): void {
    const peer = this.peer(occupantAddress);
    if (!peer) return;
    const differs = (Object.keys(change) as Array<keyof typeof change>).some((key) => peer[key] !== change[key]);
    if (differs) this.context.store.update('peers', occupantAddress, change);
  }
}
