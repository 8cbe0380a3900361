import { useEffect, useMemo } from 'react';
import { RECENT_ROOM_DELAY_MS } from '../protocol/clientDefaults';
import { PendingRecentRooms } from './PendingRecentRooms';
import { useActions } from './tabContext';

/** The rooms this page has asked the session to save and not heard back of (PendingRecentRooms). */
const askedByThisPage = new Set<string>();

/** This tab's rooms on their way to the recent rooms (PendingRecentRooms), saved through the session. */
export function usePendingRecentRooms(): PendingRecentRooms {
  const actions = useActions();
  return useMemo(() => new PendingRecentRooms(() => window.localStorage, (roomName) => actions.preferences.rememberRoom(roomName), askedByThisPage), [actions]);
}

/**
 * Puts a room you are in on the home page's recent rooms: `RECENT_ROOM_DELAY_MS` after the join, so
 * that nothing of it is on the join's way, with the rooms an earlier page left kept, or as the view
 * or the page goes (Leave, a reload, the tab closed), whichever is sooner.
 */
export function useRememberRoom(roomName: string, joined: boolean): void {
  const pending = usePendingRecentRooms();
  useEffect(() => {
    if (!joined) return;
    let remembered = false;
    const remember = (): void => {
      if (remembered) return;
      remembered = true;
      pending.remember(roomName);
    };
    const timer = setTimeout(() => {
      pending.handOverAll();
      remember();
    }, RECENT_ROOM_DELAY_MS);
    window.addEventListener('pagehide', remember);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('pagehide', remember);
      remember();
    };
  }, [pending, roomName, joined]);
}
