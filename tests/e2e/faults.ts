import type { Page } from '@playwright/test';
import { expect, expectJoined } from './rooms-people';

/**
 * What the fault suite's files share (faults-chat, faults-call, the cluster's failover): how long
 * recovery may take before a case fails, the time until every tab is back, a watch for the outage's
 * banner, and the one line of figures each case prints. No timing is asserted: the figures are
 * printed, the outcome a person sees is checked.
 */

/** Waits for the recovery can take: the reconnect policy's first attempts plus a restart, on a loaded machine. */
export const BACK_WITHIN_MS = 45_000;

/** Milliseconds from `since` until every tab is back in its room. */
export async function timeUntilBack(pages: readonly Page[], since: number): Promise<number> {
  await Promise.all(pages.map((page) => expectJoined(page, BACK_WITHIN_MS)));
  return Date.now() - since;
}

/**
 * Milliseconds until every tab is back in its room, counted from the fault and from the moment the
 * server was reachable again (`reachableAt`, read once everyone is back: the supervisor's restarted
 * XMPP server answering, `RunningParley.xmppUpSince`; or a restarted gateway listening).
 */
export async function timeUntilBackAfterReachable(pages: readonly Page[], faultAt: number, reachableAt: () => number | undefined): Promise<{ afterFault: number; afterReachable: number }> {
  const afterFault = await timeUntilBack(pages, faultAt);
  const backAt = faultAt + afterFault;
  return { afterFault, afterReachable: backAt - (reachableAt() ?? backAt) };
}

/** The case's figures, one line: `[fault] <scenario>: <figure>; <figure>…`. */
export function reportFault(scenario: string, figures: readonly string[]): void {
  console.log(`[fault] ${scenario}: ${figures.join('; ')}`);
}

/** One look of `watchOutage`: when (Date.now), the Room state banner's words, and whether the chat log still held the watched text. */
export interface OutageMoment {
  at: number;
  text: string;
  chatKept: boolean;
  /** The names the People list showed. */
  people: string[];
}

/**
 * From now on, every 50 ms in the page: the Room state banner's words whenever it is shown, whether
 * the chat log still held `keptInChat` then, and whom the People list showed. An outage the
 * supervisor ends by itself can be over within a second — before a look from the test would find
 * the banner.
 */
export async function watchOutage(page: Page, keptInChat = ''): Promise<void> {
  await page.evaluate((kept) => {
    const seen: OutageMoment[] = [];
    Reflect.set(window, '__outageSeen', seen);
    setInterval(() => {
      const banner = document.querySelector('[role="status"][aria-label="Room state"]');
      if (!banner) return;
      const log = document.querySelector('[role="log"][aria-label="Chat"]');
      const people = [...document.querySelectorAll('[aria-label="Participants"] .participant-name')].map((name) => name.textContent ?? '');
      seen.push({ at: Date.now(), text: banner.textContent ?? '', chatKept: log?.textContent?.includes(kept) ?? false, people });
    }, 50);
  }, keptInChat);
}

/** What `watchOutage` has seen in the page so far. */
export function outageSeen(page: Page): Promise<OutageMoment[]> {
  return page.evaluate(() => Reflect.get(window, '__outageSeen') as OutageMoment[]);
}

/** From the first to the last look of `watchOutage` that saw the page's Room state banner: while the page said it was out of its room. */
export async function outageSpan(page: Page): Promise<{ from: number; to: number }> {
  const seen = await outageSeen(page);
  expect(seen.length, 'the page showed the outage').toBeGreaterThan(0);
  return { from: seen[0]!.at, to: seen.at(-1)!.at };
}

/** Waits until `watchOutage` has seen the page's Room state banner, however briefly it was shown. */
export async function expectOutageNoticed(page: Page): Promise<void> {
  await expect.poll(async () => (await outageSeen(page)).length, { timeout: BACK_WITHIN_MS }).toBeGreaterThan(0);
}
