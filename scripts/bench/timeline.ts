// Where a join's time goes: one Parley newcomer joining a call that is up (two people on the mesh,
// or three or four on the relay), with the steps the pages and shared workers take stamped from
// the newcomer's navigation on (median over runs). Of the people already in the call, each step is
// stamped the first time any of them takes it, and the relay's chain also the last time.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import type { RelayMethod } from '../../src/protocol/relay';
import { launchMeteredBrowser, windowOpenedSettled } from './browserCpu';
import { PARLEY } from './clients';
import { callUp, probedContext, waitForRemoteVideos, type MediaPath, type ProbedWindow } from './join';
import { median, type Row } from './table';
import { SharedWorkerSteps, stampOfferPosted } from './workerSteps';

/** The steps, in the order a join takes them; each is stamped the first time it happens. */
const STEPS = [
  ['session worker started', 'the newcomer’s shared worker (signalling session) is created'],
  ['stored identity asked', 'the worker’s first IndexedDB open: its first script has run'],
  ['a tab’s attach arrives at the worker', 'the page’s attach (Comlink), as the worker reads it'],
  ['the room’s opening arrives at the worker', 'the page’s openRoom, as the worker reads it'],
  ['the call’s join arrives at the worker', 'the page’s “Join call” (openRoom with autoJoinCall, or joinCall), as the worker reads it'],
  ['the call’s claim arrives at the worker', 'the call’s tab claims its Jingle (after the call’s lock and the Call): an offer before it waits'],
  ['websocket asked', 'the worker’s first script opens the XMPP websocket'],
  ['websocket open', ''],
  ['config asked', 'the worker’s first script asks /api/config'],
  ['config fetched', '/api/config answered, in the worker'],
  ['authenticated', 'SASL success received: the login ahead, made by the worker’s first script on its websocket'],
  ['bound', 'resource binding answered: the login ahead’s too'],
  ['the XMPP client takes the websocket', 'the session’s code has run, made its client and read the config'],
  ['room address asked', '/api/room-config asked, in the worker (once the page has opened its room)'],
  ['room address looked up', '/api/room-config answered, in the worker'],
  ['logged in', 'the XMPP session started: initial presence sent'],
  ['join presence sent', ''],
  ['join presence sent, with the call', 'the call joined before the room answered goes with the join'],
  ['self-presence received', 'the room answered the join'],
  ['call presence sent', ''],
  ['other side: newcomer’s presence arrives', 'in the worker of the person already in the call'],
  ['other side: newcomer in the call', 'their worker receives the newcomer’s call presence'],
  ['other side: offer leaves the worker', 'session-initiate sent on their websocket'],
  ['offer arrives at the worker', 'session-initiate received on the newcomer’s websocket'],
  ['offer handed to the page', 'the worker passes the session-initiate to the tab that claimed the call'],
  ['offer read by the page', 'the page’s Jingle listener reads the first session-initiate'],
  ['an offer received', 'setRemoteDescription(offer) called, on any connection'],
  ['relay connection asked', 'the page opens its websocket to the relay'],
  ['mediasoup-client loaded', 'the relay’s client code, asked for with the relay’s connection'],
  ['ingest transport asked', 'relay: the newcomer’s own sending (CREATE_INGEST_TRANSPORT)'],
  ['ingest produced', 'relay: its first PRODUCE'],
  ['answer leaves the worker', 'session-accept sent on the newcomer’s websocket'],
  ['the newcomer’s own offer leaves its worker', 'the session carrying the newcomer’s camera to the other person'],
  ['other side: the newcomer’s offer arrives', 'in their worker'],
  ['other side: answer arrives at the worker', ''],
  ['entry script loaded', 'the app’s entry chunk has arrived'],
  ['room view loaded', 'the room page’s chunk'],
  ['call code loaded', 'capture, Jingle and the call paths'],
  ['room page rendered', 'its heading is in the document'],
  ['first contentful paint', ''],
  ['room joined', 'the page stops saying “Joining the room…”'],
  ['camera asked', 'getUserMedia for the preview'],
  ['camera captured', ''],
  ['“Join call” clicked', 'by the page itself, right after the frame that shows it (scripts/bench/clients.ts)'],
  ['other side: offer leaves its page', 'their page hands the session-initiate to its worker'],
  ['other side: consumer claimed', 'relay: their page asks the relay for the consumer made ahead (CLAIM_CONSUMER)'],
  ['others, last: consumer claimed', 'relay: the last of the people in the call to do so'],
  ['others, last: offer leaves the worker', 'relay: the last of their offers to the newcomer leaves its worker'],
  ['first offer received', 'setRemoteDescription(offer) called, on the connection of the first video decoded'],
  ['offer applied', 'setRemoteDescription(offer) resolved'],
  ['first answer set', 'setLocalDescription(answer) resolved: the answer goes out'],
  ['its first own candidate', 'the connection’s first local ICE candidate'],
  ['the other’s first candidate added', 'addIceCandidate with the other side’s first trickled candidate'],
  ['other side: answer received', 'their page calls setRemoteDescription(answer)'],
  ['other side: answer applied', 'setRemoteDescription(answer) resolved, in their page'],
  ['other side: ICE connected', 'their connection to the newcomer, as their page hears it'],
  ['other side: DTLS connected', ''],
  ['other side: consumer started', 'relay: their page passes the newcomer’s answer on (START_CONSUMER)'],
  ['others, last: consumer started', 'relay: the last of them to do so'],
  ['first ICE connected', ''],
  ['first DTLS connected', 'connectionState connected'],
  ['first remote frame decoded', ''],
  ['every remote video decoded', 'a frame of each person in the call: what the bench’s join rows time'],
  ['other side: the newcomer’s video decoded', 'the other way: their page shows a frame of the newcomer’s camera'],
] as const;

type Step = (typeof STEPS)[number][0];

/** The steps that are a script's arrival, by the script the build emitted for each (its Vite manifest). */
const SCRIPT_STEPS: readonly (readonly [Step, string])[] = (() => {
  const manifest = JSON.parse(readFileSync(new URL('../../dist/.vite/manifest.json', import.meta.url), 'utf8')) as Record<string, { file: string }>;
  return (
    [
      ['entry script loaded', 'index.html'],
      ['room view loaded', 'src/ui/RoomView.tsx'],
      ['call code loaded', 'src/main-thread/callTab/createTabCallRuntime.ts'],
      ['mediasoup-client loaded', 'node_modules/mediasoup-client/lib/index.js'],
    ] as const
  ).map(([step, source]) => [step, manifest[source]!.file] as const);
})();

/**
 * A probe's statement (its `mark` in scope) that stamps the step of each relay method the first time
 * the page sends a call of it: JSON-RPC on its websocket to the relay (the page's only websocket).
 */
function stampRelayCalls(steps: Partial<Record<RelayMethod, Step>>): string {
  return `(() => {
    const steps = Object.entries(${JSON.stringify(steps)});
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (typeof data === 'string') for (const [method, step] of steps) if (data.includes('"method":"' + method + '"')) mark(step);
      return send.call(this, data);
    };
  })();`;
}

/** One join: when each step came, and the main thread's long tasks (> 50 ms) before every remote video was decoded, in ms after navigation. */
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
  // Per connection: the video counted is the first decoded, and the steps shown are its connection's.
  const stamp = (connection, step) => {
    connection.__benchSteps ??= {};
    if (!(step in connection.__benchSteps)) connection.__benchSteps[step] = performance.timeOrigin + performance.now();
  };
  // The offer as the page reads it (Comlink's call of the page's Jingle listener).
  const addListener = MessagePort.prototype.addEventListener;
  MessagePort.prototype.addEventListener = function (type, listener, ...rest) {
    if (type !== 'message' || typeof listener !== 'function') return addListener.call(this, type, listener, ...rest);
    return addListener.call(this, type, function (event) {
      const path = event.data?.path;
      if (Array.isArray(path) && path[path.length - 1] === 'jingle' && JSON.stringify(event.data.argumentList ?? []).includes('session-initiate')) mark('offer read by the page');
      return listener.call(this, event);
    }, ...rest);
  };
  // The page's relay connection (JSON-RPC): its own sending to the relay.
  window.WebSocket = new Proxy(WebSocket, {
    construct(target, args, newTarget) { mark('relay connection asked'); return Reflect.construct(target, args, newTarget); },
  });
  ${stampRelayCalls({ CREATE_INGEST_TRANSPORT: 'ingest transport asked', PRODUCE: 'ingest produced' })}
  const setRemote = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description, ...rest) {
    if (description?.type === 'offer') { stamp(this, 'first offer received'); mark('an offer received'); }
    if (!this.__benchTimed) {
      this.__benchTimed = true;
      this.addEventListener('iceconnectionstatechange', () => { if (this.iceConnectionState === 'connected' || this.iceConnectionState === 'completed') stamp(this, 'first ICE connected'); });
      this.addEventListener('connectionstatechange', () => { if (this.connectionState === 'connected') stamp(this, 'first DTLS connected'); });
      this.addEventListener('icecandidate', (event) => { if (event.candidate) stamp(this, 'its first own candidate'); });
    }
    return setRemote.call(this, description, ...rest).then((result) => { stamp(this, 'offer applied'); return result; });
  };
  const addIceCandidate = RTCPeerConnection.prototype.addIceCandidate;
  RTCPeerConnection.prototype.addIceCandidate = function (candidate, ...rest) {
    if (candidate?.candidate) stamp(this, 'the other’s first candidate added');
    return addIceCandidate.call(this, candidate, ...rest);
  };
  const setLocal = RTCPeerConnection.prototype.setLocalDescription;
  RTCPeerConnection.prototype.setLocalDescription = function (description, ...rest) {
    const done = setLocal.call(this, description, ...rest);
    return done.then((result) => { if (this.localDescription?.type === 'answer') stamp(this, 'first answer set'); return result; });
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
    if (!window.__benchJoin?.firstFrames.size) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()`;

/**
 * Installed in the page of the person already in the call, after their join: stamps (epoch ms) when
 * their page hands its first session-initiate to its shared worker (the session towards the
 * newcomer: Comlink's message for `jingle.send`), and when their connection that took the
 * newcomer's answer is connected, in `window.__benchOtherSide`.
 */
const OTHER_SIDE_PROBE = `(() => {
  const marks = {};
  window.__benchOtherSide = marks;
  const mark = (step) => { if (!(step in marks)) marks[step] = performance.timeOrigin + performance.now(); };
  ${stampOfferPosted('send', 'other side: offer leaves its page')}
  // The consumer made ahead, claimed and started for the newcomer.
  ${stampRelayCalls({ CLAIM_CONSUMER: 'other side: consumer claimed', START_CONSUMER: 'other side: consumer started' })}
  const setRemote = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description, ...rest) {
    if (description?.type === 'answer') {
      mark('other side: answer received');
      this.addEventListener('iceconnectionstatechange', () => { if (this.iceConnectionState === 'connected' || this.iceConnectionState === 'completed') mark('other side: ICE connected'); });
      this.addEventListener('connectionstatechange', () => { if (this.connectionState === 'connected') mark('other side: DTLS connected'); });
    }
    const applied = setRemote.call(this, description, ...rest);
    return description?.type === 'answer' ? applied.then((result) => { mark('other side: answer applied'); return result; }) : applied;
  };
})()`;

/** A worker's own stamp, by whose worker it is, as the timeline names it. */
const WORKER_STEPS_RENAMED: readonly (readonly ['newcomer' | 'other', string, Step])[] = [
  ['newcomer', 'offer leaves the worker', 'the newcomer’s own offer leaves its worker'],
  ['other', 'offer arrives at the worker', 'other side: the newcomer’s offer arrives'],
  ['other', 'a room presence received', 'other side: newcomer’s presence arrives'],
  ['other', 'a call presence received', 'other side: newcomer in the call'],
  ['other', 'offer leaves the worker', 'other side: offer leaves the worker'],
  ['other', 'answer arrives at the worker', 'other side: answer arrives at the worker'],
];

/** Steps of the people in the call also stamped the last time one of them takes it (relay joins). */
const LAST_OF_OTHERS: readonly (readonly [Step, Step])[] = [
  ['other side: consumer claimed', 'others, last: consumer claimed'],
  ['other side: offer leaves the worker', 'others, last: offer leaves the worker'],
  ['other side: consumer started', 'others, last: consumer started'],
];

/** One newcomer's steps, in ms after navigation: joining `people - 1` others over `path`. */
async function stepsOfOneJoin(parley: RunningParley, run: number, people: number, path: MediaPath): Promise<Join> {
  const { browser, cpuMs } = await launchMeteredBrowser();
  try {
    const workers = await SharedWorkerSteps.watch(browser);
    const roomName = `bench-timeline-${people}-${run}-${Date.now().toString(36)}`;
    const others = await callUp(browser, PARLEY, parley, roomName, people - 1, path);
    for (const [index, other] of others.entries()) {
      await other.evaluate(OTHER_SIDE_PROBE);
      await workers.restart(index);
    }
    const page = await windowOpenedSettled(cpuMs, async () => (await probedContext(browser, TIMELINE_PROBE)).newPage());
    await PARLEY.arrive(page, parley.url, roomName);
    await waitForRemoteVideos(page, people - 1);
    await PARLEY.inCall(page);
    const navigatedAt = await page.evaluate(() => (window as unknown as ProbedWindow).__benchJoin.navigatedAt);
    const join = await readSteps(page, people - 1);
    // The other way: the others see the newcomer (their pages' JOIN_PROBE counts that video, the first decoded since the newcomer came).
    const otherSides: Record<string, number>[] = [];
    for (const [index, other] of others.entries()) {
      await waitForRemoteVideos(other, people - 1);
      const pageSteps = await other.evaluate((since) => ({
        ...(window as unknown as { __benchOtherSide: Record<string, number> }).__benchOtherSide,
        'other side: the newcomer’s video decoded': Math.min(...[...(window as unknown as ProbedWindow).__benchJoin.firstFrames.values()].map((frame) => frame.at).filter((at) => at > since)),
      }), navigatedAt);
      const workerSteps = await workers.stepsOf(index);
      const steps: Record<string, number> = { ...pageSteps };
      for (const [worker, from, step] of WORKER_STEPS_RENAMED) if (worker === 'other' && workerSteps[from] !== undefined) steps[step] = workerSteps[from];
      otherSides.push(steps);
    }
    const newcomerWorker = await workers.stepsOf(people - 1);
    const stamps: Record<string, number> = { ...newcomerWorker };
    for (const [worker, from, step] of WORKER_STEPS_RENAMED) if (worker === 'newcomer' && newcomerWorker[from] !== undefined) stamps[step] = newcomerWorker[from];
    // Of the people in the call: each step the first time one of them took it, the relay's chain also the last.
    for (const [step, epoch] of otherSides.flatMap((steps) => Object.entries(steps))) stamps[step] = Math.min(stamps[step] ?? Infinity, epoch);
    for (const [step, last] of LAST_OF_OTHERS) {
      const times = otherSides.flatMap((steps) => (steps[step] === undefined ? [] : [steps[step]]));
      if (times.length === others.length) stamps[last] = Math.max(...times);
    }
    for (const [step, epoch] of Object.entries(stamps)) if (Number.isFinite(epoch) && STEPS.some(([known]) => known === step)) join.at[step as Step] = Math.round(epoch - navigatedAt);
    return join;
  } finally {
    await browser.close();
  }
}

/** The page's stamps and timings, turned into ms after navigation. */
async function readSteps(page: Page, remoteVideos: number): Promise<Join> {
  // Raw figures only: the processing runs here, not in the page.
  const raw = await page.evaluate(() => ({
    navigatedAt: (window as unknown as ProbedWindow).__benchJoin.navigatedAt,
    firstFrames: [...(window as unknown as ProbedWindow).__benchJoin.firstFrames.values()].map((frame) => frame.at),
    marks: (window as unknown as { __benchTimeline: Record<string, number> }).__benchTimeline,
    connectionSteps: (() => {
      const probe = (window as unknown as ProbedWindow).__benchJoin;
      const [firstTrack] = [...probe.firstFrames.entries()].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      const connection = [...probe.connections].find((each) => each.getReceivers().some((receiver) => receiver.track.id === firstTrack));
      return (connection as (RTCPeerConnection & { __benchSteps?: Record<string, number> }) | undefined)?.__benchSteps ?? {};
    })(),
    timeOrigin: performance.timeOrigin,
    scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({ path: new URL(entry.name).pathname, end: entry.responseEnd })),
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    longTasks: (window as unknown as { __benchLongTasks: { at: number; ms: number }[] }).__benchLongTasks,
  }));
  const since = (epoch: number) => Math.round(epoch - raw.navigatedAt);
  const at: Partial<Record<Step, number>> = {};
  for (const [step, epoch] of Object.entries({ ...raw.marks, ...raw.connectionSteps })) at[step as Step] = since(epoch);
  for (const [step, file] of SCRIPT_STEPS) {
    const script = raw.scripts.find((entry) => entry.path === `/${file}`);
    if (script) at[step] = since(raw.timeOrigin + script.end);
  }
  if (raw.paint !== undefined) at['first contentful paint'] = since(raw.timeOrigin + raw.paint);
  const frames = [...raw.firstFrames].sort((a, b) => a - b);
  if (frames.length) at['first remote frame decoded'] = since(frames[0]!);
  if (frames.length >= remoteVideos) at['every remote video decoded'] = since(frames[remoteVideos - 1]!);
  const frameAt = at['every remote video decoded'] ?? Infinity;
  const longTasks = raw.longTasks.map((task) => ({ at: since(task.at), ms: Math.round(task.ms) })).filter((task) => task.at < frameAt);
  return { at, longTasks };
}

/** One join's steps as they came: "ms step; ms step; …". */
function eachStepInOrder(join: Join): string {
  return Object.entries(join.at)
    .sort((a, b) => a[1] - b[1])
    .map(([step, at]) => `${at} ${step}`)
    .join('; ');
}

/** A join of `people` (two on the mesh, more on the relay), step by step: median ms after navigation over `runs` fresh browsers. */
export async function joinTimelineRows(parley: RunningParley, runs: number, people = 2, path: MediaPath = 'mesh'): Promise<Row[]> {
  const joins: Join[] = [];
  for (let run = 0; run < runs; run += 1) joins.push(await stepsOfOneJoin(parley, run, people, path));
  // Each join's own steps in the order they came: what a median of steps from different runs hides.
  if (process.env.BENCH_TIMELINE_EACH === '1') for (const [run, join] of joins.entries()) console.log(`\nJoin ${run + 1}: ${eachStepInOrder(join)}`);
  // In the order they came (a change to the join path may reorder them); steps not seen last.
  const steps = STEPS.map(([step, what]) => {
    const times = joins.flatMap((join) => (join.at[step] === undefined ? [] : [join.at[step]]));
    const at = times.length ? Math.round(median(times)) : Infinity;
    return { at, row: { metric: step, measured: times.length ? `${at} ms` : 'not seen', target: what } };
  })
    .filter(({ at, row }) => at !== Infinity || !row.metric.startsWith('join presence sent'))
    .sort((a, b) => a.at - b.at)
    .map(({ row }) => row);
  const longTasks = joins.map((join) => join.longTasks.map((task) => `${task.ms} ms at ${task.at}`).join(', ') || 'none');
  return [...steps, { metric: 'long tasks before it, each run', measured: longTasks.join('; '), target: 'duration at ms after navigation' }];
}
