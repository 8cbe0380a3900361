/**
 * Where one page's scripts ran, from a Chrome trace recorded with V8's sampling CPU profiler: per
 * thread of the page's renderer (its main thread and its dedicated workers), how often the code
 * the caller asks about was on the stack, and what the thread's tasks cost in CPU time. The
 * voice-activity e2e test and `npm run bench` both find voice analysis off the main thread this way.
 */

/**
 * Trace categories: the timeline (it names the page's renderer process), plus V8's sampling CPU
 * profiler, which records on every thread which script functions were running.
 */
export const CPU_PROFILE_TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'];

/** A profiled function: its script and, zero-based, where in that script the function starts. */
export interface ProfiledCallFrame {
  readonly functionName: string;
  /** Empty for the profiler's own entries: (program), (idle), (garbage collector). */
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

export interface ThreadCpuProfile {
  readonly threadName: string;
  /** CPU-profiler samples taken on the thread (one about every 0.2 ms, busy or idle). */
  samples: number;
  /** The time the samples cover (the traced window), each sample standing for the time since the one before it. */
  sampledMs: number;
  /** Samples whose stack runs through the code asked about, and their time (wall-clock, as sampled). */
  matchingSamples: number;
  matchingMs: number;
  /**
   * CPU time of the tasks the thread ran (their thread-clock durations): its cost even on a busy
   * machine, where sampled wall-clock time also counts the time the thread waited for a core.
   */
  taskCpuMs: number;
}

export interface PageCpuProfile {
  /** The page's main thread (CrRendererMain of its renderer process). */
  readonly main: ThreadCpuProfile;
  /** Each dedicated worker thread of the page's renderer process. */
  readonly dedicatedWorkers: readonly ThreadCpuProfile[];
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly id?: string;
  /** Thread-clock duration of a complete ('X') event, in microseconds. */
  readonly tdur?: number;
  readonly args?: {
    readonly name?: string;
    readonly data?: {
      readonly frames?: ReadonlyArray<{ readonly url: string; readonly processId: number }>;
      readonly cpuProfile?: {
        readonly nodes?: ReadonlyArray<{ readonly id: number; readonly parent?: number; readonly callFrame: Partial<ProfiledCallFrame> }>;
        readonly samples?: readonly number[];
      };
      /** Microseconds from the previous sample (the first: from the profile's start) to each sample. */
      readonly timeDeltas?: readonly number[];
    };
  };
}

interface ProfileNode {
  readonly parent: string | undefined;
  readonly callFrame: ProfiledCallFrame;
  /** Whether this function or one that called it matches; worked out once per node. */
  matches?: boolean;
}

/**
 * The CPU profile of the page at `pageUrl`, thread by thread. `matches` picks the code of interest:
 * a sample counts towards it when a matching function is anywhere on the sampled stack.
 *
 * The page's renderer is the process the trace's start event lists for a frame at `pageUrl`. A
 * `Profile` event names the profiled thread; its `ProfileChunk`s (emitted from the profiler's own
 * thread, under the same id) carry new call-tree nodes and samples given as leaf node ids.
 */
export function pageCpuProfile(traceJson: Buffer, pageUrl: string, matches: (frame: ProfiledCallFrame) => boolean): PageCpuProfile {
  const { traceEvents } = JSON.parse(traceJson.toString('utf8')) as { traceEvents: TraceEvent[] };
  const pageProcesses = new Set(
    traceEvents.flatMap((event) => (event.name === 'TracingStartedInBrowser' ? (event.args?.data?.frames ?? []) : []).filter((frame) => frame.url === pageUrl).map((frame) => frame.processId)),
  );
  if (pageProcesses.size !== 1) throw new Error(`expected one renderer process for ${pageUrl} in the trace, found ${pageProcesses.size}`);
  const [pid] = pageProcesses;
  const pageEvents = traceEvents.filter((event) => event.pid === pid);

  const threadNames = new Map<number, string>();
  for (const event of pageEvents) {
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name) threadNames.set(event.tid, event.args.name);
  }
  const profiles = new Map<string, ThreadCpuProfile>();
  const threadProfiles = new Map<number, ThreadCpuProfile>();
  for (const event of pageEvents) {
    if (event.name === 'Profile' && event.id !== undefined) {
      const profile = { threadName: threadNames.get(event.tid) ?? `thread ${event.tid}`, samples: 0, sampledMs: 0, matchingSamples: 0, matchingMs: 0, taskCpuMs: 0 };
      profiles.set(event.id, profile);
      threadProfiles.set(event.tid, profile);
    }
  }

  const nodes = new Map<string, ProfileNode>();
  const nodeMatches = (key: string): boolean => {
    const node = nodes.get(key);
    if (!node) return false;
    node.matches ??= matches(node.callFrame) || (node.parent !== undefined && nodeMatches(node.parent));
    return node.matches;
  };
  for (const event of pageEvents) {
    // Each task the thread's scheduler runs; they do not nest.
    if (event.name === 'RunTask' && event.ph === 'X') {
      const profile = threadProfiles.get(event.tid);
      if (profile) profile.taskCpuMs += (event.tdur ?? 0) / 1_000;
      continue;
    }
    const profile = event.name === 'ProfileChunk' && event.id !== undefined ? profiles.get(event.id) : undefined;
    if (!profile) continue;
    const { cpuProfile, timeDeltas = [] } = event.args?.data ?? {};
    const key = (nodeId: number) => `${event.id}:${nodeId}`;
    for (const { id, parent, callFrame } of cpuProfile?.nodes ?? []) {
      nodes.set(key(id), {
        parent: parent === undefined ? undefined : key(parent),
        callFrame: { functionName: callFrame.functionName ?? '', url: callFrame.url ?? '', lineNumber: callFrame.lineNumber ?? 0, columnNumber: callFrame.columnNumber ?? 0 },
      });
    }
    (cpuProfile?.samples ?? []).forEach((leaf, index) => {
      const ms = (timeDeltas[index] ?? 0) / 1_000;
      profile.samples += 1;
      profile.sampledMs += ms;
      if (nodeMatches(key(leaf))) {
        profile.matchingSamples += 1;
        profile.matchingMs += ms;
      }
    });
  }

  const threads = [...profiles.values()];
  const main = threads.find((thread) => thread.threadName === 'CrRendererMain');
  if (!main) throw new Error(`the trace has no CPU profile of ${pageUrl}'s main thread`);
  return { main, dedicatedWorkers: threads.filter((thread) => thread.threadName.startsWith('DedicatedWorker')) };
}
