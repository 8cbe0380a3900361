// `BENCH_ONLY=builds`: one build of the app beside another on the bench's own join, alternated run
// by run — how each change to the join path in docs/performance.md was measured. Two full runs an
// hour apart differ on this machine by more than most changes do; alternated, its drift touches
// both builds alike.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunningParley } from '../../server/Parley';
import { PARLEY } from './clients';
import { DelayFront } from './delayFront';
import { startJoinServer, timeJoin, type JoinTiming, type MediaPath } from './join';
import { alternately, ratio, Samples } from './samples';
import { RUNS } from './table';

/** One line of the builds' table: the metric, each build's value, and B's over A's. */
export interface BuildsRow {
  metric: string;
  a: string;
  b: string;
  ratio: string;
}

/** What the comparison is asked for, from the environment. */
export interface BuildsRequest {
  /** Static roots: each a build of the app (`npm run build`'s `dist`, copied). */
  a: string;
  b: string;
  /** Each a row of joins: 2 over the mesh, more through the relay, as in the bench's rows. */
  people: number[];
  /** Each way between the browsers and the servers (a DelayFront, as the bench's row over round trips), when not loopback's. */
  delayMs: number | undefined;
}

/** BENCH_BUILD_A and BENCH_BUILD_B (two builds' directories), BENCH_PEOPLE (e.g. `2,4`; 2 when unset) and BENCH_DELAY_MS (each way to the servers; loopback's when unset). */
export function buildsRequestFromEnvironment(environment: NodeJS.ProcessEnv): BuildsRequest {
  const build = (name: string): string => {
    const directory = environment[name];
    if (!directory || !existsSync(join(resolve(directory), 'index.html'))) throw new Error(`${name} must name a build of the app (a directory with index.html), got ${directory ?? 'nothing'}`);
    return resolve(directory);
  };
  const people = (environment.BENCH_PEOPLE ?? '2').split(',').map(Number);
  if (people.some((count) => !Number.isInteger(count) || count < 2 || count > 6)) throw new Error(`BENCH_PEOPLE must list people counts from 2 to 6, got ${environment.BENCH_PEOPLE}`);
  const delayMs = environment.BENCH_DELAY_MS === undefined ? undefined : Number(environment.BENCH_DELAY_MS);
  if (delayMs !== undefined && !(Number.isInteger(delayMs) && delayMs > 0 && delayMs <= 500)) throw new Error(`BENCH_DELAY_MS must be a whole number of ms from 1 to 500, got ${environment.BENCH_DELAY_MS}`);
  return { a: build('BENCH_BUILD_A'), b: build('BENCH_BUILD_B'), people, delayMs };
}

const pathFor = (people: number): MediaPath => (people === 2 ? 'mesh' : 'relay');

/** One build's servers, one per path its rows take (startJoinServer), and each one's front when the joins cross one. */
interface BuildServers {
  servers: Map<MediaPath, RunningParley>;
  fronts: Map<MediaPath, DelayFront>;
}

/** Starts one build's servers for `people`'s rows, behind a DelayFront each when `delayMs` is set. */
async function serversFor(root: string, people: readonly number[], delayMs: number | undefined): Promise<BuildServers> {
  const servers = new Map<MediaPath, RunningParley>();
  const fronts = new Map<MediaPath, DelayFront>();
  for (const path of new Set(people.map(pathFor))) {
    const server = await startJoinServer(path, root);
    servers.set(path, server);
    if (delayMs !== undefined) fronts.set(path, await DelayFront.start(server.url, delayMs));
  }
  return { servers, fronts };
}

/** `RUNS` joins per row and build, the builds taking turns to go first; per row the join, the browser's CPU for it and the long tasks. */
export async function buildRows({ a, b, people, delayMs }: BuildsRequest): Promise<BuildsRow[]> {
  const builds = [a, b];
  const servers: BuildServers[] = [];
  const samples = builds.map(() => people.map(() => new Samples<JoinTiming>()));
  try {
    for (const root of builds) servers.push(await serversFor(root, people, delayMs));
    for (let run = 0; run < RUNS; run += 1) {
      for (const [row, count] of people.entries()) {
        const path = pathFor(count);
        const measure = (build: number) => () => samples[build]![row]!.take(`build ${'AB'[build]}, ${count} people, run ${run + 1}`, () => timeJoin({ client: PARLEY, people: count, path, parley: servers[build]!.servers.get(path)!, appUrl: servers[build]!.fronts.get(path)?.url }, run));
        await alternately(run, measure(0), measure(1));
      }
    }
  } finally {
    const fronts = servers.flatMap((each) => [...each.fronts.values()]);
    const running = servers.flatMap((each) => [...each.servers.values()]);
    await Promise.all([...fronts.map((front) => front.close()), ...running.map((server) => server.stop())]);
  }
  return people.flatMap((count, row) => {
    const [ofA, ofB] = [samples[0]![row]!, samples[1]![row]!];
    const longTasks = (of: Samples<JoinTiming>) => `${of.values.reduce((sum, timing) => sum + timing.longTasks, 0)} in ${of.values.length} joins`;
    const ms = (timing: JoinTiming) => timing.ms;
    const cpu = (timing: JoinTiming) => timing.browserCpuMs;
    const label = `${count} people (${pathFor(count)})${delayMs === undefined ? '' : `, ${delayMs} ms each way to the servers`}`;
    return [
      { metric: `navigation → every remote video decoded, ${label}`, a: ofA.summary(ms, 'ms', 0), b: ofB.summary(ms, 'ms', 0), ratio: ratio(ofB, ofA, ms) },
      { metric: `browser CPU for that join, ${label}`, a: ofA.summary(cpu, 'ms', 0), b: ofB.summary(cpu, 'ms', 0), ratio: ratio(ofB, ofA, cpu) },
      { metric: `long tasks (> 50 ms) on the newcomer's main thread while joining, ${label}`, a: longTasks(ofA), b: longTasks(ofB), ratio: '—' },
    ];
  });
}
