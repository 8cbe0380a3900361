// A restart brings back rooms, never people (Prosody: mod_muc_parley_room_persistence.lua). Prosody
// saves each room's occupants with it when it stops, and a client whose connection was cut just
// before is still an occupant then: its session is parked for stream resumption (XEP-0198). Such an
// occupant came back with the room on the next start, a phantom owner that kept the room from ever
// emptying and counted against its limit. Seen through plain XMPP clients, as any client would.
// The same module must not take for a phantom someone whose room Prosody merely swapped out of
// memory (it keeps `muc_room_cache_size` rooms, 100 by default) and who leaves meanwhile.
import { randomUUID } from 'node:crypto';
import type { ReceivedMUCPresence } from 'stanza/protocol';
import { describe, expect, it } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import { providerConfig, useRestartedParley } from '../support/parley';
import { WAIT_MS } from '../support/sessions';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

// Registered first, so its teardown runs after the clients' (hooks unwind as a stack).
const parley = useRestartedParley();
const track = usePlainClients();

/** One person per room, so that each is a chance for the cut to land inside the stop's window. */
const ROOMS = 6;

/** Parley started, and one person in each of `ROOMS` new rooms. */
async function peopleInRooms(): Promise<{ running: RunningParley; rooms: string[] }> {
  const running = await parley.start();
  const rooms = Array.from({ length: ROOMS }, () => `phantom-${randomUUID().slice(0, 8)}@${running.settings.mucDomain}`);
  for (const room of rooms) {
    const config = await providerConfig(running);
    const client = track(clientFor(config));
    await login(client);
    await withTimeout(client.joinRoom(room, config.id, { nick: 'Gone' }), WAIT_MS, 'joining');
  }
  expect(Object.values((await running.xmpp.stats()).rooms).map((room) => room.occupants)).toEqual(rooms.map(() => 1));
  return { running, rooms };
}

/** Starts Parley again on the same port and data folder; a newcomer joins each room and must be alone there. */
async function restartAndJoinAlone(port: number, rooms: string[]): Promise<void> {
  const running = await parley.start({ port });
  for (const room of rooms) {
    const config = await providerConfig(running);
    const client = track(clientFor(config));
    const others: string[] = [];
    client.on('muc:available', (presence: ReceivedMUCPresence) => {
      if (presence.from !== `${room}/${config.id}`) others.push(presence.from);
    });
    await login(client);
    const self = await withTimeout(client.joinRoom(room, config.id, { nick: 'Next' }), WAIT_MS, 'joining after the restart');
    // The room itself came back (its first person still owns it), and nobody else is in it.
    expect({ room, others, occupants: (await running.xmpp.stats()).rooms[room]?.occupants }).toEqual({ room, others: [], occupants: 1 });
    expect(self.muc?.affiliation).not.toBe('owner');
  }
}

describe('A restarted server brings back rooms, not the people who were in them', () => {
  it('the next joiner finds nobody else in a room whose people were cut off right before the stop', async () => {
    const { running, rooms } = await peopleInRooms();
    const port = Number(new URL(running.url).port);
    // Every client's connection cut, as a stop that closed the gateway's websockets before the XMPP server did.
    await running.restartGateway();
    // The XMPP server has heard the cut once it answers a request made after it.
    await running.xmpp.stats();
    await parley.stop();
    await restartAndJoinAlone(port, rooms);
  }, 60_000);

  it('stop() ends the XMPP server while its clients are still connected, so that none is parked and saved into a room', async () => {
    const { running, rooms } = await peopleInRooms();
    const port = Number(new URL(running.url).port);
    await parley.stop();
    await restartAndJoinAlone(port, rooms);
  }, 60_000);
});

/** Prosody's `muc_room_cache_size` default: rooms kept in memory, the least recently used swapped out beyond it. */
const ROOMS_IN_MEMORY = 100;

describe('A room swapped out of memory keeps its people: one who leaves meanwhile is seen to leave', () => {
  it('the others are told of a leave that brings the room back from storage', async () => {
    const running = await parley.start();
    const room = `swapped-${randomUUID().slice(0, 8)}@${running.settings.mucDomain}`;
    const [alice, bob] = await Promise.all(
      ['Alice', 'Bob'].map(async (nick) => {
        const config = await providerConfig(running);
        const client = track(clientFor(config));
        await login(client);
        await withTimeout(client.joinRoom(room, config.id, { nick }), WAIT_MS, `${nick} joining`);
        return { client, nick: config.id };
      }),
    );
    const aliceLeft = new Promise<void>((resolve) => {
      bob!.client.on('muc:unavailable', (presence: ReceivedMUCPresence) => {
        if (presence.from === `${room}/${alice!.nick}`) resolve();
      });
    });
    // Someone else busy in more rooms than Prosody keeps in memory: the quiet room is swapped out.
    const busyConfig = await providerConfig(running);
    const busy = track(clientFor(busyConfig));
    await login(busy);
    for (let index = 0; index <= ROOMS_IN_MEMORY; index++) {
      await withTimeout(busy.joinRoom(`busy-${index}-${randomUUID().slice(0, 8)}@${running.settings.mucDomain}`, busyConfig.id), WAIT_MS, 'joining a busy room');
    }
    await alice!.client.disconnect();
    await withTimeout(aliceLeft, WAIT_MS, 'Bob hearing that Alice left');
    expect((await running.xmpp.stats()).rooms[room]?.occupants).toBe(1);
  }, 60_000);
});
