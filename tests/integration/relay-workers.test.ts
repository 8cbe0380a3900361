import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';
import type { ProviderConfig } from '../../src/protocol/config';
import { RELAY_UNAVAILABLE } from '../../src/protocol/relay';
import { launchRelayBrowser, type RelayBrowser } from './relay-browser';
import { connectRelay, fetchConfig, type RelayTestClient } from './relay-client';

/**
 * The relay across workers and through failures, on two real mediasoup workers. `relaySpillLoad: 0`
 * makes every placement go to the least-loaded worker, so a room's consumers land on another
 * worker's router than its producers and reach them through `pipeToRouter`.
 */

let parley: RunningParley;
let config: ProviderConfig;
let browser: RelayBrowser;

beforeAll(async () => {
  parley = await startTestParley({ relayWorkers: 2, relaySpillLoad: 0 });
  config = await fetchConfig(parley.url);
  browser = await launchRelayBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

async function authenticated(): Promise<RelayTestClient> {
  const client = await connectRelay(config.sfuServer!.url);
  await client.ok('AUTH', { token: config.sfuServer!.password });
  return client;
}

/** Asks for a websocket at `url` and resets the connection at once, before reading the answer. */
function upgradeThenReset(url: string): Promise<void> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`);
      socket.resetAndDestroy();
    });
    socket.on('close', () => resolve());
    socket.on('error', () => {});
  });
}

/** pid of the worker that runs a router, from mediasoup's worker dumps. */
async function workerOf(routerId: string): Promise<number | undefined> {
  const dump = await parley.relay!.dump();
  return dump.workers.find((worker) => worker.dump.routerIds.includes(routerId))?.pid;
}

async function liveRouterIds(): Promise<string[]> {
  return (await parley.relay!.dump()).workers.flatMap((worker) => worker.dump.routerIds);
}

describe('A room spanning workers', () => {
  it('pipes producers to the consumer\'s router on another worker, media flows, and DISPOSE clears both', async () => {
    const client = await authenticated();
    const roomAddress = `span@${parley.settings.mucDomain}`;
    const { sdp: answer } = (await client.ok('INGEST', { id: 'camera', sdp: await browser.senderOffer('sender') })) as { sdp: string };
    await browser.acceptAnswer('sender', answer);
    const { sdp: offer } = (await client.ok('CREATE_CONSUMER', {
      id: 'sid-span',
      peerId: 'receiver',
      roomAddress,
      roomId: 'rid',
      source: 'camera',
      audio: true,
      video: true,
    })) as { sdp: string };

    const stats = parley.relay!.stats();
    const ingest = stats.ingestDetails.find((each) => each.id === 'camera')!;
    const consumers = stats.consumerDetails.filter((each) => each.id === 'sid-span');
    const consumerRouterId = consumers[0]!.routerId;
    expect(consumerRouterId).not.toBe(ingest.routerId);
    expect(await workerOf(consumerRouterId)).not.toBe(await workerOf(ingest.routerId));
    expect(stats.rooms.find((room) => room.key === `room:${roomAddress}`)?.routerIds.sort()).toEqual([ingest.routerId, consumerRouterId].sort());

    // mediasoup's dump of the consumer's router: the producers arrived by pipe with their own ids.
    const consumerRouter = parley.relay!.routers().find((router) => router.id === consumerRouterId)!;
    const dump = await consumerRouter.dump();
    expect(dump.mapProducerIdConsumerIds.map(({ key }) => key).sort()).toEqual(ingest.producers.map((producer) => producer.id).sort());
    expect(dump.transportIds).toHaveLength(2);

    await client.ok('START_CONSUMER', { id: 'sid-span', sdp: await browser.receiverAnswer('receiver', offer) });
    await expect.poll(async () => (await browser.received('receiver')).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(0);

    await client.ok('DISPOSE', { id: 'camera' });
    const live = await liveRouterIds();
    expect(live).not.toContain(ingest.routerId);
    expect(live).not.toContain(consumerRouterId);
    await client.close();
  }, 60_000);
});

describe('Failures', () => {
  it('a worker that dies ends the connections with media on it; a replacement starts and others go on', async () => {
    const victim = await authenticated();
    const bystander = await authenticated();
    await victim.ok('INGEST', { id: 'doomed', sdp: await browser.senderOffer('doomed') });
    const routerId = parley.relay!.stats().ingestDetails.find((each) => each.id === 'doomed')!.routerId;
    const pid = (await workerOf(routerId))!;
    const pidsBefore = parley.relay!.workers.map((worker) => worker.pid);

    process.kill(pid, 'SIGKILL');
    expect(await victim.closed).toEqual({ code: 1011, reason: 'stream "doomed" lost its media server' });
    await expect.poll(() => parley.relay!.workers.map((worker) => worker.pid).filter((each) => !pidsBefore.includes(each)).length).toBe(1);
    expect(parley.relay!.workers).toHaveLength(2);

    expect((await bystander.ok('INGEST', { id: 'after', sdp: await browser.senderOffer('after') })).sdp).toContain('a=ice-lite');
    await bystander.close();
  });

  it('a stream whose id is long and not ASCII still closes its connection 1011 when its worker dies, the reason cut between characters to a websocket’s 123 bytes', async () => {
    const victim = await authenticated();
    const id = 'é'.repeat(100);
    await victim.ok('INGEST', { id, sdp: await browser.senderOffer('accented') });
    const routerId = parley.relay!.stats().ingestDetails.find((each) => each.id === id)!.routerId;
    const pidsBefore = parley.relay!.workers.map((worker) => worker.pid);

    process.kill((await workerOf(routerId))!, 'SIGKILL');
    const closed = await victim.closed;
    expect(closed.code).toBe(1011);
    expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
    expect(closed.reason).toMatch(/^stream "é+$/);
    await expect.poll(() => parley.relay!.workers.map((worker) => worker.pid).filter((each) => !pidsBefore.includes(each)).length).toBe(1);
  });

  it('killRelay drops every relay socket and closes new ones at once as unavailable (1013, which a browser can tell from a network fault); restartRelay serves the same URL again', async () => {
    const client = await authenticated();
    await parley.killRelay();
    expect((await client.closed).code).toBe(1006);
    const refused = await connectRelay(config.sfuServer!.url);
    expect(await refused.closed).toEqual({ code: RELAY_UNAVAILABLE, reason: 'media relay unavailable' });
    // Clients that reset the connection while the refusal is written must not take the gateway down.
    await Promise.all(Array.from({ length: 100 }, () => upgradeThenReset(config.sfuServer!.url)));
    expect((await fetchConfig(parley.url)).sfuServer?.url).toBe(config.sfuServer!.url);

    await parley.restartRelay();
    const again = await authenticated();
    expect((await again.ok('INGEST', { id: 'revived', sdp: await browser.senderOffer('revived') })).sdp).toContain('a=ice-lite');
    expect(parley.relay!.stats().ingestDetails.map((each) => each.id)).toEqual(['revived']);
    await again.close();
  });
});
