import { useAtomValue } from 'jotai';
import { sessionUnavailableAtom, type SessionUnavailability } from '../main-thread/sessionAtoms';

/** What each way of the session being unavailable means to the person, what to do, and whether reloading this page is it. */
const SAID: Record<SessionUnavailability, { what: string; todo: string; reload: boolean }> = {
  'not-loaded': { what: 'Parley could not start: part of it did not load.', todo: 'Check your internet connection, then reload the page.', reload: true },
  'storage-blocked': {
    what: 'Your browser is set not to let this site keep data, which Parley needs.',
    todo: 'Allow site data for this site in your browser’s settings, then reload.',
    reload: true,
  },
  stopped: { what: 'Parley stopped working in this tab.', todo: 'Reload the page to carry on.', reload: true },
  'another-build': { what: 'Parley was updated.', todo: 'Reload your other Parley tabs to use this one. It starts by itself once they are reloaded or closed.', reload: false },
};

/** When the shared session does not work in this tab (it could not start, it stopped, or waits for older tabs), on every page: what happened and what to do. */
export function SessionUnavailable() {
  const unavailable = useAtomValue(sessionUnavailableAtom);
  if (!unavailable) return null;
  const { what, todo, reload } = SAID[unavailable];
  return (
    <div className="banner banner-error session-unavailable" role="alert">
      <span>
        {what} <span className="detail">{todo}</span>
      </span>
      {reload && (
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      )}
    </div>
  );
}
