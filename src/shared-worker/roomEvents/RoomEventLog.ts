import type { Clock } from '../../common/clock';
import { bareAddress } from '../../protocol/addresses';
import { DEPARTURE_HOLD, NICKNAME_CHANGE_WITHIN_MS } from '../../protocol/clientDefaults';
import { LIMITS } from '../../protocol/constants';
import type { Peer, RoomEvent, RoomEventKind } from '../../protocol/entities';
import type { StateStore } from '../StateStore';
import { rejoinEvents, type Roster } from './rosterEvents';

/**
 * The event lines of the rooms' chats (issue 15: joins, leaves, kicks, lock changes, attention
 * requests), kept in the state of record so that every tab shows the same lines once, a tab opened
 * later included. They are derived here from what the room tells this one session and never go on
 * the wire. Across a reconnect (SPEC §4: every peer is cleared, the rooms rejoin) the room's roster
 * before the drop is kept, and the rejoin says only what changed meanwhile. Someone whose connection
 * the server replaced (they logged in again: it announces a leave, then their join at the same
 * address) did not come and go: back within DEPARTURE_HOLD.graceMs, their leave's line gives way
 * to one saying they reconnected, and no arrival is said (nor chimes).
 */
export class RoomEventLog {
  private next = 0;
  /** Each interrupted room's roster when the connection dropped, until it is rejoined or left. */
  private readonly before = new Map<string, Roster>();
  /** The plain leaves whose person may still be back at the same address: occupant address → that line. */
  private readonly leaves = new Map<string, { roomAddress: string; eventId: string; userAddress: string | undefined; until: number }>();
  /** Nickname changes whose presence at the new address has not come yet: that address → who they were. */
  private readonly renames = new Map<string, { roomAddress: string; former: { name: string; address: string }; until: number }>();

  constructor(
    private readonly store: StateStore,
    private readonly clock: Clock,
  ) {}

  /** A line about `about` (undefined: about the room itself), with what only some kinds say (`details`); returns its id. */
  add(
    roomAddress: string,
    kind: RoomEventKind,
    about: Pick<Peer, 'address' | 'displayName'> | undefined,
    details: Pick<RoomEvent, 'formerName' | 'formerAddress' | 'reason'> = {},
  ): string {
    const id = `event-${this.next++}`;
    this.store.upsert('roomEvents', id, { id, roomAddress, kind, displayName: about?.displayName, peerAddress: about?.address, time: this.clock.now(), ...details });
    const ofRoom = Object.values(this.store.state.roomEvents).filter((event) => event.roomAddress === roomAddress);
    // Records keep their insertion order (ids are not integers): the first are the oldest.
    for (const old of ofRoom.slice(0, Math.max(0, ofRoom.length - LIMITS.roomEventsPerRoom))) this.store.remove('roomEvents', old.id);
    return id;
  }

  /** Someone left the room plainly (not removed, not renamed): said at once, and remembered a while for their return. */
  left(roomAddress: string, peer: Pick<Peer, 'address' | 'displayName' | 'userAddress'>): void {
    const now = this.clock.now();
    dropWhere(this.leaves, (leave) => now > leave.until);
    this.leaves.set(peer.address, { roomAddress, eventId: this.add(roomAddress, 'left', peer), userAddress: peer.userAddress, until: now + DEPARTURE_HOLD.graceMs });
  }

  /** Someone changed their nickname (status 303): their presence at `newAddress` follows, which is no arrival. */
  renamed(roomAddress: string, peer: Pick<Peer, 'address' | 'displayName'>, newAddress: string): void {
    const now = this.clock.now();
    dropWhere(this.renames, (rename) => now > rename.until);
    this.renames.set(newAddress, { roomAddress, former: { name: peer.displayName, address: peer.address }, until: now + NICKNAME_CHANGE_WITHIN_MS });
  }

  /**
   * Someone arrived while we are in the room: a join, the same person back at once at the same
   * address, or renamed (said only when their name changed with the nickname: a plain XMPP client's).
   */
  arrived(roomAddress: string, peer: Pick<Peer, 'address' | 'displayName' | 'userAddress'>): void {
    const rename = this.renames.get(peer.address);
    this.renames.delete(peer.address);
    if (rename !== undefined && this.clock.now() <= rename.until) {
      if (rename.former.name !== peer.displayName) this.add(roomAddress, 'renamed', peer, { formerName: rename.former.name, formerAddress: rename.former.address });
      return;
    }
    const leave = this.leaves.get(peer.address);
    this.leaves.delete(peer.address);
    const back = leave !== undefined && sameUser(leave.userAddress, peer.userAddress) && this.clock.now() <= leave.until && this.store.state.roomEvents[leave.eventId] !== undefined;
    // A new line rather than the leave's changed: a screen reader hears that they are back.
    if (back) this.store.remove('roomEvents', leave.eventId);
    this.add(roomAddress, back ? 'reconnected' : 'joined', peer);
  }

  /** The connection dropped while we were in the room: who was there. A drop during a rejoin keeps the first roster. */
  interrupted(roomAddress: string, roster: Roster): void {
    if (!this.before.has(roomAddress)) this.before.set(roomAddress, roster);
  }

  /** Our self-presence completed a join; the room has shown everyone already in it (XEP-0045 sends them first). */
  joined(roomAddress: string, roster: Roster): void {
    const before = this.before.get(roomAddress);
    this.before.delete(roomAddress);
    // A first join says nothing of the people already there.
    if (!before) return;
    for (const event of rejoinEvents(before, roster)) this.add(roomAddress, event.kind, event);
  }

  /** We left the room, or it put us out: there is no rejoin to compare. */
  forget(roomAddress: string): void {
    this.before.delete(roomAddress);
    dropWhere(this.leaves, (leave) => leave.roomAddress === roomAddress);
    dropWhere(this.renames, (rename) => rename.roomAddress === roomAddress);
  }
}

/** Takes out of `entries` (the leaves or the renames held, by occupant address) those `drop` says are done. */
function dropWhere<Entry>(entries: Map<string, Entry>, drop: (entry: Entry) => boolean): void {
  for (const [address, entry] of entries) if (drop(entry)) entries.delete(address);
}

/** Whether the real addresses, where the room shows both (to its moderators), are one user's; a new connection has a resource of its own. */
function sameUser(before: string | undefined, now: string | undefined): boolean {
  return before === undefined || now === undefined || bareAddress(before) === bareAddress(now);
}
