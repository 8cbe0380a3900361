/** What every tab's liveness lock is named by: this, then the tab's id. */
export const TAB_LOCK_PREFIX = 'parley:tab:';

/** The Web Lock each tab holds for its lifetime; the shared worker learns a tab is gone when it is released. */
export function tabLockName(tabId: string): string {
  return `${TAB_LOCK_PREFIX}${tabId}`;
}

/**
 * The tab's id and liveness lock as the page's HTML takes them, before its scripts have arrived
 * (scripts/vite/startEarly.ts), for the session bridge to adopt: `window[EARLY_TAB_LOCK]`.
 */
export interface EarlyTabLock {
  readonly tabId: string;
  /** Settles once the lock `tabLockName(tabId)` is held; it is held until the tab closes. */
  readonly held: Promise<void>;
}

export const EARLY_TAB_LOCK = 'parleyEarlyTabLock';

/**
 * What the shared worker's first script posts on a tab's port when the session's code could not be
 * loaded; it then closes, so that a reload starts a worker that loads it anew.
 */
export const SESSION_UNAVAILABLE = 'parley:session-unavailable';
