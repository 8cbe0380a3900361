// Where the two-person join's time goes: one Parley newcomer joining a mesh call, with the steps
// the page can see stamped from navigation on (median over runs). What the shared worker does
// (config, websocket, login, room join) shows up as when the page learns of it.
import type { Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { launchBrowser, PARLEY } from './clients';
import { callUp, JOIN_PROBE, waitForRemoteVideos, type ProbedWindow } from './join';
import { median, type Row } from './table';

/** The steps, in the order a join takes them; each is stamped the first time it happens. */
const STEPS = [
  ['entry script loaded', 'the app’s entry chunk has arrived'],
  ['room view loaded', 'the room page’s chunk'],
  ['call code loaded', 'capture, Jingle and the call paths'],
  ['room page rendered', 'its heading is in the document'],
  ['first contentful paint', ''],
  ['room joined', 'the page stops saying “Joining the room…”'],
  ['camera asked', 'getUserMedia for the preview'],
  ['camera captured', ''],
  ['“Join call” enabled', ''],
  ['“Join call” clicked', 'by the harness, the moment it is enabled'],
  ['first offer received', 'setRemoteDescription(offer)'],
  ['first answer set', 'setLocalDescription(answer)'],
  ['first ICE connected', ''],
  ['first DTLS connected', 'connectionState connected'],
  ['first remote frame decoded', ''],
] as const;

type Step = (typeof STEPS)[number][0];

/** One join: when each step came, and the main thread's long tasks (> 50 ms) before the first remote frame, in ms after navigation. */
interface Join {
  at: Partial<Record<Step, number>>;
  longTasks: { at: number; ms: number }[];
}

/**
 * Installed beside JOIN_PROBE: stamps (epoch ms) the steps the page itself takes — the browser's
 * capture and peer connection calls, and what the page shows — in `window.__benchTimeline`.
 */
const TIMELINE_PROBE = `(() => {
  const marks = {};
  const longTasks = [];
  window.__benchTimeline = marks;
  window.__benchLongTasks = longTasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const mark = (step) => { if (!(step in marks)) marks[step] = performance.timeOrigin + performance.now(); };
  const getUserMedia = MediaDevices.prototype.getUserMedia;
  MediaDevices.prototype.getUserMedia = function (...args) {
    mark('camera asked');
    return getUserMedia.apply(this, args).then((stream) => { mark('camera captured'); return stream; });
  };
  const setRemote = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description, ...rest) {
    if (description?.type === 'offer') mark('first offer received');
    if (!this.__benchTimed) {
      this.__benchTimed = true;
      this.addEventListener('iceconnectionstatechange', () => { if (this.iceConnectionState === 'connected' || this.iceConnectionState === 'completed') mark('first ICE connected'); });
      this.addEventListener('connectionstatechange', () => { if (this.connectionState === 'connected') mark('first DTLS connected'); });
    }
    return setRemote.call(this, description, ...rest);
  };
  const setLocal = RTCPeerConnection.prototype.setLocalDescription;
  RTCPeerConnection.prototype.setLocalDescription = function (description, ...rest) {
    const done = setLocal.call(this, description, ...rest);
    return done.then((result) => { if (this.localDescription?.type === 'answer') mark('first answer set'); return result; });
  };
  new MutationObserver((changes, observer) => {
    if (document.querySelector('h1')) { mark('room page rendered'); observer.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
  addEventListener('click', (event) => { if (event.target?.closest?.('button')?.textContent === 'Join call') mark('“Join call” clicked'); }, true);
  let sawJoining = false;
  const look = () => {
    const text = document.body?.textContent ?? '';
    if (text.includes('Joining the room…')) sawJoining = true;
    else if (sawJoining && document.querySelector('h1')) mark('room joined');
    if ([...document.querySelectorAll('button')].some((button) => button.textContent === 'Join call' && !button.disabled)) mark('“Join call” enabled');
    if (!('“Join call” clicked' in marks)) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()`;

/** One newcomer's steps, in ms after navigation. */
async function stepsOfOneJoin(parley: RunningParley, run: number): Promise<Join> {
  const browser = await launchBrowser();
  try {
    const roomName = `bench-timeline-${run}-${Date.now().toString(36)}`;
    await callUp(browser, PARLEY, parley, roomName, 1, 'mesh');
    const context = await browser.newContext();
    await context.addInitScript(JOIN_PROBE);
    await context.addInitScript(TIMELINE_PROBE);
    const page = await context.newPage();
    await PARLEY.enterCall(page, parley.url, roomName);
    await waitForRemoteVideos(page, 1);
    return await readSteps(page);
  } finally {
    await browser.close();
  }
}

/** The page's stamps and timings, turned into ms after navigation. */
async function readSteps(page: Page): Promise<Join> {
  // Raw figures only: the processing runs here, not in the page.
  const raw = await page.evaluate(() => ({
    navigatedAt: (window as unknown as ProbedWindow).__benchJoin.navigatedAt,
    firstFrames: [...(window as unknown as ProbedWindow).__benchJoin.firstFrames.values()].map((frame) => frame.at),
    marks: (window as unknown as { __benchTimeline: Record<string, number> }).__benchTimeline,
    timeOrigin: performance.timeOrigin,
    scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({ path: new URL(entry.name).pathname, end: entry.responseEnd })),
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    longTasks: (window as unknown as { __benchLongTasks: { at: number; ms: number }[] }).__benchLongTasks,
  }));
  const since = (epoch: number) => Math.round(epoch - raw.navigatedAt);
  const at: Partial<Record<Step, number>> = {};
  for (const [step, epoch] of Object.entries(raw.marks)) at[step as Step] = since(epoch);
  for (const [step, prefix] of [
    ['entry script loaded', 'index-'],
    ['room view loaded', 'RoomView-'],
    ['call code loaded', 'createTabCallRuntime-'],
  ] as const) {
    const script = raw.scripts.find((entry) => entry.path.startsWith(`/assets/${prefix}`));
    if (script) at[step] = since(raw.timeOrigin + script.end);
  }
  if (raw.paint !== undefined) at['first contentful paint'] = since(raw.timeOrigin + raw.paint);
  if (raw.firstFrames.length) at['first remote frame decoded'] = since(Math.min(...raw.firstFrames));
  const frameAt = at['first remote frame decoded'] ?? Infinity;
  const longTasks = raw.longTasks.map((task) => ({ at: since(task.at), ms: Math.round(task.ms) })).filter((task) => task.at < frameAt);
  return { at, longTasks };
}

/** The two-person mesh join, step by step: median ms after navigation over `runs` fresh browsers. */
export async function joinTimelineRows(parley: RunningParley, runs: number): Promise<Row[]> {
  const joins: Join[] = [];
  for (let run = 0; run < runs; run += 1) joins.push(await stepsOfOneJoin(parley, run));
  const steps = STEPS.map(([step, what]) => {
    const times = joins.flatMap((join) => (join.at[step] === undefined ? [] : [join.at[step]]));
    return { metric: step, measured: times.length ? `${Math.round(median(times))} ms` : 'not seen', target: what };
  });
  const longTasks = joins.map((join) => join.longTasks.map((task) => `${task.ms} ms at ${task.at}`).join(', ') || 'none');
  return [...steps, { metric: 'long tasks before it, each run', measured: longTasks.join('; '), target: 'duration at ms after navigation' }];
}
