import type { Remote } from 'comlink';
import type { CallsCommands, PreferencesCommands, RoomsCommands } from '../../protocol/commands';
import type { SessionBridge } from '../SessionBridge';

/** The shared session's commands the call tab uses. */
export interface CallTabCommands {
  readonly rooms: Pick<RoomsCommands, 'joinCall' | 'leaveCall'>;
  readonly calls: CallsCommands;
  readonly preferences: PreferencesCommands;
}

/**
 * The command groups of the tab's bridge. Comlink types a nested group as a value to be copied,
 * but at run time a property path calls the method where it lives, in the shared worker.
 */
export function callTabCommands(bridge: Pick<SessionBridge, 'session'>): CallTabCommands {
  const nested = bridge.session as unknown as { rooms: Remote<RoomsCommands>; calls: Remote<CallsCommands>; preferences: Remote<PreferencesCommands> };
  return { rooms: nested.rooms, calls: nested.calls, preferences: nested.preferences };
}
