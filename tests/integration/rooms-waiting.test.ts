import { describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { useParley } from '../support/parley';
import { connected, joinedRoom, useSessions, waitFor } from '../support/sessions';

const USER_TOKEN_SECRET = 'product-backend-secret';
const server = useParley({ roomsNeedHost: true, userTokenSecret: USER_TOKEN_SECRET });
const openSession = useSessions();

describe('Room state waiting: recipient-unavailable means the room has not started (SPEC §4, §8)', () => {
  it('a guest waits until a host starts the room, then joins it', async () => {
    const guest = openSession({ server: server() });
    await connected(guest);
    const guestRoom = await guest.rooms.joinRoom('Town Hall', { autoJoinCall: false });
    const waiting = await waitFor(guest, 'guest waiting', (state) => state.rooms[guestRoom]?.roomState === 'waiting' && state.rooms[guestRoom]);
    expect(waiting).toMatchObject({ roomNotStarted: true, joined: false });

    const hostToken = signToken(USER_TOKEN_SECRET, { sub: 'host', exp: Math.floor(Date.now() / 1000) + 600, customerData: { displayName: 'Host' } });
    const host = openSession({ server: server(), userToken: hostToken });
    await connected(host);
    await joinedRoom(host, await host.rooms.joinRoom('Town Hall', { autoJoinCall: false }));

    // Asking again once the host is in: the guest joins the started room.
    await guest.rooms.joinRoom('Town Hall', { autoJoinCall: false });
    expect(await joinedRoom(guest, guestRoom)).toMatchObject({ roomNotStarted: false });
  });
});
