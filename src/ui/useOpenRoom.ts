import { useEffect, useState } from 'react';
import type { TabActions } from '../main-thread/SessionBridge';
import { errorMessage } from '../common/errorMessage';

export interface OpenedRoom {
  /** The room's local id once the session has it. */
  roomId: string | undefined;
  /** Why opening failed (e.g. 'Room name not provided.'). */
  error: string | undefined;
}

interface Opening {
  users: number;
  roomId: Promise<string>;
  closeTimer: ReturnType<typeof setTimeout> | undefined;
  /** "Leave" was chosen: once the view lets the room go, the session leaves it for every tab, not only this one. */
  leaving: boolean;
}

/**
 * The rooms this tab holds open, by name. Closing is deferred by a task, so a view that unmounts
 * and mounts again at once (React's StrictMode, a re-keyed tree) keeps the one join instead of
 * leaving and rejoining the room.
 */
const openings = new Map<string, Opening>();

/** A new opening of the room for this tab, held by nobody yet. */
function open(actions: TabActions, attachSent: Promise<void>, name: string, autoJoinCall: boolean): Opening {
  const opening: Opening = {
    users: 0,
    // Only an attached tab holds rooms (the session leaves them when its lock is released): the
    // opening follows the attach on the same port.
    roomId: attachSent.then(() => actions.openRoom(name, { autoJoinCall })),
    closeTimer: undefined,
    leaving: false,
  };
  openings.set(name, opening);
  // A failed open holds nothing: forget it so the next visit tries again.
  opening.roomId.catch(() => openings.delete(name));
  return opening;
}

function acquire(actions: TabActions, attachSent: Promise<void>, name: string, autoJoinCall: boolean): Promise<string> {
  let opening = openings.get(name);
  if (opening) {
    clearTimeout(opening.closeTimer);
    opening.closeTimer = undefined;
  } else {
    opening = open(actions, attachSent, name, autoJoinCall);
  }
  opening.users += 1;
  return opening.roomId;
}

/**
 * A room's page opens its room as the page loads, before the page's view has loaded and rendered
 * (issue 14, the join path: the room's lookup and join need not wait for that). The view, when it
 * comes, takes this opening over (`useOpenRoom`); until then nobody holds it, and nothing closes it.
 */
export function openRoomAtLoad(actions: TabActions, attachSent: Promise<void>, name: string, autoJoinCall: boolean): void {
  if (!openings.has(name)) open(actions, attachSent, name, autoJoinCall);
}

function release(actions: TabActions, name: string): void {
  const opening = openings.get(name);
  if (!opening) return;
  opening.users -= 1;
  if (opening.users > 0) return;
  opening.closeTimer = setTimeout(() => {
    openings.delete(name);
    opening.roomId.then((roomId) => (opening.leaving ? actions.leaveRoom(roomId) : actions.closeRoom(roomId))).catch(() => {});
  }, 0);
}

/**
 * "Leave": when its view lets the room go, the session leaves it for every tab of yours (a pop-out
 * chat or a second tab of the room says you left), where a view that merely goes away (a tab
 * closed, Back) keeps the room for the tabs still showing it. Marked, not sent at once, so that the
 * call's own farewell (leaving the call, ending its sessions) goes first as the view unmounts.
 */
export function leaveOpenedRoom(name: string): void {
  const opening = openings.get(name);
  if (opening) opening.leaving = true;
}

/**
 * The room was left from another tab: this tab's opening of it names a room the session no longer
 * has. Forgotten, so that the view's next opening joins afresh ("Join again").
 */
export function forgetLeftOpening(name: string): void {
  const opening = openings.get(name);
  if (!opening) return;
  clearTimeout(opening.closeTimer);
  openings.delete(name);
}

/**
 * Opens a room for this tab while the calling view is shown, and closes it (for this tab) when the
 * view goes away; the session leaves the room when no tab holds it any more. A new `attempt` opens it
 * again (after `forgetLeftOpening`).
 */
export function useOpenRoom(actions: TabActions, attachSent: Promise<void>, name: string, autoJoinCall: boolean, attempt: number): OpenedRoom {
  const [opened, setOpened] = useState<OpenedRoom & { name: string; attempt: number }>({ name, attempt, roomId: undefined, error: undefined });
  useEffect(() => {
    let current = true;
    acquire(actions, attachSent, name, autoJoinCall).then(
      (roomId) => current && setOpened({ name, attempt, roomId, error: undefined }),
      (error: unknown) => current && setOpened({ name, attempt, roomId: undefined, error: errorMessage(error) }),
    );
    return () => {
      current = false;
      release(actions, name);
    };
  }, [actions, attachSent, name, autoJoinCall, attempt]);
  return opened.name === name && opened.attempt === attempt ? opened : { roomId: undefined, error: undefined };
}
