import type { Connection } from '../call/Connection';

/** How your connection with one person stands, for their tile: nothing to say while any session is connected. */
export type ConnectionHint = 'connecting' | 'interrupted' | undefined;

/**
 * The hint from the SPEC §3 Connection records of the sessions with one person (both ways, either
 * path): none while one of them is connected (media flows; another may be starting beside it on a
 * path change); `interrupted` when one was cut off (SPEC §4 ends it after 5 s); `connecting` while
 * sessions are still being set up.
 */
export function connectionHint(records: readonly Connection[]): ConnectionHint {
  if (records.some((record) => record.connectionState === 'connected')) return undefined;
  if (records.some((record) => record.connectionState === 'interrupted' || record.connectionState === 'disconnected')) return 'interrupted';
  if (records.some((record) => record.connectionState === 'starting' || record.connectionState === 'connecting')) return 'connecting';
  return undefined;
}
