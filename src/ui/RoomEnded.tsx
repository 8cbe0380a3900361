import { useEffect, useRef } from 'react';
import { AppLink } from './AppLink';
import type { RoomEnd } from './roomEnd';

function wordsFor(end: RoomEnd): { title: string; text: string } {
  switch (end.kind) {
    case 'banned':
      return end.whileIn
        ? { title: 'You were removed from this room', text: `The room’s owner removed you and banned you from it.${reasonGiven(end.reason)} You cannot come back unless the owner lifts the ban.` }
        : { title: 'You cannot join this room', text: 'The room’s owner has banned you from it. You cannot join unless the owner lifts the ban.' };
    case 'destroyed':
      return {
        title: end.byYou ? 'You closed this room' : 'The owner closed this room',
        text: end.reason ? `Everyone had to leave. ${end.byYou ? 'You' : 'The owner'} said: “${end.reason}”` : 'Everyone had to leave, and the room is gone.',
      };
    case 'removed':
      return { title: 'You are no longer in this room', text: `The room put you out.${reasonGiven(end.reason)} You can try to join it again from the home page.` };
    case 'left':
      return { title: 'You left this room', text: 'You chose Leave in another tab, so you are out of the room in this one too.' };
  }
}

/** The reason a moderator gave for removing you, as a sentence of its own (none: nothing). */
function reasonGiven(reason: string | undefined): string {
  return reason ? ` The reason given: “${reason}”.` : '';
}

/**
 * The one screen of a room that has ended for us: what happened, in plain words, and the way home
 * (or, left from another tab, back in). No call.
 */
export function RoomEnded({ end, onRejoin }: { end: RoomEnd; onRejoin: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { title, text } = wordsFor(end);
  // Whatever had focus (a call control, the chat input) is gone or disabled: start reading here.
  useEffect(() => heading.current?.focus(), [title]);
  return (
    <section className="card room-ended" aria-labelledby="room-ended-heading">
      <h2 id="room-ended-heading" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p>{text}</p>
      <div className="room-ended-actions">
        {end.kind === 'left' && (
          <button type="button" className="button primary" onClick={onRejoin}>
            Join again
          </button>
        )}
        <AppLink className={end.kind === 'left' ? 'button' : 'button primary'} href="/">
          Go to the home page
        </AppLink>
      </div>
    </section>
  );
}
