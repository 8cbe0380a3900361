// Parley beside the SimpleWebRTC 1.30.3 reference, measured in the same run on the same servers:
// the join rows and the steady call's costs, alternating the clients run by run.
import type { RunningParley } from '../../server/Parley';
import { PARLEY, PARLEY_FROM_HOME, PARLEY_SECOND_TAB, REFERENCE, type BenchClient } from './clients';
import { DelayFront } from './delayFront';
import { timeBareJoin } from './floor';
import { timeJoin, type JoinCase, type JoinTiming, type MediaPath } from './join';
import { steadyCallCost, type SteadyCost } from './steady';
import { alternately, ratio, Samples } from './samples';
import { median, RUNS, type ComparedRow } from './table';

/** The steady call is measured over this long (DESIGN.md's "per 30 s"; BENCH_QUICK shortens it and scales to 30 s). */
const STEADY_WINDOW_MS = process.env.BENCH_QUICK ? 10_000 : 30_000;
/** A steady call takes a minute per run and client: fewer runs than the joins. */
const STEADY_RUNS = Math.min(RUNS, 3);

interface JoinRow {
  metric: string;
  people: number;
  path: MediaPath;
  target: string;
  /** How Parley's newcomer arrives, when not by the room's address; the reference row is then the address row's. */
  newcomer?: BenchClient;
  /** Each way between the browsers and the servers (a DelayFront), when not loopback's. */
  delayMs?: number;
}

/** A round trip of 50 ms to the servers: a person on a good connection, not in the servers' city. */
const NETWORK_DELAY_MS = 25;

const JOIN_ROWS: readonly JoinRow[] = [
  { metric: 'navigation → every remote video decoded, 2 people (mesh)', people: 2, path: 'mesh', target: '≤ 0.45× the reference' },
  { metric: 'same, 2 people (mesh), Parley arriving through the home page’s form', people: 2, path: 'mesh', target: '—', newcomer: PARLEY_FROM_HOME },
  { metric: 'same, 2 people (mesh), Parley with another of its tabs open in the newcomer’s browser (the session already up)', people: 2, path: 'mesh', target: '—', newcomer: PARLEY_SECOND_TAB },
  { metric: 'same, 2 people (mesh), 25 ms each way between the browsers and the servers (media on loopback)', people: 2, path: 'mesh', target: '—', delayMs: NETWORK_DELAY_MS },
  { metric: 'same, 3 people, both on the relay', people: 3, path: 'relay', target: '≤ 0.4× the reference' },
  { metric: 'same, 4 people through the relay', people: 4, path: 'relay', target: '≤ 0.4× the reference' },
];

/** A join row in a few words, for its runs' failures and its long tasks: people, path, the delay to the servers. */
function rowLabel(row: JoinRow): string {
  return `${row.people} people, ${row.path}${row.delayMs !== undefined ? `, ${row.delayMs} ms each way` : ''}`;
}

/**
 * The join rows and long tasks while joining. `mesh` has the relay off; `relay` puts a call on the
 * relay from its second person (sfuServer.minimumPeers 1, which both clients honour), so the
 * newcomer joins a call already on it.
 */
export async function joinRows(servers: { mesh: RunningParley; relay: RunningParley }): Promise<ComparedRow[]> {
  const parley = JOIN_ROWS.map(() => new Samples<JoinTiming>());
  const reference = JOIN_ROWS.map(() => new Samples<JoinTiming>());
  const bare = new Samples<number>();
  const fronts = new Map<JoinRow, DelayFront>();
  for (const row of JOIN_ROWS) if (row.delayMs !== undefined) fronts.set(row, await DelayFront.start((row.path === 'mesh' ? servers.mesh : servers.relay).url, row.delayMs));
  try {
    for (let run = 0; run < RUNS; run += 1) await joinRound(run, servers, fronts, parley, reference, bare);
  } finally {
    await Promise.all([...fronts.values()].map((front) => front.close()));
  }
  const rows = JOIN_ROWS.map((row, index): ComparedRow => {
    const ownReference = row.newcomer ? reference[0]! : reference[index]!;
    const ms = (timing: JoinTiming) => timing.ms;
    // A join that failed (it timed out, or a video came over another path) counts as the slowest.
    return {
      metric: row.metric,
      parley: parley[index]!.summary(ms, 's', 2, 1 / 1000, true),
      reference: ownReference.summary(ms, 's', 2, 1 / 1000, true),
      ratio: ratio(parley[index]!, ownReference, ms, true),
      target: row.target,
    };
  });
  // Per row too: which joins have them says where to look.
  const longTasks = (samples: Samples<JoinTiming>[]) => {
    const count = (joins: JoinTiming[]) => joins.reduce((sum, timing) => sum + timing.longTasks, 0);
    const joins = samples.flatMap((sample) => sample.values);
    const byRow = JOIN_ROWS.flatMap((row, index) => {
      const rowJoins = samples[index]!.values;
      const newcomer = row.newcomer ? ` (${row.newcomer.name})` : '';
      return rowJoins.length ? [`${rowLabel(row)}${newcomer}: ${count(rowJoins)} in ${rowJoins.length}`] : [];
    });
    return `${count(joins)} in ${joins.length} joins (${byRow.join('; ')})`;
  };
  const twoPeople = JOIN_ROWS.findIndex((row) => row.people === 2 && row.path === 'mesh' && !row.newcomer);
  // What any client builds on: the browser and the machine alone (scripts/bench/floor.ts).
  rows.push({
    metric: 'the floor: the same two-person join on a bare page (one RTCPeerConnection, no app, signalling through the bench), in Parley’s column',
    parley: bare.summary((ms) => ms, 's', 2, 1 / 1000),
    reference: reference[twoPeople]!.summary((timing) => timing.ms, 's', 2, 1 / 1000),
    ratio: bare.values.length && reference[twoPeople]!.values.length ? (median(bare.values) / median(reference[twoPeople]!.values.map((timing) => timing.ms))).toFixed(2) : '—',
    target: '—',
  });
  // The join ends at a first frame, so its size is part of the comparison: a smaller one is encoded and sent sooner.
  const height = (timing: JoinTiming) => timing.firstFrameHeight;
  rows.push({ metric: 'height of the newcomer’s first remote frames (the tallest counted), 2 people (mesh)', parley: parley[twoPeople]!.summary(height, 'px', 0), reference: reference[twoPeople]!.summary(height, 'px', 0), ratio: '—', target: '—' });
  rows.push({ metric: 'long tasks (> 50 ms) on the newcomer’s main thread while joining', parley: longTasks(parley), reference: longTasks(reference), ratio: '—', target: '0' });
  // Two cores run every person's browser processes and the servers: a join that needs more work
  // than the cores have left waits for them, whatever its order of steps.
  const cpu = (timing: JoinTiming) => timing.browserCpuMs;
  rows.push({ metric: 'browser CPU for the two-person join (both people’s processes), navigation → every remote video decoded', parley: parley[twoPeople]!.summary(cpu, 'ms', 0), reference: reference[twoPeople]!.summary(cpu, 'ms', 0), ratio: ratio(parley[twoPeople]!, reference[twoPeople]!, cpu), target: '—' });
  return rows;
}

/** One run of every join row, both clients alternately, and the bare page's. */
async function joinRound(
  run: number,
  servers: { mesh: RunningParley; relay: RunningParley },
  fronts: ReadonlyMap<JoinRow, DelayFront>,
  parley: Samples<JoinTiming>[],
  reference: Samples<JoinTiming>[],
  bare: Samples<number>,
): Promise<void> {
  await bare.take(`bare page, run ${run + 1}`, timeBareJoin);
  for (const [index, row] of JOIN_ROWS.entries()) {
    const server = row.path === 'mesh' ? servers.mesh : servers.relay;
    const join = (client: BenchClient, newcomer?: BenchClient): JoinCase => ({ client, newcomer, people: row.people, path: row.path, parley: server, appUrl: fronts.get(row)?.url });
    const label = `${rowLabel(row)}, run ${run + 1}`;
    const takeParley = () => parley[index]!.take(`${(row.newcomer ?? PARLEY).name}, ${label}`, () => timeJoin(join(PARLEY, row.newcomer), run));
    const takeReference = () => (row.newcomer ? Promise.resolve() : reference[index]!.take(`${REFERENCE.name}, ${label}`, () => timeJoin(join(REFERENCE), run)));
    await alternately(run, takeParley, takeReference);
  }
}

/** Scripting per tab and browser CPU in a steady 3-person call on the relay, each client in its own calls. */
export async function steadyRows(relay: RunningParley): Promise<ComparedRow[]> {
  const parley = new Samples<SteadyCost>();
  const parleyEnlarged = new Samples<SteadyCost>();
  const reference = new Samples<SteadyCost>();
  for (let run = 0; run < STEADY_RUNS; run += 1) {
    await alternately(
      run,
      async () => {
        await parley.take(`${PARLEY.name}, steady call, run ${run + 1}`, () => steadyCallCost(PARLEY, relay, STEADY_WINDOW_MS, run));
        await parleyEnlarged.take(`${PARLEY.name}, steady call with a camera enlarged in each tab, run ${run + 1}`, () => steadyCallCost(PARLEY, relay, STEADY_WINDOW_MS, run, true));
      },
      () => reference.take(`${REFERENCE.name}, steady call, run ${run + 1}`, () => steadyCallCost(REFERENCE, relay, STEADY_WINDOW_MS, run)),
    );
  }
  const scripting = (cost: SteadyCost) => cost.scriptingMsPer30s;
  const cpu = (cost: SteadyCost) => cost.browserCpuPercent;
  const frames = (samples: Samples<SteadyCost>, frame: (cost: SteadyCost) => string) => [...new Set(samples.values.map(frame))].join(', ') || '—';
  const captured = (cost: SteadyCost) => cost.captured;
  const sent = (cost: SteadyCost) => cost.sent;
  const window = `${STEADY_WINDOW_MS / 1000} s window, ${STEADY_RUNS} run${STEADY_RUNS > 1 ? 's' : ''}`;
  return [
    { metric: `main-thread scripting per tab, steady 3-person call on the relay, per 30 s (${window})`, parley: parley.summary(scripting, 'ms', 0), reference: reference.summary(scripting, 'ms', 0), ratio: ratio(parley, reference, scripting), target: '≤ 0.5× the reference' },
    { metric: 'browser CPU for that call (all three tabs’ processes), % of one core', parley: parley.summary(cpu, '%', 0), reference: reference.summary(cpu, '%', 0), ratio: ratio(parley, reference, cpu), target: '≤ 0.8× the reference' },
    { metric: 'largest camera capture in that call', parley: frames(parley, captured), reference: frames(reference, captured), ratio: '—', target: 'the same resolution' },
    { metric: 'largest camera frame sent in that call (Parley sends the layers its receivers’ tiles need)', parley: frames(parley, sent), reference: frames(reference, sent), ratio: '—', target: '—' },
    { metric: 'browser CPU for that call with each tab enlarging another’s camera (every sender’s top layer watched), % of one core', parley: parleyEnlarged.summary(cpu, '%', 0), reference: reference.summary(cpu, '%', 0), ratio: ratio(parleyEnlarged, reference, cpu), target: '—' },
    { metric: 'largest camera frame sent in that call', parley: frames(parleyEnlarged, sent), reference: frames(reference, sent), ratio: '—', target: '—' },
    { metric: 'main-thread scripting per tab in that call, per 30 s', parley: parleyEnlarged.summary(scripting, 'ms', 0), reference: reference.summary(scripting, 'ms', 0), ratio: ratio(parleyEnlarged, reference, scripting), target: '—' },
  ];
}
