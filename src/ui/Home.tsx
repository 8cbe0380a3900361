import { useAtomValue } from 'jotai';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { preferencesAtom } from '../main-thread/sessionAtoms';
import { LIMITS } from '../protocol/constants';
import { roomNameToLocalpart } from '../protocol/rooms';
import { useActions } from './tabContext';
import { ConnectionStatus } from './ConnectionStatus';
import { navigate, roomPath } from './route';

/** A room name needs one: "!!!" names nothing a person could tell apart from "???". */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The start page: a room name and your display name, then Join. */
export function Home() {
  const actions = useActions();
  const preferences = useAtomValue(preferencesAtom);
  const [roomName, setRoomName] = useState('');
  // Undefined until edited: the field shows the saved name, which arrives with the session's snapshot.
  const [displayName, setDisplayName] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const shownDisplayName = displayName ?? preferences.displayName;

  useEffect(() => {
    document.title = 'Parley';
  }, []);

  async function join(event: FormEvent) {
    event.preventDefault();
    const name = roomName.trim();
    if (!name) return setError('Enter the name of a room to join.');
    if (!LETTER_OR_DIGIT.test(name)) return setError('That room name has no letters or digits that can name a room.');
    try {
      roomNameToLocalpart(name);
    } catch {
      return setError('That room name has no letters or digits that can name a room.');
    }
    setError(undefined);
    const chosenName = shownDisplayName.trim();
    setBusy(true);
    try {
      if (chosenName && chosenName !== preferences.displayName) await actions.preferences.setPreferences({ displayName: chosenName });
    } catch {
      // The name is a preference: joining still works with the saved one.
    } finally {
      setBusy(false);
    }
    navigate(roomPath(name));
  }

  return (
    <main className="home">
      <header className="home-header">
        <h1 className="brand">Parley</h1>
        <ConnectionStatus />
      </header>
      <form className="card home-form" onSubmit={(event) => void join(event)} noValidate>
        <h2>Join a room</h2>
        <p className="muted">Pick a name for the room and share its address with the people you want to talk to.</p>
        <label className="field">
          <span>Room name</span>
          <input
            type="text"
            value={roomName}
            onChange={(event) => setRoomName(event.target.value)}
            maxLength={LIMITS.roomNameLength}
            autoComplete="off"
            autoFocus
            placeholder="e.g. team-sync"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </label>
        <label className="field">
          <span>Display name</span>
          <input
            type="text"
            value={shownDisplayName}
            onChange={(event) => setDisplayName(event.target.value)}
            maxLength={LIMITS.displayNameLength}
            autoComplete="nickname"
          />
        </label>
        {error && (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button primary" disabled={busy}>
          Join
        </button>
      </form>
    </main>
  );
}
