import { useId, useState, type FormEvent } from 'react';
import { LIMITS } from '../protocol/constants';
import type { Room } from '../protocol/entities';
import { useActions } from './tabContext';
import { LockIcon } from './Icon';

/** SPEC §4 password-required: the room is locked; asks for its password and retries the join. */
export function RoomPasswordPrompt({ room }: { room: Room }) {
  const actions = useActions();
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const hintId = useId();
  // The session keeps the password it last tried: still asked for one means it was not accepted.
  const rejected = room.providedPassword !== undefined && !submitting;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return;
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
        {rejected ? 'That password did not open the room. Check it and try again.' : 'Enter the room password to join.'}
      </p>
      <div className="inline-field">
        <label className="visually-hidden" htmlFor={`${hintId}-input`}>
          Room password
        </label>
        <input
          id={`${hintId}-input`}
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="off"
          autoFocus
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
