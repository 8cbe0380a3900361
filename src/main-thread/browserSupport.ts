/** What of the browser Parley cannot run without, as far as this check reads it. */
export interface BrowserScope {
  readonly SharedWorker?: unknown;
  readonly navigator?: { readonly locks?: { readonly request?: unknown } };
}

/**
 * Parley's features the browser lacks, in words for a person: the signalling session runs in a
 * shared worker every tab joins, and tabs and the session tell each other they are alive with Web
 * Locks. A browser without them gets a page that says so, not a blank one.
 */
export function missingBrowserFeatures(scope: BrowserScope = globalThis as BrowserScope): string[] {
  return [
    ...(typeof scope.SharedWorker === 'function' ? [] : ['shared workers']),
    ...(typeof scope.navigator?.locks?.request === 'function' ? [] : ['Web Locks']),
  ];
}
