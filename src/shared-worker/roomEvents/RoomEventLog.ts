import type { Clock } from '../../common/clock';
import { LIMITS } from '../../protocol/constants';
import type { Peer, RoomEventKind } from '../../protocol/entities';
import type { StateStore } from '../StateStore';
import { rejoinEvents, type Roster } from './rosterEvents';

/**
 * The event lines of the rooms' chats (issue 15: joins, leaves, kicks, lock changes, attention
 * requests), kept in the state of record so that every tab shows the same lines once, a tab opened
 * later included. They are derived here from what the room tells this one session and never go on
 * the wire. Across a reconnect (SPEC §4: every peer is cleared, the rooms rejoin) the room's roster
 * before the drop is kept, and the rejoin says only what changed meanwhile.
 */
export class RoomEventLog {
  private next = 0;
  /** Each interrupted room's roster when the connection dropped, until it is rejoined or left. */
  private readonly before = new Map<string, Roster>();

  constructor(
    private readonly store: StateStore,
    private readonly clock: Clock,
  ) {}

  /** A line about `about` (undefined: about the room itself). */
  add(roomAddress: string, kind: RoomEventKind, about: Pick<Peer, 'address' | 'displayName'> | undefined): void {
    const id = `event-${this.next++}`;
    this.store.upsert('roomEvents', id, { id, roomAddress, kind, displayName: about?.displayName, peerAddress: about?.address, time: this.clock.now() });
    const ofRoom = Object.values(this.store.state.roomEvents).filter((event) => event.roomAddress === roomAddress);
    // Records keep their insertion order (ids are not integers): the first are the oldest.
    for (const old of ofRoom.slice(0, Math.max(0, ofRoom.length - LIMITS.roomEventsPerRoom))) this.store.remove('roomEvents', old.id);
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
  }
}
