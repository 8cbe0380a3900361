import { Suspense } from 'react';
import type { Room } from '../protocol/entities';
import { lazyComponent } from './lazyComponent';

// Only a locked room asks for its password: the prompt loads when it is needed, not with every page.
const RoomPasswordPrompt = lazyComponent(() => import('./RoomPasswordPrompt'), 'RoomPasswordPrompt');

/** SPEC §4 password-required: the room's password prompt, loaded on first use. */
export function LockedRoomPrompt({ room }: { room: Room }) {
  return (
    <Suspense fallback={<p>This room is locked.</p>}>
      <RoomPasswordPrompt room={room} />
    </Suspense>
  );
}
