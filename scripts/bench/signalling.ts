// The signalling tier under load (issue 16): N plain XMPP clients, spread over the XMPP nodes'
// gateways, join M rooms at once and chat; joins per second and message fan-out latency (from the
// sender's send to each other occupant's receipt, one process, one clock) on one Prosody, one
// ejabberd node and two clustered ejabberd nodes. Bounded: fixed N, M and messages, and every
// phase gives up after PHASE_TIMEOUT_MS. The clients run in this process, on the same cores as the
// servers: the figures are the whole loop's on this machine, not the server's alone.
import { randomUUID } from 'node:crypto';
import type { Agent } from 'stanza';
import type { ReceivedMessage } from 'stanza/protocol';
import type { RunningParley } from '../../server/Parley';
import { freeLoopbackPort } from '../../server/xmpp/freeLoopbackPort';
import { fetchConfig } from '../../tests/integration/relay-client';
import { clientFor, login, withTimeout } from '../../tests/support/plainXmpp';
import { startTestParley } from '../../tests/support/testParley';
import type { Row } from './table';

const CLIENTS = Number(process.env.BENCH_SIGNALLING_CLIENTS ?? 60);
const ROOMS = Number(process.env.BENCH_SIGNALLING_ROOMS ?? 12);
/** Messages each client sends, MESSAGE_GAP_MS apart. */
const MESSAGES_PER_CLIENT = 5;
const MESSAGE_GAP_MS = 200;
const PHASE_TIMEOUT_MS = 60_000;
/** Every client connects from loopback: the gateways carry them all from that one address. */
const LOOPBACK_CLIENTS = { relayWorkers: 0, xmppConnectionsPerAddress: CLIENTS };

interface Person {
  client: Agent;
  nick: string;
  room: string;
}

interface Measured {
  loginsPerSecond: number;
  joinsPerSecond: number;
  fanOutMs: number[];
  expectedDeliveries: number;
}

/** One signalling setup: the gateways people connect through, one per XMPP node (each runs its node). */
interface Tier {
  name: string;
  gateways: RunningParley[];
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? NaN;
}

async function measure(tier: Tier): Promise<Measured> {
  const { mucDomain } = tier.gateways[0]!.settings;
  const rooms = Array.from({ length: ROOMS }, (_, index) => `bench-${index}-${randomUUID().slice(0, 8)}@${mucDomain}`);
  // Round robin over the gateways (and so the nodes) and over the rooms: every room has people on every node.
  const configs = await Promise.all(Array.from({ length: CLIENTS }, (_, index) => fetchConfig(tier.gateways[index % tier.gateways.length]!.url)));
  const people: Person[] = configs.map((config, index) => ({ client: clientFor(config), nick: config.id, room: rooms[index % ROOMS]! }));
  try {
    let started = performance.now();
    await withTimeout(Promise.all(people.map(({ client }) => login(client, PHASE_TIMEOUT_MS))), PHASE_TIMEOUT_MS, 'logins');
    const loginsPerSecond = CLIENTS / ((performance.now() - started) / 1000);

    started = performance.now();
    await withTimeout(Promise.all(people.map(({ client, room, nick }) => client.joinRoom(room, nick))), PHASE_TIMEOUT_MS, 'joins');
    const joinsPerSecond = CLIENTS / ((performance.now() - started) / 1000);

    // Each body carries its send time; each receiver other than the sender records the delay.
    const fanOutMs: number[] = [];
    const occupants = (room: string): number => people.filter((person) => person.room === room).length;
    const expectedDeliveries = people.reduce((sum, person) => sum + MESSAGES_PER_CLIENT * (occupants(person.room) - 1), 0);
    const allDelivered = new Promise<void>((resolve) => {
      for (const { client, nick } of people) {
        client.on('groupchat', (message: ReceivedMessage) => {
          const sent = /^bench (\d+(?:\.\d+)?)$/.exec(message.body ?? '');
          if (!sent || message.from.endsWith(`/${nick}`)) return;
          fanOutMs.push(performance.now() - Number(sent[1]));
          if (fanOutMs.length === expectedDeliveries) resolve();
        });
      }
    });
    await Promise.all(
      people.map(async ({ client, room }) => {
        for (let sent = 0; sent < MESSAGES_PER_CLIENT; sent += 1) {
          client.sendMessage({ to: room, type: 'groupchat', body: `bench ${performance.now()}` });
          await new Promise((resolve) => setTimeout(resolve, MESSAGE_GAP_MS));
        }
      }),
    );
    await withTimeout(allDelivered, PHASE_TIMEOUT_MS, 'every message delivered').catch(() => undefined);
    return { loginsPerSecond, joinsPerSecond, fanOutMs, expectedDeliveries };
  } finally {
    for (const { client } of people) client.disconnect();
  }
}

async function prosody(): Promise<Tier> {
  return { name: 'one Prosody', gateways: [await startTestParley(LOOPBACK_CLIENTS)] };
}

async function ejabberd(): Promise<Tier> {
  return { name: 'one ejabberd node', gateways: [await startTestParley({ ...LOOPBACK_CLIENTS, xmppServer: 'ejabberd' })] };
}

/** Two ejabberd nodes (127.0.0.2, 127.0.0.3) in one cluster, each behind its own gateway, with one token secret. */
async function ejabberdCluster(): Promise<Tier> {
  const distributionPort = await freeLoopbackPort();
  const tokenSecret = `bench-${randomUUID()}`;
  const first = await startTestParley({ ...LOOPBACK_CLIENTS, xmppServer: 'ejabberd', tokenSecret, xmppCluster: { address: '127.0.0.2', distributionPort, join: [] } });
  try {
    const second = await startTestParley({
      ...LOOPBACK_CLIENTS,
      xmppServer: 'ejabberd',
      tokenSecret,
      xmppCluster: { address: '127.0.0.3', distributionPort, join: [first.xmpp.nodeName ?? ''] },
    });
    return { name: 'two clustered ejabberd nodes', gateways: [first, second] };
  } catch (error) {
    await first.stop();
    throw error;
  }
}

/** One row per tier: joins per second, and fan-out latency p50 / p99 with how many deliveries arrived. */
export async function signallingRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const start of [prosody, ejabberd, ejabberdCluster]) {
    const tier = await start();
    try {
      const { loginsPerSecond, joinsPerSecond, fanOutMs, expectedDeliveries } = await measure(tier);
      const delivered = fanOutMs.length === expectedDeliveries ? `${fanOutMs.length}` : `${fanOutMs.length} of ${expectedDeliveries}`;
      rows.push({
        metric: `${tier.name}: ${CLIENTS} clients in ${ROOMS} rooms`,
        measured:
          `${joinsPerSecond.toFixed(0)} joins/s, ${loginsPerSecond.toFixed(0)} logins/s; fan-out p50 ${percentile(fanOutMs, 0.5).toFixed(1)} ms, ` +
          `p99 ${percentile(fanOutMs, 0.99).toFixed(1)} ms (${delivered} deliveries)`,
        target: '—',
      });
    } finally {
      // A cluster's later node first.
      for (const gateway of [...tier.gateways].reverse()) await gateway.stop();
    }
  }
  return rows;
}
