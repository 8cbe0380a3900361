import type { ReactNode } from 'react';
import type { Room } from '../protocol/entities';
import { ConnectionNotice } from './ConnectionNotice';
import { RoomPasswordPrompt } from './RoomPasswordPrompt';

interface RoomStatusProps {
  room: Room | undefined;
  /** Why the room could not be opened at all. */
  openError: string | undefined;
  /** The room was there and is gone (left elsewhere, or destroyed). */
  ended: boolean;
}

/** SPEC §4 room state in plain words; nothing while joined. The locked-room prompt lives here. */
export function RoomStatus({ room, openError, ended }: RoomStatusProps) {
  const content = describe(room, openError, ended);
  if (!content) return null;
  return (
    <div role="status" aria-label="Room state" className={`banner banner-${content.tone}`}>
      {content.body}
    </div>
  );
}

type Tone = 'info' | 'warning' | 'error';

function describe(room: Room | undefined, openError: string | undefined, ended: boolean): { tone: Tone; body: ReactNode } | undefined {
  if (openError) return { tone: 'error', body: failure('Could not open the room.', openError) };
  if (!room) return ended ? { tone: 'info', body: <p>This room has ended.</p> } : { tone: 'info', body: pending('Joining the room…') };
  switch (room.roomState) {
    case 'joined':
      return undefined;
    case 'joining':
      return { tone: 'info', body: pending('Joining the room…') };
    case 'password-required':
      return { tone: 'warning', body: <RoomPasswordPrompt room={room} /> };
    case 'waiting':
      return { tone: 'info', body: <p>The room has not started yet. You will join when it starts.</p> };
    case 'banned':
      return { tone: 'error', body: <p>You are banned from this room.</p> };
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

function pending(text: string): ReactNode {
  return (
    <p>
      <span className="spinner" aria-hidden="true" /> {text}
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
