import { useSyncExternalStore } from 'react';
import { storedRecord } from '../common/storedRecord';

/** How the call's tiles are arranged: SPEC §9's grid, or the person speaking large above a strip of the others. */
export type CallView = 'grid' | 'speaker';

/**
 * The room page's layout as the person left it: which side panels are open and the call's view.
 * Until the person opens one, both panels are closed at every window size: the call fills the window
 * (issue 15, "stage first"), and the Chat toggle's unread count tells of new messages.
 */
export interface RoomLayout {
  readonly people: boolean;
  readonly chat: boolean;
  readonly view: CallView;
}

/**
 * Kept in this browser's localStorage, not in the session's Preferences: it is about this screen, it
 * must be known at the first paint (synchronous, no panels jumping once the session's snapshot
 * arrives), and it keeps SPEC §3's Preferences to the spec's fields. Every tab of the origin shares it.
 */
const STORAGE_KEY = 'parley.roomLayout';
const DEFAULT_LAYOUT: RoomLayout = { people: false, chat: false, view: 'grid' };

/** A panel is open only when the person opened it: anything but `true` keeps it closed. */
const openedByPerson = (value: unknown): boolean => value === true;

/** What storage holds is not trusted: anything but the expected fields falls back to the default. */
export function parseRoomLayout(stored: string | null): RoomLayout {
  const record = storedRecord(stored);
  if (!record) return DEFAULT_LAYOUT;
  return { people: openedByPerson(record.people), chat: openedByPerson(record.chat), view: record.view === 'speaker' ? 'speaker' : 'grid' };
}

const listeners = new Set<() => void>();
let cached: { stored: string | null; layout: RoomLayout } | undefined;

function readStorage(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage can be refused (privacy settings): the layout then lasts as long as the page.
    return cached?.stored ?? null;
  }
}

function snapshot(): RoomLayout {
  const stored = readStorage();
  if (cached?.stored !== stored) cached = { stored, layout: parseRoomLayout(stored) };
  return cached.layout;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed it.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** Remembers a change of layout and tells every reader in this tab. */
export function changeRoomLayout(change: Partial<RoomLayout>): void {
  const stored = JSON.stringify({ ...snapshot(), ...change });
  try {
    window.localStorage.setItem(STORAGE_KEY, stored);
  } catch {
    cached = { stored, layout: parseRoomLayout(stored) };
  }
  for (const listener of listeners) listener();
}

export function useRoomLayout(): RoomLayout {
  return useSyncExternalStore(subscribe, snapshot);
}
