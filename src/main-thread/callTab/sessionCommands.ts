import type { CallsCommands, PreferencesCommands, RoomsCommands } from '../../protocol/commands';

/** The shared session's commands the call tab uses (a part of the tab's actions). */
export interface CallTabCommands {
  readonly rooms: Pick<RoomsCommands, 'joinCall' | 'leaveCall'>;
  /** Not `requestOwnMedia`: that asks the call's tab, which this is. */
  readonly calls: Omit<CallsCommands, 'requestOwnMedia'>;
  readonly preferences: Pick<PreferencesCommands, 'setPreferences'>;
}
