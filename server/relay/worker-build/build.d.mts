// Types for build.mjs, so the TypeScript server can import it.

export declare const MEDIASOUP_VERSION: string;

/**
 * Returns the absolute path of the cached mediasoup-worker binary, building it
 * first if needed. Progress lines go to `log` (default: stderr).
 */
export declare function ensureRelayWorker(options?: { log?: (line: string) => void }): Promise<string>;
