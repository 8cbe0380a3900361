import type { Connection } from '../call/Connection';
import type { ConnectionTrouble } from './ConnectionTroubles';

/** How your connection with one person stands, for their tile: nothing to say while it is up. */
export type ConnectionHint = 'connecting' | 'reconnecting' | 'unreachable' | undefined;

/**
 * The hint from the SPEC §3 Connection records of the sessions with one person (either path) and
 * how long it has been failing (ConnectionTroubles, which ends the trouble once connected as it
 * reads it): `unreachable` once it has failed for CALL_UNREACHABLE_AFTER_MS (the call keeps trying),
 * `reconnecting` while failing before that. Otherwise the sessions that bring their media to you speak
 * for their tile whenever there are any: yours to them may be up while theirs, whose video the tile
 * waits for, is not. Of those: none while one of them is connected
 * (media flows; another may be starting beside it on a path change); `reconnecting` when one was cut
 * off (SPEC §4 ends it after 5 s) or failed and restarts ICE; `connecting` while sessions are still
 * being set up.
 */
export function connectionHint(withPerson: readonly Connection[], trouble?: ConnectionTrouble): ConnectionHint {
  if (trouble === 'unreachable') return 'unreachable';
  if (trouble === 'failing') return 'reconnecting';
  if (connectedWith(withPerson)) return undefined;
  const records = sessionsSpeakingFor(withPerson);
  if (records.some((record) => ['interrupted', 'disconnected', 'failed'].includes(record.connectionState) || record.restarting)) return 'reconnecting';
  if (records.some((record) => record.connectionState === 'starting' || record.connectionState === 'connecting')) return 'connecting';
  return undefined;
}

/**
 * Whether your connection with one person is up, for their tile and their trouble (ConnectionTroubles):
 * one of the sessions speaking for them is connected. `theirMediaOnly`: only a session bringing their
 * media counts, even while none does (theirs failed and is being made anew: yours to them, connected,
 * says nothing of whether you hear them).
 */
export function connectedWith(withPerson: readonly Connection[], theirMediaOnly = false): boolean {
  const speaking = theirMediaOnly ? withPerson.filter(bringsTheirMedia) : sessionsSpeakingFor(withPerson);
  return speaking.some((record) => record.connectionState === 'connected');
}

/** The session carries their audio or video to you. */
export function bringsTheirMedia(record: Connection): boolean {
  return record.receivingAudioMediaId !== undefined || record.receivingVideoMediaId !== undefined;
}

/** The sessions bringing their media to you whenever there are any; else (they send nothing) all of them. */
function sessionsSpeakingFor(withPerson: readonly Connection[]): readonly Connection[] {
  const bringing = withPerson.filter(bringsTheirMedia);
  return bringing.length > 0 ? bringing : withPerson;
}
