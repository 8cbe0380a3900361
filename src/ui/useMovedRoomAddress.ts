import { useEffect } from 'react';
import type { Room } from '../protocol/entities';
import { forgetRoomMoved, showRoomMoved } from './route';

/**
 * SPEC §4 destroyed room with an alternate: once the room a view opened as `openedName` has moved,
 * the address bar names the room it is in now (route.ts `showRoomMoved`), for as long as the view is shown.
 */
export function useMovedRoomAddress(openedName: string, room: Room | undefined): void {
  const name = room?.movedFrom ? room.providedName : undefined;
  useEffect(() => {
    if (name !== undefined && name !== openedName) showRoomMoved(openedName, name);
  }, [openedName, name]);
  useEffect(() => () => forgetRoomMoved(openedName), [openedName]);
}
