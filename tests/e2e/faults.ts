import type { Page } from '@playwright/test';
import { expectJoined } from './rooms-people';

/**
 * What the fault suite's files share (faults-chat, faults-call): how long recovery may take before a
 * case fails, the time until every tab is back, and the one line of figures each case prints. No
 * timing is asserted: the figures are printed, the outcome a person sees is checked.
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
