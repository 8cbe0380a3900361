// The two clients the bench compares, each entering a room's call the way a person does (the origin
// serving both is tests/support/referenceSite.ts).
import { chromium, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../playwright.config';
import { joinFromHome } from '../../tests/e2e/rooms-people';

export interface BenchClient {
  /** As the table names it. */
  name: string;
  /**
   * What the client has running in the newcomer's browser before the room's page opens, done in the
   * newcomer's browser context before that page's window opens (so that it is the window in front,
   * as a tab just opened is); the bench lets the browser settle after both.
   */
  before?(context: BrowserContext, appUrl: string): Promise<void>;
  /**
   * Opens `roomName` on the server at `appUrl` in `page`, where the client enters its call with
   * camera and microphone by itself; resolves once the navigation has started, without running
   * anything in the page: a script the harness evaluates there (Playwright's own, injected at its
   * first wait in a page) would take the page's main thread in the middle of the join it times.
   */
  arrive(page: Page, appUrl: string, roomName: string): Promise<void>;
  /** Resolves once the client shows the person their own tile in the call. */
  inCall(page: Page): Promise<void>;
  /**
   * Shows `shown`'s camera in `page` as large as the client shows a camera, so that its sender's top
   * layer is watched; absent when every camera already shows at full size (the reference).
   */
  enlarge?(page: Page, shown: Page): Promise<void>;
}

/**
 * Parley's "Join call", clicked by the page itself as soon as the preview shows it: a mutation
 * observer installed before the page's own scripts sees the button enabled, and the click comes
 * right after the next frame has been painted (a person clicks what they have seen; clicking in the
 * very task that enables it, as the harness did until 2026-12-07, came before the page's first
 * paint). No reaction time is added. The harness's round trips are no part of the join: a click
 * through Playwright's locator (finding, scrolling, a mouse's events over the DevTools protocol)
 * took about 200 ms more on this machine, and looking only once the page had fired its load event
 * up to 250 ms more.
 */
const CLICK_JOIN_CALL_WHEN_OFFERED = `(() => {
  const offered = () => {
    const button = document.querySelector('button.join-call:enabled');
    return button?.textContent === 'Join call' ? button : undefined;
  };
  const watch = { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] };
  // A frame's callbacks run before its paint; a task queued from one runs after it.
  const clickOnceShown = () => requestAnimationFrame(() => setTimeout(() => {
    const button = offered();
    if (!button) return observer.observe(document, watch);
    button.click();
    window.__benchJoinCallClicked = true;
  }, 0));
  const observer = new MutationObserver(() => {
    if (!offered()) return;
    observer.disconnect();
    clickOnceShown();
  });
  observer.observe(document, watch);
})()`;

/** Has `page` click "Join call" as soon as it is offered, from its next navigation on (CLICK_JOIN_CALL_WHEN_OFFERED). */
async function clickJoinCallWhenOffered(page: Page): Promise<void> {
  await page.addInitScript(CLICK_JOIN_CALL_WHEN_OFFERED);
}

/** Waits until the page has clicked "Join call". */
async function joinCallClicked(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __benchJoinCallClicked?: boolean }).__benchJoinCallClicked === true, undefined, { polling: 'raf', timeout: 60_000 });
}

/** Waits for a tile of the person's own camera: `selector` names its figure. */
async function ownTileShown(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((figure) => document.querySelector(`${figure} video`) !== null, selector, { timeout: 60_000 });
}

/**
 * Marks the tile of `page` that shows `shown`'s camera (`data-bench-shown`): the bench's people all
 * go by one name, but a received track keeps the id its sender's track has (a=msid).
 */
async function markTileOf(page: Page, shown: Page): Promise<void> {
  const trackId = await shown.locator('figure[aria-label$="(you)"] video').first().evaluate((video: HTMLVideoElement) => (video.srcObject as MediaStream | null)?.getVideoTracks()[0]?.id);
  const marked = await page.evaluate((id) => {
    const tile = [...document.querySelectorAll('figure video')].find((video) => ((video as HTMLVideoElement).srcObject as MediaStream | null)?.getVideoTracks().some((track) => track.id === id))?.closest('figure');
    tile?.setAttribute('data-bench-shown', '');
    return tile !== undefined;
  }, trackId);
  if (!marked) throw new Error('no tile shows that camera');
}

export const PARLEY: BenchClient = {
  name: 'Parley',
  async arrive(page, appUrl, roomName) {
    await clickJoinCallWhenOffered(page);
    // Not waiting for the load event: the page clicks by itself, whenever "Join call" comes.
    await page.goto(new URL(encodeURIComponent(roomName), appUrl).href, { waitUntil: 'commit' });
  },
  async inCall(page) {
    await joinCallClicked(page);
    await ownTileShown(page, 'figure[aria-label$="(you)"]');
  },
  async enlarge(page, shown) {
    await markTileOf(page, shown);
    const button = page.locator('figure[data-bench-shown]').getByRole('button', { name: /^Enlarge / });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  },
};

/** Parley, arriving through the home page's form instead of the room's address. */
export const PARLEY_FROM_HOME: BenchClient = {
  name: 'Parley, from the home page',
  async arrive(page, appUrl, roomName) {
    await clickJoinCallWhenOffered(page);
    // The home page's form is filled through Playwright's locators: that page is part of this way in.
    await joinFromHome(page, appUrl, roomName, 'Newcomer');
  },
  inCall: PARLEY.inCall,
};

/**
 * Parley with another of its tabs open in the newcomer's browser (its home page, connected): the
 * shared worker's session is up before the room's page opens, as for a second tab (issue 14), so
 * nothing of the worker's start or the login is on this join's way.
 */
export const PARLEY_SECOND_TAB: BenchClient = {
  name: 'Parley, with another Parley tab open',
  async before(context, appUrl) {
    const other = await context.newPage();
    await other.goto(appUrl);
    await expect(other.getByRole('status', { name: 'Connection' })).toHaveText('Connected', { timeout: 60_000 });
  },
  arrive: PARLEY.arrive,
  inCall: PARLEY.inCall,
};

/** SimpleWebRTC 1.30.3 (bench/reference): joins the room and its call on load. */
export const REFERENCE: BenchClient = {
  name: 'SimpleWebRTC 1.30.3',
  async arrive(page, appUrl, roomName) {
    await page.goto(new URL(`reference/index.html?${new URLSearchParams({ room: roomName }).toString()}`, appUrl).href, { waitUntil: 'commit' });
  },
  async inCall(page) {
    await ownTileShown(page, 'figure[aria-label="(you)"]');
  },
};

/** A browser of its own for one run, as the tests launch it (fake camera and microphone). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
}
