/** What every tab's liveness lock is named by: this, then the tab's id. */
export const TAB_LOCK_PREFIX = 'parley:tab:';

/** The Web Lock each tab holds for its lifetime; the shared worker learns a tab is gone when it is released. */
export function tabLockName(tabId: string): string {
  return `${TAB_LOCK_PREFIX}${tabId}`;
}

/** Replaced by the build's id in a build (scripts/vite/startEarly.ts defines it); nothing defines it on the dev server or in the tests. */
declare const __PARLEY_BUILD__: string | undefined;

/**
 * Which build of Parley this code is of, new at every build: the same in a page and in the worker
 * it starts. Each build's page starts a worker of its own build (its script's address is the
 * build's), so the tabs of two builds never share a session: the locks the tabs of one session
 * share are named with it.
 */
export const PARLEY_BUILD: string = typeof __PARLEY_BUILD__ === 'string' ? __PARLEY_BUILD__ : 'unbuilt';

/** What every shared worker's own lock is named by: this, then its build, then an id the worker makes as it starts. */
export const SESSION_LOCK_PREFIX = 'parley:session:';

/** What the shared workers of one build name their own locks by. */
export function buildSessionLockPrefix(build: string): string {
  return `${SESSION_LOCK_PREFIX}${build}:`;
}

/**
 * The Web Lock a shared worker holds for its whole life, asked for as its first script begins
 * (src/shared-worker/entry.ts). One name per worker: a worker that follows another (every tab had
 * closed) never waits for the other's lock. The build in the name tells a page whether another
 * build's session still runs in this browser (`sessionOfAnotherBuild`).
 */
export function sessionLockName(workerId: string, build: string = PARLEY_BUILD): string {
  return `${buildSessionLockPrefix(build)}${workerId}`;
}

/**
 * Whether a held lock is the shared worker of another build than this code's: a session that a page
 * of this build must not start its own beside (you would be in each room twice), but wait for until
 * that build's tabs are reloaded or closed (SessionBridge). So is the worker of a build from before
 * builds were named (`parley:session:<id>`).
 */
export function sessionOfAnotherBuild(lockName: string): boolean {
  return lockName.startsWith(SESSION_LOCK_PREFIX) && !lockName.startsWith(buildSessionLockPrefix(PARLEY_BUILD));
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
