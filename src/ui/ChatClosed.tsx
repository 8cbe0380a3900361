import { useId } from 'react';
import type { RoomEnd } from './roomEnd';

/** One piece of unsent text, read-only, to copy. */
function UnsentText({ label, text }: { label: string; text: string }) {
  const id = useId();
  if (text.trim() === '') return null;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="composer-input" readOnly value={text} rows={2} />
    </>
  );
}

/**
 * In place of the message input once the room has ended for us (kicked, banned, destroyed, left):
 * why nothing more can be written, and what was typed and not sent, to copy (it is not lost with
 * the input): the message being written, and a correction being written with the message it had
 * put aside.
 */
export function ChatClosed({ end, unsent, correction }: { end: RoomEnd; unsent: string; correction: string }) {
  return (
    <div className="composer composer-closed">
      <p>{end.kind === 'left' ? 'You left this room. Join it again to write here.' : 'You can no longer write in this room. What was said stays here to read.'}</p>
      <UnsentText label="Your correction, not sent" text={correction} />
      <UnsentText label="What you had typed, not sent" text={unsent} />
    </div>
  );
}
