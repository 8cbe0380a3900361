import { useAtomValue } from 'jotai';
import { sessionUnavailableAtom } from '../main-thread/sessionAtoms';

/** When the shared session could not start (its code did not load), on every page: what happened and what to do. */
export function SessionUnavailable() {
  const unavailable = useAtomValue(sessionUnavailableAtom);
  if (!unavailable) return null;
  return (
    <div className="banner banner-error session-unavailable" role="alert">
      <span>
        Parley could not start: part of it did not load. <span className="detail">Check your internet connection, then reload the page.</span>
      </span>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
