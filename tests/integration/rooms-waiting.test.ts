import { describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { useParley } from '../support/parley';
import { connected, joinedRoom, useSessions, waitFor, type TestSession } from '../support/sessions';

const USER_TOKEN_SECRET = 'product-backend-secret';
const server = useParley({ roomsNeedHost: true, userTokenSecret: USER_TOKEN_SECRET });
const openSession = useSessions();

function hostToken(): string {
  return signToken(USER_TOKEN_SECRET, { sub: 'host', exp: Math.floor(Date.now() / 1000) + 600, customerData: { displayName: 'Host' } });
}

function waiting(who: TestSession, roomId: string) {
  return waitFor(who, 'guest waiting', (state) => state.rooms[roomId]?.roomState === 'waiting' && state.rooms[roomId]);
}

describe('Room state waiting: recipient-unavailable means the room has not started (SPEC §4, §8)', () => {
  it('a guest waits until a host starts the room, then joins it', async () => {
    const guest = openSession({ server: server() });
    await connected(guest);
    const guestRoom = await guest.rooms.joinRoom('Town Hall', { autoJoinCall: false });
    expect(await waiting(guest, guestRoom)).toMatchObject({ roomNotStarted: true, joined: false });

    const host = openSession({ server: server(), userToken: hostToken() });
    await connected(host);
    await joinedRoom(host, await host.rooms.joinRoom('Town Hall', { autoJoinCall: false }));

    // Asking again once the host is in: the guest joins the started room.
    await guest.rooms.joinRoom('Town Hall', { autoJoinCall: false });
    expect(await joinedRoom(guest, guestRoom)).toMatchObject({ roomNotStarted: false });
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
