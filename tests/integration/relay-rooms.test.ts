import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import { RELAY_ERROR, RELAY_LIMITS } from '../../src/protocol/relay';
import { startTestParley } from '../support/testParley';
import { until } from '../support/until';
import { connectRelay, fetchConfig, type RelayTestClient } from './relay-client';

/**
 * The rooms a relay serves are bounded (roomsPerRelay): a relay host announces every room its
 * connections are bound to, and the gateways take an announcement of at most that many. A small
 * bound so that a test reaches it; real mediasoup worker.
 */

const ROOMS = 2;
let parley: RunningParley;
const open: RelayTestClient[] = [];

beforeAll(async () => {
  parley = await startTestParley({ relayWorkers: 1, relayLimits: { ...RELAY_LIMITS, roomsPerRelay: ROOMS } });
}, 60_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  await until(() => parley.relay!.stats().connections === 0, 'the relay to see the sockets closed');
});

afterAll(async () => {
  await parley?.stop();
});

/** An authenticated relay connection of a user of its own. */
async function authenticated(): Promise<RelayTestClient> {
  const config = await fetchConfig(parley.url);
  const client = await connectRelay(config.sfuServer!.url);
  open.push(client);
  await client.ok('AUTH', { token: config.sfuServer!.password });
  return client;
}

const roomAddress = (name: string): string => `relay-rooms-${name}-${randomUUID().slice(0, 8)}@${parley.settings.mucDomain}`;

describe('A relay serves at most roomsPerRelay rooms at once, so that its announcement stays within what the gateways take', () => {
  it('refuses a connection naming one room more with limitExceeded; a room already served takes more connections, and a room that ended makes way', async () => {
    const [first, second, third] = [roomAddress('first'), roomAddress('second'), roomAddress('third')];
    await (await authenticated()).ok('GET_ROUTER_CAPABILITIES', { roomAddress: first });
    const secondRoom = await authenticated();
    await secondRoom.ok('GET_ROUTER_CAPABILITIES', { roomAddress: second });

    const refused = await authenticated();
    expect((await refused.call('GET_ROUTER_CAPABILITIES', { roomAddress: third })).error).toEqual({
      code: RELAY_ERROR.limitExceeded,
      message: `too many rooms on this relay: at most ${ROOMS}`,
    });
    expect((await refused.call('CREATE_INGEST_TRANSPORT', { id: 'camera', roomAddress: third })).error?.code).toBe(RELAY_ERROR.limitExceeded);
    await (await authenticated()).ok('GET_ROUTER_CAPABILITIES', { roomAddress: first });
    expect(parley.relay!.roomAddresses().sort()).toEqual([first, second].sort());

    await secondRoom.close();
    await until(() => !parley.relay!.roomAddresses().includes(second), 'the relay to see the second room end');
    await refused.ok('GET_ROUTER_CAPABILITIES', { roomAddress: third });
    expect(parley.relay!.roomAddresses().sort()).toEqual([first, third].sort());
  });
});
