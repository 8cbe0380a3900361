import { atom, useAtomValue, useStore } from 'jotai';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { preferencesAtom, sessionStateAtom } from '../main-thread/sessionAtoms';
import { DEFAULT_PREFERENCES, LIMITS } from '../protocol/constants';
import { roomNameError } from '../protocol/rooms';
import { roomNameRefusalText } from './roomNameRefusal';
import { useActions } from './tabContext';
import { useHasNoName } from './useHasNoName';
import { usePendingRecentRooms } from './useRememberRoom';
import { ConnectionStatus } from './ConnectionStatus';
import { newRoomName } from './newRoomName';
import { RecentRooms } from './RecentRooms';
import { navigate, roomPath } from './route';
import { saveDisplayName } from './saveDisplayName';

/** The browser refused to save the preferences: they last only as long as the session. */
const preferencesNotKeptAtom = atom((get) => get(sessionStateAtom).preferencesNotKept);
/** The gateway no longer knew this browser and made it a new guest: said, since the rooms it locked will ask it for their password. */
const identityReplacedAtom = atom((get) => get(sessionStateAtom).connection.identityReplaced);

/**
 * The room the person just left by "Leave", if this history entry says so (`navigate`'s state; history
 * state is not trusted). Read here, the only page that asks, not in the code every page loads first.
 */
function leftRoomOfHistory(): string | undefined {
  const state: unknown = window.history.state;
  if (typeof state !== 'object' || state === null) return undefined;
  const leftRoom = (state as Record<string, unknown>).leftRoom;
  return typeof leftRoom === 'string' && leftRoom.length > 0 ? leftRoom : undefined;
}

/**
 * The start page: a room name and your display name, then Join; or a new room with a name nobody
 * guesses; or a room you were in. Back from "Leave", it says so and offers the room again.
 */
export function Home() {
  const actions = useActions();
  const store = useStore();
  const preferences = useAtomValue(preferencesAtom);
  const preferencesNotKept = useAtomValue(preferencesNotKeptAtom);
  const identityReplaced = useAtomValue(identityReplacedAtom);
  const [leftRoom] = useState(leftRoomOfHistory);
  const [roomName, setRoomName] = useState(leftRoom ?? '');
  // Where the focus goes when the last recent room is forgotten.
  const roomNameField = useRef<HTMLInputElement>(null);
  // Undefined until edited: the field shows the saved name, which arrives with the session's snapshot;
  // a person who has none (the default, "Anonymous") gets an empty field to type theirs into.
  const [displayName, setDisplayName] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  // Opening a room once the session has taken the name typed (`enter`).
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const hasNoName = useHasNoName();
  const pendingRooms = usePendingRecentRooms();
  const shownDisplayName = displayName ?? (hasNoName ? '' : preferences.displayName);

  useEffect(() => {
    document.title = 'Parley';
  }, []);

  // A room an earlier page could not get saved is listed here (PendingRecentRooms).
  useEffect(() => pendingRooms.handOverAll(), [pendingRooms]);

  function join(event: FormEvent) {
    event.preventDefault();
    const name = roomName.trim();
    if (!name) return setError('Enter the name of a room to join, or start a new room.');
    const refused = roomNameError(name);
    if (refused) return setError(roomNameRefusalText(refused));
    enter(name);
  }

  /**
   * Saves the display name typed, then opens the room once the session shows the name (what the
   * room's join reads), not waiting for its storage to finish: a storage that hangs would hold Join
   * for ever.
   */
  function enter(name: string) {
    setError(undefined);
    const chosenName = shownDisplayName.trim();
    if (!chosenName || chosenName === preferences.displayName) return navigate(roomPath(name));
    setBusy(true);
    // Refused, the name is a preference: joining still works with the saved one.
    const open = (): void => navigate(roomPath(name));
    saveDisplayName(store, actions.preferences, chosenName).then(open, open);
  }

  return (
    <main className="home">
      <header className="home-header">
        <h1 className="brand">Parley</h1>
        <ConnectionStatus />
      </header>
      {leftRoom && (
        <p role="status" className="banner banner-info home-left">
          You left {leftRoom}. Join it again below, or pick another room.
        </p>
      )}
      {preferencesNotKept && (
        <p role="status" className="banner banner-warning">
          This browser isn’t keeping Parley’s data (a private window or a site-data setting): your name and recent rooms will be forgotten when you close Parley.
        </p>
      )}
      {identityReplaced && (
        <p role="status" className="banner banner-warning">
          Parley no longer recognises this browser (its saved sign-in had expired or was reset): rooms you created before no longer know you as their owner.
        </p>
      )}
      <form className="card home-form" onSubmit={join} noValidate>
        <h2>Join a room</h2>
        <p className="muted">Pick a name for the room, or start a new one, and share its address with the people you want to talk to.</p>
        <label className="field">
          <span>Room name</span>
          <input
            type="text"
            value={roomName}
            ref={roomNameField}
            onChange={(event) => setRoomName(event.target.value)}
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
            placeholder={DEFAULT_PREFERENCES.displayName}
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
        <p className="home-or">or</p>
        <button type="button" className="button" disabled={busy} onClick={() => enter(newRoomName())}>
          Start a new room
        </button>
      </form>
      <RecentRooms rooms={preferences.recentRooms} focusWhenEmptied={roomNameField} />
    </main>
  );
}
