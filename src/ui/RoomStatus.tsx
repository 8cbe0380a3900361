import { useAtomValue } from 'jotai';
import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { connectionAtom } from '../main-thread/sessionAtoms';
import type { Room, RoomMove } from '../protocol/entities';
import { joinRefusalCondition } from '../protocol/joinRefused';
import { rejoinRetried } from '../protocol/roomEnded';
import { ConnectionNotice } from './ConnectionNotice';
import { connectionDown } from './connectionLoss';
import { focusLost } from './focusLost';
import { LockedRoomPrompt } from './LockedRoomPrompt';
import { lazyComponent } from './lazyComponent';
import { Spinner } from './Spinner';
import { useActions } from './tabContext';

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
  const state = describeState(room, disconnected);
  // Moved here by a destroy: whatever this room's state, the banner first says why you are in it (a
  // locked room's prompt says so itself).
  if (!room.movedFrom || room.roomState === 'password-required') return state;
  const moved = <p>{movedText(room.movedFrom, room.providedName)}</p>;
  if (!state) return { tone: 'info', label: 'Room moved', body: moved };
  return {
    ...state,
    body: (
      <>
        {moved}
        {state.body}
      </>
    ),
  };
}

function describeState(room: Room, disconnected: boolean): { tone: Tone; body: ReactNode } | undefined {
  switch (room.roomState) {
    case 'joined':
      return undefined;
    case 'joining':
      return disconnected ? { tone: 'warning', body: <ConnectionNotice /> } : { tone: 'info', body: pending('Joining the room…') };
    case 'password-required':
      // Before we were ever in, the prompt is the page's next step: it stands in the call's place (RoomView).
      return room.joinedAt === undefined ? undefined : { tone: 'warning', body: <LockedRoomPrompt room={room} /> };
    case 'waiting':
      return { tone: 'info', body: <p>The room has not started yet. You will join when it starts.</p> };
    case 'banned':
      // Ended (above).
      return undefined;
    case 'failed':
      return { tone: 'error', body: <JoinFailed room={room} /> };
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

/**
 * Why a first join failed, and what to do: a room that answered with a refusal is no fault of your
 * connection (a room a plain XMPP owner opened to its members only says so); one that did not answer,
 * or could not be looked up, is where the connection is worth a look.
 */
function firstJoinFailure(refusal: string | undefined): string {
  if (refusal === 'registration-required') return 'This room lets in its members only. Ask its owner to add you, then try again.';
  if (refusal !== undefined) return 'The room did not let you in. Try again, or ask its owner.';
  return 'Could not join the room. Check your connection and try again.';
}

/**
 * A failed join in plain words, and the way on: a first join is the person's to try again; a rejoin
 * the session tries again by itself (`rejoinRetried`), and the button need not wait for it. Focus
 * lost with what held it (the preview's "Join call", gone with the call) comes to the button.
 */
function JoinFailed({ room }: { room: Room }) {
  const actions = useActions();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusLost()) button.current?.focus();
  }, []);
  const retried = rejoinRetried(room);
  const words = room.roomFull
    ? retried
      ? 'The room is full, so you are out of it for now. Trying again…'
      : 'The room is full. Try again in a while.'
    : retried
      ? 'You are out of the room for now. Trying to get back in…'
      : firstJoinFailure(joinRefusalCondition(room.error));
  return (
    <p>
      {retried && (
        <>
          <Spinner />{' '}
        </>
      )}
      {words}
      {/* Log text stays a detail; the words are ours (DESIGN "Conventions"). */}
      {!room.roomFull && room.error && <span className="detail"> ({room.error})</span>}{' '}
      <button type="button" className="link-button" ref={button} onClick={() => void actions.openRoom(room.providedName)}>
        {retried ? 'Try again now' : 'Try again'}
      </button>
    </p>
  );
}
