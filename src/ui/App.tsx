import { Suspense } from 'react';
import { lazyComponent } from './lazyComponent';
import { PartFailure } from './PartFailure';
import { useRoute, type Route } from './route';

// Each page loads its own code: the pop-out chat tab never downloads the room page's.
const Home = lazyComponent(() => import('./Home'), 'Home');
const RoomView = lazyComponent(() => import('./RoomView'), 'RoomView');
const ChatPopout = lazyComponent(() => import('./ChatPopout'), 'ChatPopout');

/** Loads the code of the page `route` names, ahead of the first render (lazyComponent says why). */
export function preloadPage(route: Route): Promise<void> {
  return { home: Home, room: RoomView, chat: ChatPopout }[route.view].preload();
}

/** Picks the page for the address: home, a room, or a room's pop-out chat; a page that fails says so (PartFailure). */
export function App() {
  const route = useRoute();
  return (
    <PartFailure key={route.view === 'home' ? route.view : `${route.view}:${route.roomName}`} part="This page">
      <Page route={route} />
    </PartFailure>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.view) {
    case 'home':
      return (
        <Suspense fallback={null}>
          <Home />
        </Suspense>
      );
    case 'room':
      return (
        <Suspense fallback={null}>
          <RoomView key={route.roomName} roomName={route.roomName} />
        </Suspense>
      );
    case 'chat':
      return (
        <Suspense fallback={null}>
          <ChatPopout key={route.roomName} roomName={route.roomName} />
        </Suspense>
      );
  }
}
