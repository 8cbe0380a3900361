import type { CallsCommands, PreferencesCommands, RoomsCommands } from '../../protocol/commands';

/** The shared session's commands the call tab uses (a part of the tab's actions). */
export interface CallTabCommands {
  readonly rooms: Pick<RoomsCommands, 'joinCall' | 'leaveCall'>;
  readonly calls: CallsCommands;
  readonly preferences: PreferencesCommands;
}
