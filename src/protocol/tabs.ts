/** What every tab's liveness lock is named by: this, then the tab's id. */
export const TAB_LOCK_PREFIX = 'parley:tab:';

/** The Web Lock each tab holds for its lifetime; the shared worker learns a tab is gone when it is released. */
export function tabLockName(tabId: string): string {
  return `${TAB_LOCK_PREFIX}${tabId}`;
}

/** What every shared worker's own lock is named by: this, then an id the worker makes as it starts. */
export const SESSION_LOCK_PREFIX = 'parley:session:';

/**
 * The Web Lock a shared worker holds for its whole life, asked for as its first script begins
 * (src/shared-worker/entry.ts). One name per worker: a worker that follows another (every tab had
 * closed, or a new build's worker beside an old build's) never waits for the other's lock.
 */
export function sessionLockName(workerId: string): string {
  return `${SESSION_LOCK_PREFIX}${workerId}`;
}

/**
 * What the shared worker's first script posts on each tab's port once it holds its lock
 * (`sessionLockName`), the lock's name with it. The tab then asks for that lock, and is granted it
 * exactly when the worker is gone (crashed, out of memory, ended by the browser): nothing of the
 * session answers that tab any more (SessionBridge).
 */
export const SESSION_LOCK_HELD = 'parley:session-lock-held';

export interface SessionLockHeld {
  readonly type: typeof SESSION_LOCK_HELD;
  readonly lock: string;
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
