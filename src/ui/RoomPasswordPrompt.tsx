import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { LIMITS } from '../protocol/constants';
import type { Room, RoomMove } from '../protocol/entities';
import { focusLost } from './focusLost';
import { useActions } from './tabContext';
import { LockIcon } from './Icon';

/**
 * What was typed in each room's prompt and not yet submitted, by room id, for the page's life (never
 * stored): a lost connection interrupts the room (SPEC §4), and the prompt goes until the rejoin asks
 * for the password again; it comes back with what was typed.
 */
const typedPasswords = new Map<string, string>();

/**
 * The rooms, by address, whose password was submitted from this page: a refusal there is of what was
 * typed. A room record keeps its id when a destroy moves it to another room, so the address is the key.
 */
const submittedHere = new Set<string>();

/** SPEC §4 password-required: the room is locked; asks for its password and retries the join. */
export function RoomPasswordPrompt({ room }: { room: Room }) {
  const actions = useActions();
  const [password, setPassword] = useState(() => typedPasswords.get(room.id) ?? '');
  const keepTyped = (text: string) => {
    setPassword(text);
    if (text) typedPasswords.set(room.id, text);
    else typedPasswords.delete(room.id);
  };
  const [submitting, setSubmitting] = useState(false);
  const hintId = useId();
  const field = useRef<HTMLInputElement>(null);
  // The prompt comes again after a password the room refused (it goes while the join is tried): the
  // field is focused each time, where `autoFocus` is honoured once per page, and Preact does not add it.
  useEffect(() => {
    if (focusLost()) field.current?.focus();
  }, []);
  // Moved here by a destroy (SPEC §4 destroyed room), never in, and refused before anything was typed
  // here: the session tried the password the move brought (the destroy's, or the old room's), not yours.
  const untriedMove = room.joinedAt === undefined && !submittedHere.has(room.address ?? room.id) ? room.movedFrom : undefined;
  // The session keeps the password it last tried: still asked for one means it was not accepted.
  const rejected = room.providedPassword !== undefined && !submitting && !untriedMove;
  // A rejoin refused (we had joined: joinedAt is kept until we are in again) without a password we
  // ever had: the room was locked while we were away, and only someone in it can tell us the password.
  const lockedMeanwhile = room.joinedAt !== undefined && !rejected;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return;
    // Submitted, it is the session's to try: the field is empty again, after a refusal too.
    typedPasswords.delete(room.id);
    submittedHere.add(room.address ?? room.id);
    setSubmitting(true);
    try {
      await actions.rooms.submitRoomPassword(room.id, password);
    } catch {
      // The room's state says what happened.
    } finally {
      setSubmitting(false);
      setPassword('');
    }
  }

  return (
    <form className="password-prompt" onSubmit={(event) => void submit(event)}>
      <p className="banner-title">
        <LockIcon /> This room is locked.
      </p>
      <p id={hintId} className="muted">
        {rejected
          ? 'That password did not open the room. Check it and try again.'
          : untriedMove
            ? movedIntoLockText(untriedMove, room.providedName)
            : lockedMeanwhile
              ? 'The room was locked while you were away — ask the owner for the password.'
              : 'Enter the room password to join.'}
      </p>
      <div className="inline-field">
        <label className="visually-hidden" htmlFor={`${hintId}-input`}>
          Room password
        </label>
        <input
          ref={field}
          id={`${hintId}-input`}
          type="password"
          value={password}
          onChange={(event) => keepTyped(event.target.value)}
          autoComplete="off"
          maxLength={LIMITS.roomPasswordLength}
          aria-describedby={hintId}
          aria-invalid={rejected ? true : undefined}
          placeholder="Room password"
        />
        <button type="submit" className="button primary" disabled={!password || submitting}>
          Enter room
        </button>
      </div>
    </form>
  );
}

/** Where a destroy sent everyone, and who has the locked room's password: the owner who named it. */
function movedIntoLockText(from: RoomMove, here: string): string {
  return from.byYou
    ? `You closed ${from.fromName} and moved everyone to ${here}, which is locked. Enter its password to join.`
    : `The owner closed ${from.fromName} and moved everyone to ${here}, which is locked. Ask the owner for its password.`;
}
