import { useSyncExternalStore } from 'react';

/** What the address bar asks for (DESIGN "Run contract": `/`, `/<room>`, `/<room>?view=chat`). */
export type Route = { view: 'home' } | { view: 'room'; roomName: string } | { view: 'chat'; roomName: string };

export function parseRoute(location: Pick<Location, 'pathname' | 'search'>): Route {
  const path = location.pathname.replace(/^\/+|\/+$/g, '');
  if (!path) return { view: 'home' };
  let roomName: string;
  try {
    roomName = decodeURIComponent(path);
  } catch {
    roomName = path;
  }
  const view = new URLSearchParams(location.search).get('view');
  return view === 'chat' ? { view: 'chat', roomName } : { view: 'room', roomName };
}

/** The path of a room, or of its pop-out chat. */
export function roomPath(roomName: string, view: 'room' | 'chat' = 'room'): string {
  const path = `/${encodeURIComponent(roomName)}`;
  return view === 'chat' ? `${path}?view=chat` : path;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

const currentHref = (): string => window.location.href;

/** What the home page is told when a person comes back to it by "Leave". */
interface LeftRoomState {
  leftRoom: string;
}

/** Moves to a path within the app without reloading (the shared session stays as it is). */
export function navigate(path: string, state: LeftRoomState | null = null): void {
  if (path === window.location.pathname + window.location.search) return;
  window.history.pushState(state, '', path);
  notify();
}

/** The address changed within the page: the route's readers read it again. */
function notify(): void {
  for (const listener of listeners) listener();
}

/**
 * Rooms an open view followed to another address (SPEC §4: the owner destroyed theirs, naming an
 * alternate room), by the name the address bar shows now → the name the view opened. The address
 * bar names the room the person is in, so that a reload or a copied address takes them there; the
 * open view keeps the name it opened (re-keyed, it would leave the room and its call).
 */
const followedRooms = new Map<string, string>();

/** The view that opened `openedName` is in `name` now: the address bar says so, in place of the old entry. */
export function showRoomMoved(openedName: string, name: string): void {
  if (followedRooms.get(name) === openedName) return;
  followedRooms.set(name, openedName);
  window.history.replaceState(window.history.state, '', `${roomPath(name)}${window.location.search}`);
  notify();
}

/** The view that opened `openedName` is gone: its room's new name is an address like any other again. */
export function forgetRoomMoved(openedName: string): void {
  for (const [name, opened] of followedRooms) if (opened === openedName) followedRooms.delete(name);
}

/** The current route; re-renders on navigate() and on the browser's back and forward. */
export function useRoute(): Route {
  const href = useSyncExternalStore(subscribe, currentHref);
  // Derived from the href string so that the result is stable between renders of the same address.
  const route = parseRoute(new URL(href));
  if (route.view === 'home') return route;
  const opened = followedRooms.get(route.roomName);
  return opened === undefined ? route : { ...route, roomName: opened };
}
