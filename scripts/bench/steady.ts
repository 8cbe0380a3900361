// What a steady 3-person call costs the browser, for either client: main-thread scripting per tab
// (Chromium's own ScriptDuration, over CDP) and the CPU time of the whole browser's processes.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { launchMeteredBrowser } from './browserCpu';
import type { BenchClient } from './clients';
import { callUp, relayCarriesRoom, type ProbedWindow } from './join';

/** After everyone sees everyone, this long for the call to settle (bandwidth estimation ramps up) before measuring. */
const SETTLE_MS = 5_000;
const PEOPLE = 3;

export interface SteadyCost {
  /** Main-thread script time per tab, in ms per 30 s. */
  scriptingMsPer30s: number;
  /** CPU time of the browser's processes (all three people), in % of one core. */
  browserCpuPercent: number;
  /** The largest camera frame any tab sends, as `W×H`. */
  sent: string;
  /** The largest camera capture of any tab (its track's settings), as `W×H`. */
  captured: string;
}

/**
 * Reads the page's main-thread script time (ms) by Chromium's Performance domain, on one CDP
 * session kept for the page: the metrics count from when that session enabled them.
 */
async function scriptingMeter(page: Page): Promise<{ read(): Promise<number>; close(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return {
    async read() {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return (metrics.find((metric) => metric.name === 'ScriptDuration')?.value ?? 0) * 1000;
    },
    close: () => cdp.detach(),
  };
}

/**
 * The largest outbound camera frame of the page's peer connections (those the join probe saw), and
 * the largest capture of the tracks they send, each as [width, height].
 */
function largestFrames(page: Page): Promise<{ sent: [number, number]; captured: [number, number] }> {
  return page.evaluate(async () => {
    const { connections } = (window as unknown as ProbedWindow).__benchJoin;
    let sent: [number, number] = [0, 0];
    let captured: [number, number] = [0, 0];
    for (const connection of connections) {
      for (const report of (await connection.getStats()).values()) {
        if (report.type === 'outbound-rtp' && report.kind === 'video' && (report.frameWidth ?? 0) > sent[0]) sent = [report.frameWidth, report.frameHeight];
      }
      for (const sender of connection.getSenders()) {
        const { width = 0, height = 0 } = sender.track?.kind === 'video' ? sender.track.getSettings() : {};
        if (width > captured[0]) captured = [width, height];
      }
    }
    return { sent, captured };
  });
}

/**
 * BENCH_STEADY_PROFILE=1: where a tab's main-thread script time goes in the steady window — V8's
 * sampling profiler on the first tab, printed as the functions with the most self time (the
 * profiler's own cost lands on the measured figures, so they are not for the table then).
 */
async function scriptProfiler(page: Page, label: string): Promise<{ printTop(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async printTop() {
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.detach();
      const selfMs = new Map<string, number>();
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const parentOf = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node] as const)));
      const name = ({ callFrame: frame }: (typeof profile.nodes)[number]) => `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1}`;
      const deltas = profile.timeDeltas ?? [];
      for (const [index, sampleId] of (profile.samples ?? []).entries()) {
        const node = byId.get(sampleId);
        if (!node || ['(idle)', '(program)', '(garbage collector)'].includes(node.callFrame.functionName)) continue;
        // A browser function (no script of its own) is named with the script that called it.
        const caller = node.callFrame.url === '' ? parentOf.get(node.id) : undefined;
        const where = caller ? `${name(node)} ← ${name(caller)}` : name(node);
        selfMs.set(where, (selfMs.get(where) ?? 0) + (deltas[index + 1] ?? 0) / 1000);
      }
      const top = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 25);
      console.log(`[steady profile] ${label}: main-thread self time by function, ms`);
      for (const [where, ms] of top) console.log(`  ${ms.toFixed(1).padStart(7)}  ${where}`);
    },
  };
}

const largest = (frames: [number, number][]): string => {
  const [width, height] = [...frames].sort((a, b) => b[0] - a[0])[0]!;
  return `${width}×${height}`;
};

/**
 * One steady call of PEOPLE on `parley`'s relay in a fresh browser: once everyone sees everyone
 * and the call has settled, scripting and CPU over `windowMs`. `enlarged`: each person first
 * enlarges the next one's camera (`BenchClient.enlarge`), so that every sender's top layer is watched.
 */
export async function steadyCallCost(client: BenchClient, parley: RunningParley, windowMs: number, run: number, enlarged = false): Promise<SteadyCost> {
  const { browser, cpuMs } = await launchMeteredBrowser();
  try {
    const roomName = `bench-steady-${run}-${Date.now().toString(36)}`;
    const pages = await callUp(browser, client, parley, roomName, PEOPLE, 'relay');
    await Promise.all(pages.map((page) => page.evaluate(() => (window as unknown as ProbedWindow).__benchJoin.stopWatching())));
    if (enlarged) {
      if (!client.enlarge) throw new Error(`${client.name} shows every camera at full size: there is nothing to enlarge`);
      for (const [index, page] of pages.entries()) await client.enlarge(page, pages[(index + 1) % pages.length]!);
    }
    await sleep(SETTLE_MS);
    const meters = await Promise.all(pages.map(scriptingMeter));
    const profiler = process.env.BENCH_STEADY_PROFILE === '1' ? await scriptProfiler(pages[0]!, `${client.name}, run ${run}`) : undefined;
    const scriptingBefore = await Promise.all(meters.map((meter) => meter.read()));
    const cpuBefore = cpuMs();
    const started = performance.now();
    await sleep(windowMs);
    const cpu = cpuMs() - cpuBefore;
    const scripting = (await Promise.all(meters.map((meter) => meter.read()))).map((ms, i) => ms - scriptingBefore[i]!);
    const elapsed = performance.now() - started;
    await profiler?.printTop();
    await Promise.all(meters.map((meter) => meter.close()));
    if (!relayCarriesRoom(parley, roomName, PEOPLE)) throw new Error(`${client.name}: the relay call changed while it was measured`);
    const frames = await Promise.all(pages.map(largestFrames));
    const perTab = scripting.reduce((sum, ms) => sum + ms, 0) / pages.length;
    return {
      scriptingMsPer30s: (perTab * 30_000) / elapsed,
      browserCpuPercent: (cpu / elapsed) * 100,
      sent: largest(frames.map((frame) => frame.sent)),
      captured: largest(frames.map((frame) => frame.captured)),
    };
  } finally {
    await browser.close();
  }
}
