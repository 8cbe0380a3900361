import { describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { awaitingRejoin } from '../../src/protocol/awaitingRejoin';
import { LIVENESS } from '../../src/protocol/clientDefaults';
import { RECONNECT, ROOM_START_RETRY } from '../../src/protocol/constants';
import { ManualClock } from '../support/ManualClock';
import { useParley } from '../support/parley';
import { connected, joinedRoom, useSessions, waitFor, type TestSession } from '../support/sessions';
import { until } from '../support/until';

const USER_TOKEN_SECRET = 'product-backend-secret';
const server = useParley({ roomsNeedHost: true, userTokenSecret: USER_TOKEN_SECRET });
const openSession = useSessions();

function hostToken(): string {
  return signToken(USER_TOKEN_SECRET, { sub: 'host', exp: Math.floor(Date.now() / 1000) + 600, customerData: { displayName: 'Host' } });
}

/** A guest on fake time (random 0.5: half of each jitter), so that its retries go when the test says; never given up for silence meanwhile. */
function guestOnFakeTime(): TestSession<ManualClock> {
  const clock = new ManualClock();
  clock.randomValue = 0.5;
  return openSession({ server: server(), clock, liveness: { ...LIVENESS, quietMs: 24 * 3_600_000 } });
}

/** Fake time enough for the retry after `attemptsSoFar` refusals. */
function retryDelay(attemptsSoFar: number): number {
  const { delaysMs, jitterMs } = ROOM_START_RETRY;
  return delaysMs[Math.min(attemptsSoFar, delaysMs.length - 1)]! + jitterMs / 2;
}

function waiting(who: TestSession, roomId: string) {
  return waitFor(who, 'guest waiting', (state) => state.rooms[roomId]?.roomState === 'waiting' && state.rooms[roomId]);
}

/** Join presences the session sent to a room (by its localpart). */
function joinsTo(who: TestSession, localpart: string): number {
  return who.sent.filter((xml) => xml.includes(`to="${localpart}@`) && xml.includes('http://jabber.org/protocol/muc"')).length;
}

/** The room refused the session's join as not started this many times. */
function refusals(who: TestSession): number {
  return who.logs.filter((line) => line.includes('join refused: recipient-unavailable')).length;
}

describe('Room state waiting: recipient-unavailable means the room has not started (SPEC §4, §8)', () => {
  it('a guest waits until a host starts the room, then joins it by itself (ROOM_START_RETRY)', async () => {
    const guest = guestOnFakeTime();
    await connected(guest);
    const guestRoom = await guest.rooms.joinRoom('Town Hall', { autoJoinCall: false });
    expect(await waiting(guest, guestRoom)).toMatchObject({ roomNotStarted: true, joined: false });

    const host = openSession({ server: server(), userToken: hostToken() });
    await connected(host);
    await joinedRoom(host, await host.rooms.joinRoom('Town Hall', { autoJoinCall: false }));

    // Nobody asks again: the guest's session does, after the schedule's first delay, and joins the started room.
    expect(joinsTo(guest, 'town-hall')).toBe(1);
    await guest.clock.advance(retryDelay(0));
    expect(await joinedRoom(guest, guestRoom)).toMatchObject({ roomNotStarted: false });
    expect(joinsTo(guest, 'town-hall')).toBe(2);
  });

  it('a guest keeps asking, staying waiting, on the growing schedule, and stops once the room is left', async () => {
    const guest = guestOnFakeTime();
    await connected(guest);
    const guestRoom = await guest.rooms.joinRoom('Empty Hall', { autoJoinCall: false });
    await waiting(guest, guestRoom);
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await guest.clock.advance(retryDelay(attempt - 1) - 1);
      expect(joinsTo(guest, 'empty-hall')).toBe(attempt);
      await guest.clock.advance(1);
      await until(() => refusals(guest) === attempt + 1, `refusal ${attempt + 1}`);
      expect(guest.session.store.state.rooms[guestRoom]).toMatchObject({ roomState: 'waiting', roomNotStarted: true });
    }

    await guest.rooms.leaveRoom(guestRoom);
    await guest.clock.advance(10 * retryDelay(ROOM_START_RETRY.delaysMs.length));
    expect(joinsTo(guest, 'empty-hall')).toBe(3);
  });

  it('a guest whose server lost the room awaits its rejoin meanwhile, and is back by itself once the host is (issue 13)', async () => {
    const host = openSession({ server: server(), userToken: hostToken() });
    await connected(host);
    const hostRoom = await joinedRoom(host, await host.rooms.joinRoom('Board Room', { autoJoinCall: false }));
    const guest = guestOnFakeTime();
    await connected(guest);
    const guestRoom = await joinedRoom(guest, await guest.rooms.joinRoom('Board Room', { autoJoinCall: false }));

    // The host is away when the server crashes; it comes back with the room empty and not started.
    host.session.disconnect();
    await server().killXmpp();
    await until(() => guest.session.connection.state === 'disconnected', 'the guest disconnected');
    await server().restartXmpp();
    await guest.clock.advance(RECONNECT.stepMs + RECONNECT.maxJitterMs);
    const refused = await waiting(guest, guestRoom.id);
    // A room we were in, refused as not started: one we are coming back to (the call keeps its people, RejoinHold).
    expect(awaitingRejoin(refused)).toBe(true);

    await host.session.connect();
    await joinedRoom(host, hostRoom.id);
    await guest.clock.advance(retryDelay(0));
    expect(await joinedRoom(guest, guestRoom.id)).toMatchObject({ selfAddress: guestRoom.selfAddress });
  });

  it('a room the host has left is not started again for a guest, though the room is kept (rooms are persistent)', async () => {
    const host = openSession({ server: server(), userToken: hostToken() });
    await connected(host);
    const hostRoom = await joinedRoom(host, await host.rooms.joinRoom('Staff Room', { autoJoinCall: false }));
    await host.rooms.leaveRoom(hostRoom.id);
    await expect.poll(async () => (await server().xmpp.stats()).rooms[hostRoom.address]).toEqual({ occupants: 0 });

    const guest = openSession({ server: server() });
    await connected(guest);
    expect(await waiting(guest, await guest.rooms.joinRoom('Staff Room', { autoJoinCall: false }))).toMatchObject({ roomNotStarted: true });
  });
});
