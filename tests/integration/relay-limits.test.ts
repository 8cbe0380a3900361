import { once } from 'node:events';
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningParley } from '../../server/Parley';
import { SEND_BUFFER_BYTES } from '../../server/relay/RelayConnection';
import type { ProviderConfig } from '../../src/protocol/config';
import { RELAY_LIMITS } from '../../src/protocol/relay';
import { startTestParley } from '../support/testParley';
import { connectRelay, fetchConfig } from './relay-client';

/**
 * What a relay connection that stops reading can make the relay hold: what waits unsent for it is
 * bounded, and the keepalive counts only pongs that answer the relay's own pings. Real relay worker;
 * each rule on a relay of its own, since a short ping interval would drop the stalled reader first.
 */

/** A websocket of its own, authenticated: these clients stop reading, or answer pings themselves, which connectRelay's does not. */
async function authenticatedSocket(config: ProviderConfig, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const socket = new WebSocket(config.sfuServer!.url, options);
  await once(socket, 'open');
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'AUTH', params: { token: config.sfuServer!.password } }));
  const [reply] = (await once(socket, 'message')) as [Buffer];
  expect(JSON.parse(reply.toString())).toMatchObject({ id: 1, result: {} });
  return socket;
}

/** Another client is served: the relay stays up for everyone else. */
async function expectRelayServes(parley: RunningParley): Promise<void> {
  const { sfuServer } = await fetchConfig(parley.url);
  const other = await connectRelay(sfuServer!.url);
  await other.ok('AUTH', { token: sfuServer!.password });
  expect(await other.ok('PING', {})).toEqual({});
  await other.close();
}

describe('A relay connection that does not read its replies is closed once SEND_BUFFER_BYTES wait for it', () => {
  /** Bad frames sent between two turns of the event loop, in which the relay (in this process) reads and answers them. */
  const BATCH_FRAMES = 1_000;
  /** Their answers (about 100 bytes each) are far more than loopback's kernel buffers and SEND_BUFFER_BYTES take. */
  const MAX_FLOOD_FRAMES = 600_000;
  let parley: RunningParley;
  const logs: string[] = [];

  beforeAll(async () => {
    parley = await startTestParley({ relayWorkers: 1 }, (line) => logs.push(line));
  }, 60_000);

  afterAll(async () => {
    await parley?.stop();
  });

  it('closes a client that sends small bad frames and reads none of the errors, and goes on serving others', async () => {
    const config = await fetchConfig(parley.url);
    const stalled = await authenticatedSocket(config);
    const closed = once(stalled, 'close');
    stalled.pause();

    // A paused socket does not even read the close: the relay's own count says when it has let go.
    const relayHoldsIt = (): boolean => parley.relay!.stats().connections === 1;
    for (let frames = 0; relayHoldsIt() && frames < MAX_FLOOD_FRAMES; frames += BATCH_FRAMES) {
      for (let frame = 0; frame < BATCH_FRAMES; frame++) stalled.send('x');
      await yieldToEventLoop();
    }

    expect(parley.relay!.stats().connections).toBe(0);
    const user = config.userId.split('@')[0];
    expect(logs).toContain(`relay: closing a connection (user ${user}) that left over ${SEND_BUFFER_BYTES} bytes unread`);
    stalled.resume();
    await closed;
    await expectRelayServes(parley);
  }, 60_000);
});

describe('A relay connection that answers no ping is dropped, whatever pongs it sends unasked', () => {
  const PING_INTERVAL_MS = 1_000;
  let parley: RunningParley;

  beforeAll(async () => {
    parley = await startTestParley({ relayWorkers: 1, relayLimits: { ...RELAY_LIMITS, pingIntervalMs: PING_INTERVAL_MS } });
  }, 60_000);

  afterAll(async () => {
    await parley?.stop();
  });

  it('drops a client that sends pongs of its own but answers none of the relay’s pings, and keeps one that answers them', async () => {
    const config = await fetchConfig(parley.url);
    const answering = await connectRelay(config.sfuServer!.url);
    await answering.ok('AUTH', { token: config.sfuServer!.password });
    const deaf = await authenticatedSocket(config, { autoPong: false });
    const closed = once(deaf, 'close') as Promise<[number, Buffer]>;
    const unasked = setInterval(() => deaf.pong(), PING_INTERVAL_MS / 5);
    try {
      // The relay's second ping finds its first unanswered; a few more intervals are the machine's slack.
      const outcome = await Promise.race([closed.then(([code]) => code), sleep(6 * PING_INTERVAL_MS).then(() => 'still open')]);
      expect(outcome).toBe(1006);
    } finally {
      clearInterval(unasked);
    }
    expect(await answering.ok('PING', {})).toEqual({});
    await answering.close();
    await expectRelayServes(parley);
  });
});
