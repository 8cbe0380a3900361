import { useId } from 'react';
import type { RoomEnd } from './roomEnd';

/**
 * In place of the message input once the room has ended for us (kicked, banned, destroyed, left):
 * why nothing more can be written, and what was typed and not sent, to copy (it is not lost with
 * the input).
 */
export function ChatClosed({ end, unsent }: { end: RoomEnd; unsent: string }) {
  const unsentId = useId();
  return (
    <div className="composer composer-closed">
      <p>{end.kind === 'left' ? 'You left this room. Join it again to write here.' : 'You can no longer write in this room. What was said stays here to read.'}</p>
      {unsent.trim() !== '' && (
        <>
          <label htmlFor={unsentId}>What you had typed, not sent</label>
          <textarea id={unsentId} className="composer-input" readOnly value={unsent} rows={2} />
        </>
      )}
    </div>
  );
}
