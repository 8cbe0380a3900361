import type { Connection } from '../call/Connection';
import type { ConnectionTrouble } from './ConnectionTroubles';

/** How your connection with one person stands, for their tile: nothing to say while any session is connected. */
export type ConnectionHint = 'connecting' | 'reconnecting' | 'unreachable' | undefined;

/**
 * The hint from the SPEC §3 Connection records of the sessions with one person (both ways, either
 * path) and how long it has been failing (ConnectionTroubles): none while one of them is connected
 * (media flows; another may be starting beside it on a path change); `unreachable` once it has
 * failed for CALL_UNREACHABLE_AFTER_MS (the call keeps trying); `reconnecting` when one was cut
 * off (SPEC §4 ends it after 5 s), failed and restarts ICE, or the sessions start anew after a
 * failure; `connecting` while sessions are still being set up.
 */
export function connectionHint(records: readonly Connection[], trouble?: ConnectionTrouble): ConnectionHint {
  if (records.some((record) => record.connectionState === 'connected')) return undefined;
  if (trouble === 'unreachable') return 'unreachable';
  if (trouble === 'failing') return 'reconnecting';
  if (records.some((record) => ['interrupted', 'disconnected', 'failed'].includes(record.connectionState) || record.restarting)) return 'reconnecting';
  if (records.some((record) => record.connectionState === 'starting' || record.connectionState === 'connecting')) return 'connecting';
  return undefined;
}
