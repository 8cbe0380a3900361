import { createHash } from 'node:crypto';
import { parseRoomAddress } from '../../src/protocol/addresses';
import { RELAY_LIMITS } from '../../src/protocol/relay';
import type { RelayAnnouncement } from '../relay/host/announcement';

/** Where a relay connection goes. */
export interface RelayRoute {
  id: string;
  url: string;
}

interface KnownRelay {
  announcement: RelayAnnouncement;
  rooms: Set<string>;
  lastSeenMs: number;
  /** Rooms and room-less connections this gateway sent here since the host last announced itself. */
  placedSince: number;
}

/** A relay host that misses this many heartbeats in a row is taken for dead. */
const MISSED_HEARTBEATS = 3;

/**
 * Rooms placed at most, the oldest placement forgotten first: a room is named by whoever connects,
 * before the relay authenticates them. A forgotten room that is running stays on its host all the
 * same, since the host's announcements list it.
 */
export const MAX_PLACEMENTS = 10_000;

/**
 * Why `roomAddress`, from a relay connection's `?room=`, cannot name a room's placement; undefined
 * when it can (or is absent: the 1.30.3 client names none). The relay takes room ids of at most
 * RELAY_LIMITS.idLength characters, so a longer one could never be used there.
 */
export function relayRoomFault(roomAddress: string | undefined): string | undefined {
  if (roomAddress === undefined) return undefined;
  if (roomAddress.length > RELAY_LIMITS.idLength || parseRoomAddress(roomAddress) === undefined) {
    return `room must be a room address (room@service) of at most ${RELAY_LIMITS.idLength} characters`;
  }
  return undefined;
}

/**
 * The relay hosts that announce themselves to this gateway, and which host carries each room's
 * media (README "How it scales out"). A room is placed when its media first needs the relay (the
 * first connection naming it): on the host that already carries it (its announcement says so:
 * another gateway placed it), else on the least loaded live host. It stays there while that host
 * lives (sticky); when the host dies (missed heartbeats, or the gateway cannot reach it) the
 * room's next connection places it again, on a live host. Between two hosts of equal load the
 * room's own hash decides, so that gateways with the same view place a new room alike.
 */
export class RelayRegistry {
  private readonly relays = new Map<string, KnownRelay>();
  private readonly placements = new Map<string, { relayId: string; atMs: number }>();

  constructor(
    private readonly nowMs: () => number,
    private readonly log: (line: string) => void,
    private readonly maxPlacements = MAX_PLACEMENTS,
  ) {}

  announce(announcement: RelayAnnouncement): void {
    const previous = this.relays.get(announcement.id);
    const now = this.nowMs();
    const rooms = new Set(announcement.rooms);
    // A room placed here before the previous announcement that this one does not list has ended.
    for (const [room, placement] of this.placements) {
      if (placement.relayId === announcement.id && !rooms.has(room) && previous && placement.atMs < previous.lastSeenMs) {
        this.placements.delete(room);
      }
    }
    this.relays.set(announcement.id, { announcement, rooms, lastSeenMs: now, placedSince: 0 });
  }

  /**
   * The host for a connection naming `roomAddress` (or none: the 1.30.3 client's), or undefined
   * when no host is live. Only for a websocket handshake whose room passed `relayRoomFault`: each
   * call counts as a connection placed.
   */
  route(roomAddress: string | undefined): RelayRoute | undefined {
    const live = this.liveRelays();
    if (live.length === 0) return undefined;
    if (roomAddress === undefined) return this.placeOn(leastLoaded(live, ''));
    const placed = this.placements.get(roomAddress);
    const sticky = placed && live.find((relay) => relay.announcement.id === placed.relayId);
    if (sticky) return routeOf(sticky);
    const chosen = live.find((relay) => relay.rooms.has(roomAddress)) ?? leastLoaded(live, roomAddress);
    if (this.placements.size >= this.maxPlacements) this.placements.delete(this.placements.keys().next().value!);
    this.placements.set(roomAddress, { relayId: chosen.announcement.id, atMs: this.nowMs() });
    return this.placeOn(chosen);
  }

  /** The gateway could not reach this host: it is gone until it announces itself again. */
  unreachable(id: string, error: Error): void {
    const relay = this.relays.get(id);
    if (!relay) return;
    this.relays.delete(id);
    this.log(`relay registry: relay host ${id} (${relay.announcement.url}) is unreachable, its rooms go to the other hosts: ${error.message}`);
  }

  /** Live hosts as they last announced themselves (the rooms each says it carries), for operators and tests. */
  liveAnnouncements(): RelayAnnouncement[] {
    return this.liveRelays().map((relay) => relay.announcement);
  }

  private liveRelays(): KnownRelay[] {
    const now = this.nowMs();
    for (const [id, relay] of this.relays) {
      if (now - relay.lastSeenMs > MISSED_HEARTBEATS * relay.announcement.heartbeatMs) this.relays.delete(id);
    }
    for (const [room, placement] of this.placements) {
      if (!this.relays.has(placement.relayId)) this.placements.delete(room);
    }
    return [...this.relays.values()];
  }

  private placeOn(relay: KnownRelay): RelayRoute {
    relay.placedSince += 1;
    return routeOf(relay);
  }
}

function routeOf(relay: KnownRelay): RelayRoute {
  return { id: relay.announcement.id, url: relay.announcement.url };
}

/** Least load, counting what was placed since the last announcement; ties broken by a hash of the room and the host. */
function leastLoaded(relays: KnownRelay[], roomAddress: string): KnownRelay {
  const score = (relay: KnownRelay): number => relay.announcement.load + relay.placedSince;
  const tieBreak = (relay: KnownRelay): string => createHash('sha256').update(`${roomAddress}\n${relay.announcement.id}`).digest('hex');
  return relays.reduce((best, relay) => {
    const difference = score(relay) - score(best);
    return difference < 0 || (difference === 0 && tieBreak(relay) < tieBreak(best)) ? relay : best;
  });
}
