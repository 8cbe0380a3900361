import { useEffect } from 'react';
import { RECENT_ROOM_DELAY_MS } from '../protocol/clientDefaults';
import { useActions } from './tabContext';

/**
 * Puts a room you are in on the home page's recent rooms: `RECENT_ROOM_DELAY_MS` after the join, so
 * that nothing of it is on the join's way, or as the view or the page goes (Leave, a reload, the tab
 * closed), whichever is sooner.
 */
export function useRememberRoom(roomName: string, joined: boolean): void {
  const actions = useActions();
  useEffect(() => {
    if (!joined) return;
    let remembered = false;
    const remember = (): void => {
      if (remembered) return;
      remembered = true;
      // A list of rooms for the home page: not worth a word to the person when it cannot be kept.
      void actions.preferences.rememberRoom(roomName).catch(() => {});
    };
    const timer = setTimeout(remember, RECENT_ROOM_DELAY_MS);
    window.addEventListener('pagehide', remember);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('pagehide', remember);
      remember();
    };
  }, [actions, roomName, joined]);
}
