// Navigation to a room's address → a decoded frame of every remote video, for the last of `people`
// to arrive, timed the same way for Parley and the SimpleWebRTC 1.30.3 reference: one probe in the
// page that knows nothing of either client, a fresh browser per run.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { iceConnected, relayRoomStats } from '../../tests/e2e/relay-people';
import { expect } from '../../tests/e2e/relay-server';
import { roomJid } from '../../tests/e2e/rooms-people';
import { startTestParley } from '../../tests/support/testParley';
import { launchMeteredBrowser, windowOpenedSettled } from './browserCpu';
import type { BenchClient } from './clients';

/** How remote video reaches a person: peer to peer, or forwarded by the media relay. */
export type MediaPath = 'mesh' | 'relay';

/**
 * The servers joins over `path` run on, serving `staticRoot` (the app's build when absent): the
 * mesh's with the relay off, so its rows stay the mesh's; the relay's taking a call from its second
 * person (sfuServer.minimumPeers 1, which both clients honour), so a newcomer joins a call already
 * on it.
 */
export function startJoinServer(path: MediaPath, staticRoot?: string): Promise<RunningParley> {
  return startTestParley({ ...(path === 'mesh' ? { relayWorkers: 0 } : { relayMinimumPeers: 1 }), ...(staticRoot === undefined ? {} : { staticRoot }) });
}

/** What JOIN_PROBE keeps in `window.__benchJoin`; times are epoch milliseconds. */
interface JoinProbe {
  /** When this tab first navigated to the server's origin (kept across the app's own navigations). */
  navigatedAt: number;
  /** Each remote video track shown in a <video> that has presented a frame: when first seen so, and its path. */
  firstFrames: Map<string, { at: number; path: MediaPath; height: number }>;
  longTaskStarts: number[];
  connections: Set<RTCPeerConnection>;
  /** Stops looking at videos on every frame (a steady call's costs are measured without it). */
  stopWatching(): void;
}

export type ProbedWindow = Window & { __benchJoin: JoinProbe };

/** The binding through which JOIN_PROBE tells the harness how many remote videos it has seen decoded. */
const FRAMES_SEEN = '__benchFramesSeen';

/**
 * The page-side probe, installed before any of the page's scripts. A track is remote when an
 * RTCPeerConnection of the page receives it, and the relay's when that connection's far end is
 * ice-lite (PROTOCOL.md: a relay consumer's offer; mesh peers run full ICE). Every animation frame
 * it looks at each <video> for a remote track that has presented a frame, and says so to the
 * harness through a binding (FRAMES_SEEN): waiting with Playwright's waitForFunction would inject and
 * run Playwright's own script on the page's main thread in the middle of the join. Long tasks are kept
 * with their start for counting up to the last first frame.
 */
const JOIN_PROBE = `(() => {
  let navigatedAt = performance.timeOrigin;
  try {
    const kept = sessionStorage.getItem('parleyBench.navigatedAt');
    if (kept) navigatedAt = Number(kept);
    else sessionStorage.setItem('parleyBench.navigatedAt', String(navigatedAt));
  } catch {}
  let watching = true;
  const probe = { navigatedAt, firstFrames: new Map(), longTaskStarts: [], connections: new Set(), stopWatching: () => { watching = false; } };
  window.__benchJoin = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTaskStarts.push(performance.timeOrigin + entry.startTime);
  }).observe({ type: 'longtask', buffered: true });
  const relayConnections = new WeakSet();
  const setRemoteDescription = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description, ...rest) {
    probe.connections.add(this);
    if (/^a=ice-lite/m.test(description?.sdp ?? '')) relayConnections.add(this);
    return setRemoteDescription.call(this, description, ...rest);
  };
  const look = () => {
    if (!watching) return;
    const remote = new Map();
    for (const connection of probe.connections) {
      for (const receiver of connection.getReceivers()) {
        if (receiver.track.kind === 'video') remote.set(receiver.track.id, relayConnections.has(connection) ? 'relay' : 'mesh');
      }
    }
    for (const video of document.querySelectorAll('video')) {
      const track = video.srcObject?.getVideoTracks?.()[0];
      if (!track || probe.firstFrames.has(track.id) || !remote.has(track.id)) continue;
      if (video.getVideoPlaybackQuality().totalVideoFrames > 0) {
        probe.firstFrames.set(track.id, { at: performance.timeOrigin + performance.now(), path: remote.get(track.id), height: video.videoHeight });
        window.${FRAMES_SEEN}?.(probe.firstFrames.size);
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()`;

/** What each probed page has said of its remote videos: how many it has seen decoded, and who waits for more. */
interface FramesSeen {
  count: number;
  waiting: Set<() => void>;
}
const framesSeen = new WeakMap<Page, FramesSeen>();

function framesSeenBy(page: Page): FramesSeen {
  let seen = framesSeen.get(page);
  if (!seen) framesSeen.set(page, (seen = { count: 0, waiting: new Set() }));
  return seen;
}

/** A browser context whose pages run JOIN_PROBE (and `moreProbes`) before any script of theirs. */
export async function probedContext(browser: Browser, ...moreProbes: string[]): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.exposeBinding(FRAMES_SEEN, ({ page }, count: number) => {
    const seen = framesSeenBy(page);
    // Each document counts from none: a page that navigates says its new document's count.
    seen.count = count;
    seen.waiting.forEach((check) => check());
  });
  for (const probe of [JOIN_PROBE, ...moreProbes]) await context.addInitScript(probe);
  return context;
}

/**
 * A new person: a browser context of their own with the probe installed, and their tab; `before`
 * runs in that context before the tab's window opens (BenchClient.before).
 */
export async function newPerson(browser: Browser, before?: (context: BrowserContext) => Promise<void>): Promise<Page> {
  const context = await probedContext(browser);
  await before?.(context);
  return context.newPage();
}

/** Waits until `page` (of a probedContext) has shown a frame of `count` remote videos. */
export async function waitForRemoteVideos(page: Page, count: number, timeout = 60_000): Promise<void> {
  const seen = framesSeenBy(page);
  if (seen.count >= count) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      seen.waiting.delete(check);
      reject(new Error(`${count} remote videos not decoded within ${timeout} ms (${seen.count} were)`));
    }, timeout);
    const check = () => {
      if (seen.count < count) return;
      clearTimeout(timer);
      seen.waiting.delete(check);
      resolve();
    };
    seen.waiting.add(check);
  });
}

/** Enters the call the way `client` does, and waits until it shows the person in it. */
export async function enterCall(client: BenchClient, page: Page, appUrl: string, roomName: string): Promise<void> {
  await client.arrive(page, appUrl, roomName);
  await client.inCall(page);
}

/** By the relay's own stats: each of `people` in the room has its stream consumed, ICE up, by every other (audio and video). */
export function relayCarriesRoom(parley: RunningParley, roomName: string, people: number): boolean {
  const connected = relayRoomStats(parley, roomJid(roomName, parley.settings.mucDomain)).consumers.filter(iceConnected);
  return connected.length === 2 * people * (people - 1);
}

/**
 * Everyone but the newcomer enters the call, one after another, each once they see those before
 * them (over the relay by its own stats, when `path` is the relay): the newcomer joins a call that is up.
 */
export async function callUp(browser: Browser, client: BenchClient, parley: RunningParley, roomName: string, people: number, path: MediaPath, appUrl = parley.url): Promise<Page[]> {
  const pages: Page[] = [];
  for (let i = 0; i < people; i += 1) {
    const page = await newPerson(browser);
    await enterCall(client, page, appUrl, roomName);
    pages.push(page);
    if (i > 0) await Promise.all(pages.map((each) => waitForRemoteVideos(each, i)));
  }
  if (path === 'relay') await expect.poll(() => relayCarriesRoom(parley, roomName, people), { timeout: 60_000 }).toBe(true);
  return pages;
}

/** One newcomer's join: navigation → every remote video decoded, and the long tasks in between. */
export interface JoinTiming {
  ms: number;
  longTasks: number;
  /**
   * CPU time of the whole browser (every person's processes) from just before the newcomer's
   * navigation until the harness saw every remote video decoded: the work the join took.
   */
  browserCpuMs: number;
  /** The height of the tallest of the first frames counted: how large a picture the senders sent first. */
  firstFrameHeight: number;
}

/** What one kind of join is: who, how many, which path, on which servers, and how the newcomer arrives. */
export interface JoinCase {
  client: BenchClient;
  /** The newcomer's way in; `client` when absent. */
  newcomer?: BenchClient;
  people: number;
  path: MediaPath;
  parley: RunningParley;
  /** Where the browsers reach those servers (a DelayFront), when not directly. */
  appUrl?: string;
}

/**
 * One run in a fresh browser. Every remote video the newcomer counts must have come over `path`:
 * a mismatch throws rather than mislabel the number.
 */
export async function timeJoin({ client, newcomer = client, people, path, parley, appUrl = parley.url }: JoinCase, run: number): Promise<JoinTiming> {
  const { browser, cpuMs } = await launchMeteredBrowser();
  try {
    const roomName = `bench-${people}-${path}-${run}-${Date.now().toString(36)}`;
    await callUp(browser, client, parley, roomName, people - 1, path, appUrl);
    const last = await windowOpenedSettled(cpuMs, () => newPerson(browser, async (context) => newcomer.before?.(context, appUrl)));
    const cpuBefore = cpuMs();
    await newcomer.arrive(last, appUrl, roomName);
    await waitForRemoteVideos(last, people - 1);
    const browserCpuMs = cpuMs() - cpuBefore;
    // Only now, the join timed: that the client showed the person in the call.
    await newcomer.inCall(last);
    const { navigatedAt, frames, longTaskStarts } = await last.evaluate(() => {
      const probe = (window as unknown as ProbedWindow).__benchJoin;
      return { navigatedAt: probe.navigatedAt, frames: [...probe.firstFrames.values()], longTaskStarts: probe.longTaskStarts };
    });
    const counted = frames.sort((a, b) => a.at - b.at).slice(0, people - 1);
    const other = counted.find((frame) => frame.path !== path);
    if (other) throw new Error(`${newcomer.name}, ${people} people: a remote video came over the ${other.path}, not the ${path}`);
    const everyVideoAt = counted.at(-1)!.at;
    return {
      ms: everyVideoAt - navigatedAt,
      longTasks: longTaskStarts.filter((start) => start < everyVideoAt).length,
      browserCpuMs,
      firstFrameHeight: Math.max(...counted.map((frame) => frame.height)),
    };
  } finally {
    await browser.close();
  }
}
