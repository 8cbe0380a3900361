// The media relay's performance targets (DESIGN.md): layer switches as a receiver sees them, and
// the relay's CPU per forwarded stream. (A newcomer's join through the relay is in versus.ts.)
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import type { RelayServer } from '../../server/relay/RelayServer';
import type { TileNeed } from '../../src/main-thread/call/receive/tileProfile';
import { cameraFrom, expectDecoding, expectEveryoneDecodesEveryone, personWithRelay, relayCarriesEveryone, relayConsumers, waitsForReceiver, type RelayPerson } from '../../tests/e2e/relay-people';
import { expect, startRelayFixturePage } from '../../tests/e2e/relay-server';
import { uniqueRoomName } from '../../tests/e2e/rooms-people';
import { median, RUNS, type Row } from './table';

/** A steady call's relay CPU is read over this long. */
const CPU_WINDOW_MS = 20_000;
/** The CPU a relay worker's core is planned to (README "How it scales out"): headroom for bursts (keyframes, joins). */
const WORKER_CPU_BUDGET_PERCENT = 80;
/** A switch not seen by then counts as not done (a loaded sender may stop encoding its high layer). */
const SWITCH_TIMEOUT_MS = 10_000;
/**
 * How long the layer switched from is received before a switch "from a steady layer": past the
 * sender's keyframe interval (KeyFrameSpacing), which a switch right after another waits out.
 */
const STEADY_MS = 1_000;

type Layer = 'low' | 'high';

/**
 * The switches each run makes, in this order (each starts from the layer the one before went to).
 * Within the sender's keyframe interval a switch waits it out (KeyFrameSpacing): those have no target of their own.
 */
const LAYER_SWITCHES: readonly { metric: string; to: Layer; steadyMs: number; target: string }[] = [
  { metric: 'relay layer switch, down (high → low), from a steady layer', to: 'low', steadyMs: STEADY_MS, target: '≤ 300 ms' },
  { metric: 'relay layer switch, up (low → high), from a steady layer', to: 'high', steadyMs: STEADY_MS, target: '≤ 1 s' },
  { metric: 'relay layer switch, down, right after the switch up', to: 'low', steadyMs: 0, target: '—' },
  { metric: 'relay layer switch, up, right after the switch down', to: 'high', steadyMs: 0, target: '—' },
];

/** Frame widths that are a layer: more than `above`, at most `atMost`. */
interface WidthRange {
  above: number;
  atMost: number;
}

/**
 * Each layer: a tile that needs it (tileProfile: up to 480 px wide → low, 1280 px → high), the
 * relay's spatial layer index, and the frame widths that are it for a sender capturing
 * `cameraWidth` (nominally W/4 and W; an encoder short of CPU may scale a layer down further).
 */
const LAYERS: Record<Layer, { tile: TileNeed; spatialLayer: number; widths: (cameraWidth: number) => WidthRange }> = {
  low: { tile: { visible: true, width: 200, height: 113 }, spatialLayer: 0, widths: (cameraWidth) => ({ above: 0, atMost: cameraWidth / 3 }) },
  high: { tile: { visible: true, width: 1280, height: 720 }, spatialLayer: 2, widths: (cameraWidth) => ({ above: cameraWidth / 2, atMost: Infinity }) },
};

const within = (frameWidth: number, { above, atMost }: WidthRange): boolean => frameWidth > above && frameWidth <= atMost;

/** Whether `receiver` steadily gets `sender`'s camera at `layer`: the relay forwards that layer and the last decoded frame is its width. */
async function receivesLayer(parley: RunningParley, receiver: RelayPerson, sender: RelayPerson, layer: Layer): Promise<boolean> {
  const forwarded = relayConsumers(parley, sender, receiver).find((consumer) => consumer.kind === 'video')?.currentSpatialLayer;
  const decoded = (await cameraFrom(receiver, sender))?.frameWidth ?? 0;
  return forwarded === LAYERS[layer].spatialLayer && within(decoded, LAYERS[layer].widths(sender.cameraWidth));
}

/**
 * From `receiver`'s tile asking for `to` (setTileNeed: a Jingle description-info to the sender,
 * whose relay client sends SET_CONSUMER_PROFILE) to the first decoded frame at that layer's width,
 * timed in the receiver's page from its inbound-rtp frameWidth — to within Chromium's stats cache
 * (about 50 ms). Starts from the other layer, received for `steadyMs` first (0: right after the
 * switch to it); undefined when either layer is not seen within SWITCH_TIMEOUT_MS.
 */
async function layerSwitch(parley: RunningParley, receiver: RelayPerson, sender: RelayPerson, to: Layer, steadyMs: number): Promise<number | undefined> {
  const from: Layer = to === 'low' ? 'high' : 'low';
  const camera = await cameraFrom(receiver, sender);
  if (!camera) throw new Error(`${receiver.name} receives no camera from ${sender.name}`);
  await receiver.page.evaluate(({ mediaId, tile }) => window.relayFixture?.setTileNeed(mediaId, tile), { mediaId: camera.id, tile: LAYERS[from].tile });
  const deadline = performance.now() + SWITCH_TIMEOUT_MS;
  while (!(await receivesLayer(parley, receiver, sender, from))) {
    if (performance.now() > deadline) return undefined;
    await sleep(100);
  }
  await sleep(steadyMs);
  return receiver.page.evaluate(
    async ({ mediaId, tile, widths: { above, atMost }, timeoutMs }) => {
      const fixture = window.relayFixture!;
      const asked = performance.now();
      await fixture.setTileNeed(mediaId, tile);
      while (performance.now() - asked < timeoutMs) {
        const frameWidth = (await fixture.received()).find((item) => item.id === mediaId)?.frameWidth ?? 0;
        // `within`, in the page (functions do not cross into it).
        if (frameWidth > above && frameWidth <= atMost) return performance.now() - asked;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return undefined;
    },
    { mediaId: camera.id, tile: LAYERS[to].tile, widths: LAYERS[to].widths(sender.cameraWidth), timeoutMs: SWITCH_TIMEOUT_MS },
  );
}

/** Median of the switches seen, and how many were not. */
function switchRow(metric: string, times: readonly (number | undefined)[], target: string): Row {
  const seen = times.filter((time) => time !== undefined);
  const missed = times.length - seen.length;
  const measured = seen.length === 0 ? `none within ${SWITCH_TIMEOUT_MS / 1000} s` : `${median(seen).toFixed(0)} ms${missed ? ` (${missed} of ${times.length} not within ${SWITCH_TIMEOUT_MS / 1000} s)` : ''}`;
  return { metric, measured, target };
}

/** CPU time (user + system, ms) the relay's mediasoup worker processes have used so far, by their own getrusage. */
async function relayCpuMs(relay: RelayServer): Promise<number> {
  const usages = await Promise.all(relay.workers.map((worker) => worker.getResourceUsage()));
  return usages.reduce((sum, usage) => sum + usage.ru_utime + usage.ru_stime, 0);
}

/**
 * The relay's CPU per forwarded stream in the steady call of `everyone`, as % of one core: its
 * workers' CPU time over CPU_WINDOW_MS, divided by the consumers (audio and video) it forwards
 * throughout, by its own stats: those with a receiver, not the ones made ahead for the next person,
 * which forward nothing.
 */
async function relayCpuPerStream(parley: RunningParley, everyone: readonly RelayPerson[]): Promise<{ percent: number; streams: number }> {
  const relay = parley.relay!;
  const forwarded = () => everyone.flatMap((sender) => relayConsumers(parley, sender).filter((consumer) => !waitsForReceiver(consumer))).length;
  const streams = forwarded();
  const startCpu = await relayCpuMs(relay);
  const started = performance.now();
  await sleep(CPU_WINDOW_MS);
  const cpu = (await relayCpuMs(relay)) - startCpu;
  const elapsed = performance.now() - started;
  if (!relayCarriesEveryone(parley, everyone) || forwarded() !== streams) throw new Error('the relay call changed while its CPU was measured');
  return { percent: ((cpu / elapsed) * 100) / streams, streams };
}

/**
 * The relay's own rows on `parley`, whose relay takes a call from its second person
 * (`sfuServer.minimumPeers` 1): layer switches as a receiver sees them, and the relay's CPU per
 * forwarded stream in a steady 3-person call.
 */
export async function relayRows(browser: Browser, parley: RunningParley): Promise<Row[]> {
  const rows: Row[] = [];
  // Layer switches and CPU come from the relay fixture page, which drives the receiver's tile needs directly.
  const fixture = await startRelayFixturePage(parley.url);
  const people: RelayPerson[] = [];
  try {
    const url = `${fixture.url}?${new URLSearchParams({ room: uniqueRoomName('bench-relay') }).toString()}`;
    const [alice, bob] = [await personWithRelay(browser, url, 'alice'), await personWithRelay(browser, url, 'bob')];
    people.push(alice, bob);
    await expect.poll(() => relayCarriesEveryone(parley, people), { timeout: 60_000 }).toBe(true);
    await expectDecoding(bob, alice, 'relay');
    const times = LAYER_SWITCHES.map(() => [] as (number | undefined)[]);
    for (let run = 0; run < RUNS; run += 1) {
      for (const [index, { to, steadyMs }] of LAYER_SWITCHES.entries()) times[index]!.push(await layerSwitch(parley, bob, alice, to, steadyMs));
    }
    LAYER_SWITCHES.forEach(({ metric, target }, index) => rows.push(switchRow(metric, times[index]!, target)));

    people.push(await personWithRelay(browser, url, 'carol'));
    await expect.poll(() => relayCarriesEveryone(parley, people), { timeout: 60_000 }).toBe(true);
    await expectEveryoneDecodesEveryone(people, 'relay');
    const cpu = await relayCpuPerStream(parley, people);
    rows.push({
      metric: `relay CPU per forwarded stream (${people.length} people, ${cpu.streams} streams)`,
      measured: `${cpu.percent.toFixed(2)} % of a core`,
      target: '≤ 1 % of a core',
    });
    // What one worker (one core) carries at the CPU a relay host is sized for, from the same figure.
    rows.push({
      metric: `relay consumers per worker core at ${WORKER_CPU_BUDGET_PERCENT} % of it`,
      measured: `${Math.floor(WORKER_CPU_BUDGET_PERCENT / cpu.percent)}`,
      target: '—',
    });
  } finally {
    await Promise.all(people.map((person) => person.context.close()));
    await fixture.close();
  }
  return rows;
}
