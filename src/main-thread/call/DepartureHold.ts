import type { Clock } from '../../common/clock';
import type { Peer } from '../../protocol/entities';
import { DEPARTURE_HOLD } from '../../protocol/clientDefaults';

interface Held {
  readonly peer: Peer;
  /** Let go then, back or not. */
  readonly until: number;
  /** The newest packet time read from them, and when (our clock) it was first read. */
  packetAt: number;
  seenAt: number;
}

/**
 * Issue 13, the other way round from RejoinHold: someone of the call whose room says they left — a
 * plain leave, not a removal by a moderator nor a new nickname — while their media still reaches us
 * has most likely lost only their connection to the chat server. The server announces a connection
 * it replaced as a leave and, a moment later, a join: their session gave up a connection that had
 * silently died and logged in again, or a proxy closed their websocket. Their media does not go
 * through that server, so the call keeps them (their tile, their sessions with us) for
 * DEPARTURE_HOLD.graceMs while a packet of theirs keeps arriving; back at the same address within
 * it, their record takes over and the sessions carry on with no new offer, and what was said to
 * them meanwhile is said again (`returned`). One whose media stops for DEPARTURE_HOLD.stalledAfterMs
 * (their tab closed, their browser gone) is let go then; one who ended their sessions with us before
 * leaving (Parley's "Leave" does) is not held at all.
 */
export class DepartureHold {
  /** The others of the room as last followed, by address. */
  private last = new Map<string, Peer>();
  private readonly held = new Map<string, Held>();
  private watch: unknown;

  constructor(
    private readonly clock: Clock,
    /** When the newest packet of theirs reached us on a connected session that receives from them; undefined when none does. */
    private readonly newestPacketFrom: (address: string) => number | undefined,
    /** Someone was let go: the call follows the room again. */
    private readonly released: () => void,
  ) {}

  /**
   * `listed`: the others the room lists now, while it is joined and we are in its call;
   * `plainLeave`: whether the room's last word about an address was that they left. Returns the
   * people held, and the held people the room lists again.
   */
  follow(listed: readonly Peer[], plainLeave: (address: string) => boolean): { held: readonly Peer[]; returned: readonly string[] } {
    const listedNow = new Map(listed.map((peer) => [peer.address, peer]));
    const returned = [...this.held.keys()].filter((address) => listedNow.has(address));
    for (const address of returned) this.held.delete(address);
    const now = this.clock.now();
    for (const [address, peer] of this.last) {
      if (listedNow.has(address) || !peer.joinedCall || !plainLeave(address)) continue;
      const packetAt = this.newestPacketFrom(address);
      if (packetAt !== undefined) this.held.set(address, { peer, until: now + DEPARTURE_HOLD.graceMs, packetAt, seenAt: now });
    }
    this.last = listedNow;
    this.watchWhileHeld();
    return { held: this.heldPeers(), returned };
  }

  heldPeers(): readonly Peer[] {
    return [...this.held.values()].map((held) => held.peer);
  }

  /** Our own room or call is gone, or waits for our rejoin: nobody is held for their return. */
  clear(): void {
    this.last.clear();
    this.held.clear();
    this.watchWhileHeld();
  }

  private watchWhileHeld(): void {
    if (this.held.size > 0 && this.watch === undefined) this.watch = this.clock.setInterval(() => this.check(), DEPARTURE_HOLD.checkIntervalMs);
    else if (this.held.size === 0 && this.watch !== undefined) {
      this.clock.clearInterval(this.watch);
      this.watch = undefined;
    }
  }

  private check(): void {
    const now = this.clock.now();
    let letGo = false;
    for (const [address, held] of this.held) {
      const packetAt = this.newestPacketFrom(address);
      if (packetAt !== undefined && packetAt !== held.packetAt) {
        held.packetAt = packetAt;
        held.seenAt = now;
      }
      if (packetAt === undefined || now - held.seenAt >= DEPARTURE_HOLD.stalledAfterMs || now >= held.until) {
        this.held.delete(address);
        letGo = true;
      }
    }
    this.watchWhileHeld();
    if (letGo) this.released();
  }
}
