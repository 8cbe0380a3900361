import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { roomAtomFamily, roomByNameAtomFamily } from '../main-thread/sessionAtoms';
import type { Room } from '../protocol/entities';
import { useActions, useAttachSent } from './tabContext';
import { useOpenRoom } from './useOpenRoom';

export interface RoomOfView {
  room: Room | undefined;
  /** Opening the room failed outright. */
  openError: string | undefined;
  /** The room was open here and is gone (destroyed, or left). */
  ended: boolean;
}

/** Holds the named room open while the view is shown, and reads it from the session's state. */
export function useRoomOfView(roomName: string, autoJoinCall: boolean): RoomOfView {
  const { roomId, error } = useOpenRoom(useActions(), useAttachSent(), roomName, autoJoinCall);
  const byId = useAtomValue(roomAtomFamily(roomId ?? ''));
  // Until the session answers with the id, the join it started is found by the name given.
  const byName = useAtomValue(roomByNameAtomFamily(roomName));
  const room = roomId ? byId : byName;
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (room) setSeen(true);
  }, [room]);
  return { room, openError: error, ended: seen && !room };
}
