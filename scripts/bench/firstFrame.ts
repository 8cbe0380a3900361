import { expect, type Browser, type Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { iceConnected, relayRoomStats } from '../../tests/e2e/relay-people';
import { roomJid } from '../../tests/e2e/rooms-people';
import { median, RUNS } from './table';

/** How remote video reaches a person: peer to peer, or forwarded by the media relay. */
export type MediaPath = 'mesh' | 'relay';

/** What FIRST_FRAME_PROBE keeps in `window.__bench`. */
interface FirstFrameProbe {
  firstRemoteFrameAt?: number;
  firstRemoteFramePath?: MediaPath;
  longTasks: number;
  /** Remote tiles whose video has presented a frame. */
  remoteVideosShowing(): number;
}

type ProbedWindow = Window & { __bench: FirstFrameProbe };

/**
 * Records, in the page, when the first remote video frame is presented, the path its track came
 * over, and every long task. A track is the relay's when its peer connection's far end is ice-lite
 * (PROTOCOL.md: a relay consumer's offer); mesh peers run full ICE.
 */
const FIRST_FRAME_PROBE = `
  const remoteVideosShowing = () =>
    [...document.querySelectorAll('figure[aria-label]')]
      .filter((figure) => !figure.getAttribute('aria-label').endsWith('(you)'))
      .map((figure) => figure.querySelector('video'))
      .filter((video) => video && video.getVideoPlaybackQuality().totalVideoFrames > 0);
  window.__bench = { firstRemoteFrameAt: undefined, firstRemoteFramePath: undefined, longTasks: 0, remoteVideosShowing: () => remoteVideosShowing().length };
  new PerformanceObserver((list) => { window.__bench.longTasks += list.getEntries().length; }).observe({ type: 'longtask', buffered: true });
  const relayTracks = new Set();
  const setRemoteDescription = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description, ...rest) {
    if (/^a=ice-lite/m.test(description?.sdp ?? '')) this.addEventListener('track', (event) => relayTracks.add(event.track.id));
    return setRemoteDescription.call(this, description, ...rest);
  };
  const look = () => {
    const [video] = remoteVideosShowing();
    if (!video) return requestAnimationFrame(look);
    window.__bench.firstRemoteFrameAt = performance.now();
    window.__bench.firstRemoteFramePath = relayTracks.has(video.srcObject?.getVideoTracks()[0]?.id) ? 'relay' : 'mesh';
  };
  requestAnimationFrame(look);
`;

/** Opens the room in a new person's browser and joins the call as soon as the button is there. */
async function joinCall(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(FIRST_FRAME_PROBE);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Join call' }).click();
  return page;
}

/** By the relay's own stats: each of `people` in the room has its stream consumed, ICE up, by every other (audio and video). */
function relayCarriesRoom(parley: RunningParley, roomName: string, people: number): boolean {
  const connected = relayRoomStats(parley, roomJid(roomName, parley.settings.mucDomain)).consumers.filter(iceConnected);
  return connected.length === 2 * people * (people - 1);
}

/**
 * Page load → first decoded remote frame for the last of `people` to arrive, in the app's own UI;
 * median over RUNS. The others are in the call first and see each other — over the relay, by its
 * own stats, when `path` is the relay — so the newcomer joins a call that is up. Every run's first
 * frame must have come over `path`: a mismatch throws rather than mislabel the number.
 */
export async function firstRemoteFrame(browser: Browser, parley: RunningParley, people: number, path: MediaPath): Promise<{ ms: number; longTasks: number }> {
  const times: number[] = [];
  let longTasks = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const roomName = `bench-${people}-${path}-${run}-${Date.now().toString(36)}`;
    const url = new URL(roomName, parley.url).href;
    const earlier: Page[] = [];
    for (let i = 1; i < people; i += 1) {
      const page = await joinCall(browser, url);
      await page.waitForFunction(() => document.querySelectorAll('figure[aria-label] video').length > 0, undefined, { timeout: 20_000 });
      earlier.push(page);
    }
    for (const page of earlier) {
      await page.waitForFunction((others) => (window as unknown as ProbedWindow).__bench.remoteVideosShowing() >= others, people - 2, { timeout: 60_000 });
    }
    if (path === 'relay') await expect.poll(() => relayCarriesRoom(parley, roomName, people - 1), { timeout: 60_000 }).toBe(true);
    const last = await joinCall(browser, url);
    await last.waitForFunction(() => (window as unknown as ProbedWindow).__bench.firstRemoteFrameAt !== undefined, undefined, { timeout: 30_000 });
    const probe = await last.evaluate(() => {
      const { firstRemoteFrameAt, firstRemoteFramePath, longTasks } = (window as unknown as ProbedWindow).__bench;
      return { firstRemoteFrameAt: firstRemoteFrameAt!, firstRemoteFramePath, longTasks };
    });
    for (const page of [...earlier, last]) await page.context().close();
    if (probe.firstRemoteFramePath !== path) throw new Error(`${people} people: the first remote frame came over the ${probe.firstRemoteFramePath ?? 'unknown path'}, not the ${path}`);
    times.push(probe.firstRemoteFrameAt);
    longTasks += probe.longTasks;
  }
  return { ms: median(times), longTasks };
}
