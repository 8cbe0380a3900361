import { useAtomValue } from 'jotai';
import { useCallback, useRef, useState } from 'react';
import { roomAtomFamily, roomByNameAtomFamily } from '../main-thread/sessionAtoms';
import type { Room } from '../protocol/entities';
import { roomEndOf, type RoomEnd } from './roomEnd';
import { useActions, useAttachSent } from './tabContext';
import { forgetLeftOpening, useOpenRoom } from './useOpenRoom';

export interface RoomOfView {
  room: Room | undefined;
  /** Opening the room failed outright. */
  openError: string | undefined;
  /** The room ended for us (kicked, banned, destroyed, or left from another tab): the view says so instead of the room. */
  end: RoomEnd | undefined;
  /** After "Leave" in another tab: this view joins the room again. */
  rejoin: () => void;
  /** The room's address, kept once the room was left: what was said there stays to read. */
  chatAddress: string | undefined;
}

/** Holds the named room open while the view is shown, and reads it from the session's state. */
export function useRoomOfView(roomName: string, autoJoinCall: boolean): RoomOfView {
  const [attempt, setAttempt] = useState(0);
  const { roomId, error } = useOpenRoom(useActions(), useAttachSent(), roomName, autoJoinCall, attempt);
  const byId = useAtomValue(roomAtomFamily(roomId ?? ''));
  // Until the session answers with the id, the join it started is found by the name given.
  const byName = useAtomValue(roomByNameAtomFamily(roomName));
  const room = roomId ? byId : byName;
  // The session removes a room only when it leaves it ("Leave", in whichever tab): a room this view
  // had is gone because you left it. The room last had is kept without a render of its own (it
  // changes as the room page joins; issue 14).
  const lastRoom = useRef<Room | undefined>(undefined);
  if (room) lastRoom.current = room;
  const rejoin = useCallback(() => {
    forgetLeftOpening(roomName);
    lastRoom.current = undefined;
    setAttempt((previous) => previous + 1);
  }, [roomName]);
  const left = lastRoom.current !== undefined && !room;
  const end = roomEndOf(room) ?? (left ? LEFT : undefined);
  return { room, openError: error, end, rejoin, chatAddress: room?.address ?? (left ? lastRoom.current?.address : undefined) };
}

const LEFT: RoomEnd = { kind: 'left' };
