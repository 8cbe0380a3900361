import { useAtomValue } from 'jotai';
import { Suspense, type ReactNode } from 'react';
import { connectionAtom } from '../main-thread/sessionAtoms';
import type { Room, RoomMove } from '../protocol/entities';
import { ConnectionNotice } from './ConnectionNotice';
import { connectionDown } from './connectionLoss';
import { LockedRoomPrompt } from './LockedRoomPrompt';
import { lazyComponent } from './lazyComponent';
import { Spinner } from './Spinner';

// The room-name rules (their StringPrep tables) load only for a room that could not be opened.
const RoomOpenFailure = lazyComponent(() => import('./RoomOpenFailure'), 'RoomOpenFailure');

interface RoomStatusProps {
  /** The name the page opened the room by. */
  roomName: string;
  room: Room | undefined;
  /** Why the room could not be opened at all. */
  openError: string | undefined;
  /** The room ended for us (kicked, banned, destroyed, left from another tab): its own screen says so. */
  ended: boolean;
}

/**
 * SPEC §4 room state in plain words; nothing while joined. A room locked while we were away asks
 * for its password here, above the call; one we were never in asks in the call's place (RoomView). A
 * room that ended for us (`RoomOfView.end`) has its own screen instead (RoomEnded): no banner repeats it.
 */
export function RoomStatus({ roomName, room, openError, ended }: RoomStatusProps) {
  const content = describe(roomName, room, openError, ended, connectionDown(useAtomValue(connectionAtom)));
  if (!content) return null;
  return (
    <div role="status" aria-label={content.label ?? 'Room state'} className={`banner banner-${content.tone}`}>
      {content.body}
    </div>
  );
}

type Tone = 'info' | 'warning' | 'error';

/**
 * What the banner says; `label` names it when it is news about a room we are in, not its state. A
 * join that waits for the connection (`disconnected`: down past its first attempt) says why, and
 * offers "Retry now", instead of spinning with no word.
 */
function describe(roomName: string, room: Room | undefined, openError: string | undefined, ended: boolean, disconnected: boolean): { tone: Tone; body: ReactNode; label?: string } | undefined {
  if (openError) {
    return {
      tone: 'error',
      body: (
        <Suspense fallback={<p>Could not open the room.</p>}>
          <RoomOpenFailure roomName={roomName} error={openError} />
        </Suspense>
      ),
    };
  }
  if (ended) return undefined;
  if (!room) return disconnected ? { tone: 'warning', body: <ConnectionNotice /> } : { tone: 'info', body: pending('Joining the room…') };
  switch (room.roomState) {
    case 'joined':
      return room.movedFrom ? { tone: 'info', label: 'Room moved', body: <p>{movedText(room.movedFrom, room.providedName)}</p> } : undefined;
    case 'joining': {
      const moved = room.movedFrom && movedText(room.movedFrom, room.providedName);
      if (disconnected) {
        return {
          tone: 'warning',
          body: (
            <>
              {moved && <p>{moved}</p>}
              <ConnectionNotice />
            </>
          ),
        };
      }
      return { tone: 'info', body: pending(moved ? `${moved} Joining it…` : 'Joining the room…') };
    }
    case 'password-required':
      // Before we were ever in, the prompt is the page's next step: it stands in the call's place (RoomView).
      return room.joinedAt === undefined ? undefined : { tone: 'warning', body: <LockedRoomPrompt room={room} /> };
    case 'waiting':
      return { tone: 'info', body: <p>The room has not started yet. You will join when it starts.</p> };
    case 'banned':
      // Ended (above).
      return undefined;
    case 'failed':
      return room.roomFull
        ? { tone: 'error', body: <p>The room is full. Try again later.</p> }
        : {
            tone: 'error',
            // Log text stays a detail; the words are ours (DESIGN "Conventions").
            body: failure(room.joinedAt === undefined ? 'Could not join the room.' : 'You are no longer in the room.', room.error),
          };
    case 'interrupted':
      return { tone: 'warning', body: <ConnectionNotice /> };
  }
}

/** SPEC §4 destroyed room with an alternate venue: where the person went, and why. */
function movedText(from: RoomMove, here: string): string {
  const reason = from.reason ? ` (“${from.reason}”)` : '';
  return from.byYou ? `You closed ${from.fromName}${reason}, so everyone moved to ${here}.` : `The owner closed ${from.fromName}${reason}, so you moved to ${here}.`;
}

function pending(text: string): ReactNode {
  return (
    <p>
      <Spinner /> {text}
    </p>
  );
}

function failure(message: string, detail: string | undefined): ReactNode {
  return (
    <p>
      {message}
      {detail && <span className="detail"> ({detail})</span>}
    </p>
  );
}
