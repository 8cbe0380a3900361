// Gateways side by side (issue 16, item 3): the gateway keeps no state of its own, so two of them
// with the same PARLEY_TOKEN_SECRET in front of one XMPP server are one service — a config issued
// by either is accepted by both, and people who came in through different gateways share a room.
// The second gateway is the product's own (createGateway with the first one's settings), on another
// loopback address, proxying to the same Prosody.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../server/gateway/Gateway';
import { WebsocketProxy } from '../../server/gateway/websocketProxy';
import { providerConfig, useParley } from '../support/parley';
import { joinedBy, peerNamed, useSessions, waitFor } from '../support/sessions';
import { clientFor, login, usePlainClients } from '../support/xmppClient';

const parley = useParley({ relayWorkers: 0 });
const openSession = useSessions();
const track = usePlainClients();
const SECOND_GATEWAY_ADDRESS = '127.0.0.4';

let second: { gateway: FastifyInstance; proxy: WebsocketProxy; url: string };

beforeAll(async () => {
  const { settings, xmpp } = parley();
  const proxy = new WebsocketProxy(() => new URL(xmpp.websocketUrl), settings.gatewayBufferBytes);
  const gateway = await createGateway({ settings, xmppProxy: proxy });
  await gateway.listen({ host: SECOND_GATEWAY_ADDRESS, port: 0 });
  const { port } = gateway.server.address() as AddressInfo;
  second = { gateway, proxy, url: `http://${SECOND_GATEWAY_ADDRESS}:${port}/` };
});

afterAll(async () => {
  second?.proxy.close();
  await second?.gateway.close();
});

async function roomConfigStatus(gatewayUrl: string, credential: string): Promise<number> {
  const response = await fetch(new URL('/api/room-config', gatewayUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}` },
    body: JSON.stringify({ name: 'Side by side' }),
  });
  return response.status;
}

describe('Gateways side by side: a config issued by one gateway is accepted by the other', () => {
  it("takes the other gateway's credential for the room config and for the XMPP login through its websocket", async () => {
    const fromFirst = await providerConfig(parley());
    const fromSecond = await providerConfig({ url: second.url });
    expect(new URL(fromSecond.signalingUrl).hostname).toBe(SECOND_GATEWAY_ADDRESS);
    expect(await roomConfigStatus(second.url, fromFirst.credential)).toBe(200);
    expect(await roomConfigStatus(parley().url, fromSecond.credential)).toBe(200);

    // Each person logs in through the gateway that did not issue their config.
    const throughSecond = track(clientFor({ ...fromFirst, signalingUrl: fromSecond.signalingUrl }));
    const throughFirst = track(clientFor({ ...fromSecond, signalingUrl: fromFirst.signalingUrl }));
    await Promise.all([login(throughSecond), login(throughFirst)]);
    expect(throughSecond.jid.split('/')[0]).toBe(fromFirst.userId);
    expect(throughFirst.jid.split('/')[0]).toBe(fromSecond.userId);
  });
});

describe('Gateways side by side: a person through each gateway, in one room, chat and see each other', () => {
  it('shows each to the other as a peer and carries their messages both ways', async () => {
    const alice = openSession({ server: parley(), displayName: 'Alice' });
    const bob = openSession({ server: { url: second.url }, displayName: 'Bob' });
    const name = `Side by side ${randomUUID().slice(0, 8)}`;
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    expect(bobRoom.address).toBe(room.address);
    expect(new URL(bob.session.config!.signalingUrl).hostname).toBe(SECOND_GATEWAY_ADDRESS);

    const bobSeen = await peerNamed(alice, room.address, 'Bob');
    const aliceSeen = await peerNamed(bob, room.address, 'Alice');
    const fromAlice = await alice.chat.sendChat(room.address, 'hello through the first gateway');
    const fromBob = await bob.chat.sendChat(room.address, 'hello through the second');
    expect((await waitFor(bob, "Alice's message", (state) => state.messages[`${aliceSeen.address}:${fromAlice}`])).body).toBe('hello through the first gateway');
    expect((await waitFor(alice, "Bob's message", (state) => state.messages[`${bobSeen.address}:${fromBob}`])).body).toBe('hello through the second');
  });
});
