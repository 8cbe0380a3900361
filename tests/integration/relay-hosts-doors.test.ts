// A relay host behind gateways (issue 16): every client's relay connection reaches it through a
// gateway, so the socket it sees is the gateway's. Its per-address cap must still count clients:
// the gateway vouches for the client's address in a header signed with the shared secret, and an
// unsigned or forged header is never believed. Real gateway, real relay host process on 127.0.0.5;
// the clients connect from addresses of their own on loopback (127.0.0.6–9) to stand for people
// at different addresses.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER, clientAddressToken } from '../../server/relay/host/clientAddress';
import { RELAY_ERROR, relayUrlForRoom } from '../../src/protocol/relay';
import { providerConfig, useParley } from '../support/parley';
import { startRelayHost, type RelayHostProcess } from '../support/relayHosts';
import { WAIT_MS } from '../support/sessions';
import { connectRelay, type RelayReply, type RelayTestClient } from './relay-client';

const parley = useParley({ remoteRelays: true, relayWorkers: 0 });
const PER_ADDRESS = 2;
/** The product's default: nothing here waits for a host's death, and a short beat missed three times on a loaded machine took the host for dead (CI once). */
const HEARTBEAT_MS = 2_000;
let host: RelayHostProcess;
const clients: RelayTestClient[] = [];

beforeAll(async () => {
  host = await startRelayHost({
    address: '127.0.0.5',
    gatewayUrl: parley().url,
    tokenSecret: parley().settings.tokenSecret,
    heartbeatMs: HEARTBEAT_MS,
    env: { PARLEY_RELAY_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS) },
  });
  // A relay host says it is ready once its first announcement has reached the gateway.
  expect(parley().relayRegistry!.liveAnnouncements().map(({ url }) => url)).toEqual([host.url]);
}, WAIT_MS);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  host.child.kill('SIGKILL');
});

function newRoom(): string {
  return `relay-doors-${randomUUID().slice(0, 8)}@${parley().settings.mucDomain}`;
}

/**
 * A new person's relay connection to `url` (kept open, so it holds its place under the cap), and
 * the relay's first word to it: AUTH's reply, or the refusal it sends before closing.
 */
async function authenticate(url: string, options: Parameters<typeof connectRelay>[1]): Promise<RelayReply> {
  const config = await providerConfig(parley());
  const client = await connectRelay(url, options);
  clients.push(client);
  return Promise.race([client.call('AUTH', { token: config.sfuServer!.password }), client.nextStrayReply()]);
}

async function throughGateway(localAddress: string, room: string): Promise<RelayReply> {
  const config = await providerConfig(parley());
  return authenticate(relayUrlForRoom(config.sfuServer!.url, room), { localAddress });
}

const REFUSED = { error: { code: RELAY_ERROR.limitExceeded, message: `too many relay connections from this address: at most ${PER_ADDRESS}` } };

describe('A relay host counts connections per client address, not per gateway (PARLEY_RELAY_CONNECTIONS_PER_ADDRESS)', () => {
  it('lets people at different addresses in through one gateway past the cap, and holds each address to it', async () => {
    const room = newRoom();
    for (const address of ['127.0.0.6', '127.0.0.7', '127.0.0.8']) {
      expect(await throughGateway(address, room), `a person at ${address}`).toHaveProperty('result');
    }
    for (let held = 1; held < PER_ADDRESS; held++) expect(await throughGateway('127.0.0.6', room)).toHaveProperty('result');
    expect(await throughGateway('127.0.0.6', room)).toMatchObject(REFUSED);
  });

  it('believes no client address a client hands it itself: one signed with another secret, or not signed', async () => {
    const url = relayUrlForRoom(host.url, newRoom());
    const forged = [clientAddressToken('another secret', '10.0.0.1'), '10.0.0.2'];
    // Each names another address; all count as 127.0.0.9, the socket's own.
    for (let held = 0; held < PER_ADDRESS; held++) {
      expect(await authenticate(url, { localAddress: '127.0.0.9', headers: { [CLIENT_ADDRESS_HEADER]: forged[held % 2]! } })).toHaveProperty('result');
    }
    expect(await authenticate(url, { localAddress: '127.0.0.9', headers: { [CLIENT_ADDRESS_HEADER]: forged[0]! } })).toMatchObject(REFUSED);
  });
});
