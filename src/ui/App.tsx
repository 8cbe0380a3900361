import { lazy, Suspense } from 'react';
import { useRoute } from './route';

// Each page loads its own code: the pop-out chat tab never downloads the room page's.
const Home = lazy(() => import('./Home').then((module) => ({ default: module.Home })));
const RoomView = lazy(() => import('./RoomView').then((module) => ({ default: module.RoomView })));
const ChatPopout = lazy(() => import('./ChatPopout').then((module) => ({ default: module.ChatPopout })));

/** Picks the page for the address: home, a room, or a room's pop-out chat. */
export function App() {
  const route = useRoute();
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
