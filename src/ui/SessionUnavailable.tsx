import { useAtomValue } from 'jotai';
import { sessionUnavailableAtom, type SessionUnavailability } from '../main-thread/sessionAtoms';

/** What each way of the session being unavailable means to the person, and what to do. */
const SAID: Record<SessionUnavailability, { what: string; todo: string }> = {
  'not-loaded': { what: 'Parley could not start: part of it did not load.', todo: 'Check your internet connection, then reload the page.' },
  stopped: { what: 'Parley stopped working in this tab.', todo: 'Reload the page to carry on.' },
};

/** When the shared session does not work in this tab (it could not start, or it stopped), on every page: what happened and what to do. */
export function SessionUnavailable() {
  const unavailable = useAtomValue(sessionUnavailableAtom);
  if (!unavailable) return null;
  const { what, todo } = SAID[unavailable];
  return (
    <div className="banner banner-error session-unavailable" role="alert">
      <span>
        {what} <span className="detail">{todo}</span>
      </span>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
