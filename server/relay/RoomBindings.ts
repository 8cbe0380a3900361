import { LimitExceededError } from './errors';
import { HeldCounts } from './HeldCounts';

/**
 * The distinct rooms the relay's sessions are bound to, each with how many sessions, against a cap
 * on the rooms (RELAY_LIMITS.roomsPerRelay): a session joins a room already bound freely, but
 * binds no room more past the cap, so that what a relay host announces stays within what the
 * gateways take. A room is bound from the first room-naming call, before any router is made for
 * it, so that its next connections are placed on the same host.
 */
export class RoomBindings {
  private readonly sessions = new HeldCounts();

  constructor(private readonly cap: number) {}

  /** Counts one session in `roomAddress`, or throws LimitExceededError when it is a room more than the cap; returns its release. */
  bind(roomAddress: string): () => void {
    if (this.sessions.of(roomAddress) === 0 && this.sessions.size >= this.cap) throw new LimitExceededError(`too many rooms on this relay: at most ${this.cap}`);
    return this.sessions.hold(roomAddress);
  }

  roomAddresses(): string[] {
    return this.sessions.keys();
  }
}
