import type { Room, RoomMove } from '../../protocol/entities';

export interface NewRoomOptions {
  password?: string | undefined;
  autoJoinCall?: boolean | undefined;
  /** Known already (an alternate venue from a destroyed room); otherwise the room config request finds it. */
  address?: string | undefined;
  /** The destroyed room this record followed here. */
  movedFrom?: RoomMove | undefined;
}

/** Out of the room (left it, removed, refused, disconnected): what only our self-presence tells no longer holds. */
export const OUT_OF_ROOM = { joined: false, selfAddress: undefined, rid: undefined } as const satisfies Partial<Room>;

/** SPEC §3 room record in SPEC §4 state 'joining', every field set. */
export function newRoomRecord(id: string, providedName: string, options: NewRoomOptions = {}): Room {
  return {
    id,
    address: options.address,
    providedName,
    providedPassword: options.password,
    password: undefined,
    passwordRequired: false,
    banned: false,
    roomFull: false,
    roomNotStarted: false,
    roomState: 'joining',
    joined: false,
    joinedAt: undefined,
    peopleBeforeOutage: undefined,
    selfAddress: undefined,
    selfAffiliation: undefined,
    selfRole: undefined,
    rid: undefined,
    // SPEC §4: joining auto-joins the call unless autoJoinCall is false.
    autoJoinCall: options.autoJoinCall !== false,
    unreadCount: 0,
    error: undefined,
    removal: undefined,
    movedFrom: options.movedFrom,
    bans: undefined,
  };
}
