import { describe, expect, it } from 'vitest';
import { MAX_PLACEMENTS, RelayRegistry, relayRoomFault } from '../../server/gateway/RelayRegistry';
import { parseRelayAnnouncement, RELAY_ANNOUNCEMENT_LIMITS, type RelayAnnouncement } from '../../server/relay/host/announcement';
import { RELAY_LIMITS, relayUrlForRoom } from '../../src/protocol/relay';

const HEARTBEAT_MS = 1_000;

/** A registry on a clock the test moves, and what it logged. */
function registry(): { relays: RelayRegistry; advance: (ms: number) => void; log: string[] } {
  let now = 0;
  const log: string[] = [];
  return { relays: new RelayRegistry(() => now, (line) => log.push(line)), advance: (ms) => (now += ms), log };
}

function host(id: string, load = 0, rooms: string[] = []): RelayAnnouncement {
  return { id, url: `ws://127.0.0.${id === 'a' ? 2 : 3}:8090/relay`, heartbeatMs: HEARTBEAT_MS, load, rooms };
}

describe("A room's media goes to one relay host, chosen when it first needs the relay (by load), and stays there", () => {
  it('places a new room on the least loaded host, counting the rooms placed since its last announcement', () => {
    const { relays } = registry();
    relays.announce(host('a', 10));
    relays.announce(host('b', 11));
    expect(relays.route('one@rooms')?.id).toBe('a');
    expect(relays.route('two@rooms')?.id).toBe('b');
    // Both now count 11 + … : the room's own hash decides a tie, the same on every gateway.
    const third = relays.route('three@rooms')?.id;
    const elsewhere = registry().relays;
    elsewhere.announce(host('a', 11));
    elsewhere.announce(host('b', 12));
    expect(elsewhere.route('three@rooms')?.id).toBe(third);
  });

  it('keeps a room on its host (sticky), whatever the loads become', () => {
    const { relays } = registry();
    relays.announce(host('a', 0));
    relays.announce(host('b', 5));
    expect(relays.route('one@rooms')?.id).toBe('a');
    relays.announce(host('a', 100, ['one@rooms']));
    expect(relays.route('one@rooms')?.id).toBe('a');
  });

  it('sends a room another gateway placed to the host that says it carries it', () => {
    const { relays } = registry();
    relays.announce(host('a', 0));
    relays.announce(host('b', 50, ['elsewhere@rooms']));
    expect(relays.route('elsewhere@rooms')?.id).toBe('b');
  });

  it('sends a connection that names no room (the 1.30.3 client) to the least loaded host', () => {
    const { relays } = registry();
    relays.announce(host('a', 7));
    relays.announce(host('b', 3));
    expect(relays.route(undefined)).toEqual({ id: 'b', url: 'ws://127.0.0.3:8090/relay' });
  });
});

describe('A relay host that dies loses its rooms to the others', () => {
  it('takes a host that missed three heartbeats for dead: its rooms go to a live host, and come back to nothing when none is left', () => {
    const { relays, advance } = registry();
    relays.announce(host('a', 0));
    relays.announce(host('b', 9));
    expect(relays.route('one@rooms')?.id).toBe('a');
    advance(2 * HEARTBEAT_MS);
    relays.announce(host('b', 9));
    advance(0.5 * HEARTBEAT_MS);
    expect(relays.route('one@rooms')?.id).toBe('a');
    advance(HEARTBEAT_MS);
    expect(relays.liveAnnouncements().map(({ id }) => id)).toEqual(['b']);
    expect(relays.route('one@rooms')?.id).toBe('b');
    advance(4 * HEARTBEAT_MS);
    expect(relays.route('one@rooms')).toBeUndefined();
  });

  it('drops a host the gateway cannot reach at once, saying so once, until it announces itself again', () => {
    const { relays, log } = registry();
    relays.announce(host('a', 0));
    relays.announce(host('b', 9));
    expect(relays.route('one@rooms')?.id).toBe('a');
    relays.unreachable('a', new Error('connect ECONNREFUSED 127.0.0.2:8090'));
    relays.unreachable('a', new Error('connect ECONNREFUSED 127.0.0.2:8090'));
    expect(log).toEqual(['relay registry: relay host a (ws://127.0.0.2:8090/relay) is unreachable, its rooms go to the other hosts: connect ECONNREFUSED 127.0.0.2:8090']);
    expect(relays.route('one@rooms')?.id).toBe('b');
    relays.announce(host('a', 0));
    expect(relays.route('one@rooms')?.id).toBe('b');
  });

  it('forgets a placement once its host has announced twice without the room (the room ended there)', () => {
    const { relays, advance } = registry();
    relays.announce(host('a', 0));
    relays.announce(host('b', 1));
    expect(relays.route('one@rooms')?.id).toBe('a');
    advance(HEARTBEAT_MS);
    relays.announce(host('a', 0));
    relays.announce(host('b', 1));
    expect(relays.route('one@rooms')?.id).toBe('a');
    // Placed before a's last announcement and not in this one: the room is placed afresh, by load.
    advance(HEARTBEAT_MS);
    relays.announce(host('a', 5));
    expect(relays.route('one@rooms')?.id).toBe('b');
  });
});

describe('A relay connection places its room only when it names one the relay could take, and the placements kept are bounded', () => {
  it('takes a room address of at most RELAY_LIMITS.idLength characters, or none, and refuses anything else with a clear reason', () => {
    const reason = `room must be a room address (room@service) of at most ${RELAY_LIMITS.idLength} characters`;
    const longest = `${'r'.repeat(RELAY_LIMITS.idLength - '@rooms'.length)}@rooms`;
    expect(relayRoomFault(undefined)).toBeUndefined();
    expect(relayRoomFault('one@rooms.parley.example')).toBeUndefined();
    expect(relayRoomFault(longest)).toBeUndefined();
    for (const bad of [`r${longest}`, 'x'.repeat(8192), '', 'no-service', '@rooms', 'one@rooms/nick']) expect(relayRoomFault(bad)).toBe(reason);
  });

  it(`keeps at most MAX_PLACEMENTS (${MAX_PLACEMENTS}) placements, forgetting the oldest, whose room a host that carries it still gets`, () => {
    let now = 0;
    const relays = new RelayRegistry(() => now, () => {}, 2);
    relays.announce(host('a', 0));
    relays.announce(host('b', 0));
    const first = relays.route('one@rooms')!.id;
    const other = first === 'a' ? 'b' : 'a';
    relays.route('two@rooms');
    relays.route('three@rooms');
    // one@rooms was forgotten: with its host now the loaded one, it is placed afresh by load…
    now += 1;
    relays.announce(host(first, 100));
    relays.announce(host(other, 0));
    expect(relays.route('one@rooms')?.id).toBe(other);
    // …unless its host says it carries it.
    relays.route('four@rooms');
    relays.route('five@rooms');
    relays.announce(host(other, 100, ['one@rooms']));
    relays.announce(host(first, 0));
    expect(relays.route('one@rooms')?.id).toBe(other);
  });
});

describe('Relay host announcements are validated at the gateway', () => {
  it('accepts a well-formed announcement and refuses a bad URL, load or room list', () => {
    expect(parseRelayAnnouncement(host('a', 1.5, ['r@rooms']))).toEqual(host('a', 1.5, ['r@rooms']));
    expect(() => parseRelayAnnouncement({ ...host('a'), url: 'http://127.0.0.2/relay' })).toThrow('url must be a ws:// URL');
    expect(() => parseRelayAnnouncement({ ...host('a'), url: 'wss://relay.example/relay' })).toThrow('url must be a ws:// URL');
    expect(() => parseRelayAnnouncement({ ...host('a'), load: -1 })).toThrow('load must be a non-negative number');
    expect(() => parseRelayAnnouncement({ ...host('a'), rooms: [7] })).toThrow('rooms[0]');
    expect(() => parseRelayAnnouncement({ ...host('a'), heartbeatMs: 0 })).toThrow('heartbeatMs');
  });

  it('bounds the rooms to what a host carries and each address to the relay’s own bound, and the largest such announcement fits the bytes the gateway reads', () => {
    const { idLength, urlLength, rooms, roomAddressLength, bytes } = RELAY_ANNOUNCEMENT_LIMITS;
    // A control character is the longest a character gets in JSON (\u0001: six bytes).
    const escaped = (length: number): string => '\u0001'.repeat(length);
    const largest: RelayAnnouncement = {
      id: escaped(idLength),
      url: `ws://h/${escaped(urlLength - 'ws://h/'.length)}`,
      heartbeatMs: 3_600_000,
      load: Number.MAX_VALUE,
      rooms: Array.from({ length: rooms }, () => escaped(roomAddressLength)),
    };
    expect(parseRelayAnnouncement(largest)).toEqual(largest);
    expect(Buffer.byteLength(JSON.stringify(largest))).toBeLessThanOrEqual(bytes);
    expect(() => parseRelayAnnouncement({ ...largest, rooms: [...largest.rooms, 'one-more@rooms'] })).toThrow(`at most ${rooms} room addresses`);
    expect(() => parseRelayAnnouncement(host('a', 0, [escaped(roomAddressLength + 1)]))).toThrow(`rooms[0] is longer than ${roomAddressLength} characters`);
  });
});

describe("relayUrlForRoom: a relay connection names its room in sfuServer.url's query (src/protocol/relay.ts)", () => {
  it('adds room=<address> and keeps what the URL had', () => {
    expect(relayUrlForRoom('wss://parley.example/relay', 'café@rooms.parley.example')).toBe('wss://parley.example/relay?room=caf%C3%A9%40rooms.parley.example');
    expect(new URL(relayUrlForRoom('ws://127.0.0.1:8080/relay?x=1', 'r@rooms')).searchParams.get('room')).toBe('r@rooms');
  });
});
