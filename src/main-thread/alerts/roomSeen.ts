import { PARLEY_BUILD } from '../../protocol/tabs';

/** The start of the names of a room's seen-tab locks: each visible tab showing the room holds one of its own. */
export function roomSeenLockPrefix(roomAddress: string, build: string = PARLEY_BUILD): string {
  return `parley-seen:${build}:${roomAddress}:`;
}

/** What showRoomSeen needs of the page (the document). */
export interface PageVisibility {
  readonly visibilityState: DocumentVisibilityState;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

/**
 * Says, while this page is visible, that the room is seen here: a Web Lock of this tab's own (a room
 * may show in several tabs: the room, its pop-out chat), held while the page is visible. The tab that
 * alerts for the room, hidden, learns so that the person sees the room elsewhere (`roomSeen`).
 * Returns what stops saying it.
 */
export function showRoomSeen(roomAddress: string, page: PageVisibility = document, locks: Pick<LockManager, 'request'> = navigator.locks): () => void {
  const name = `${roomSeenLockPrefix(roomAddress)}${crypto.randomUUID()}`;
  let letGo: (() => void) | undefined;
  const follow = (): void => {
    const visible = page.visibilityState === 'visible';
    if (visible && !letGo) {
      const hidden = new Promise<void>((resolve) => (letGo = resolve));
      locks.request(name, () => hidden).catch(() => {});
    } else if (!visible && letGo) {
      letGo();
      letGo = undefined;
    }
  };
  follow();
  page.addEventListener('visibilitychange', follow);
  return () => {
    page.removeEventListener('visibilitychange', follow);
    letGo?.();
    letGo = undefined;
  };
}

/** Whether a visible tab shows the room now (`showRoomSeen`): this one or another, the pop-out chat say. */
export async function roomSeen(roomAddress: string, locks: Pick<LockManager, 'query'> = navigator.locks): Promise<boolean> {
  const prefix = roomSeenLockPrefix(roomAddress);
  const { held = [] } = await locks.query();
  return held.some((lock) => lock.name?.startsWith(prefix) === true);
}
