import { useAtomValue } from 'jotai';
import { connectionAtom } from '../main-thread/sessionAtoms';
import { useActions } from './tabContext';
import { describeConnectionLoss } from './connectionLoss';
import { formatTime } from './formatTime';
import { Spinner } from './Spinner';

/** While the session has no connection: since when, what it is doing about it, and "Retry now" (any tab). */
export function ConnectionNotice() {
  const actions = useActions();
  const connection = useAtomValue(connectionAtom);
  const loss = describeConnectionLoss(connection, formatTime);
  if (!loss) {
    return (
      <p>
        <Spinner /> Rejoining the room…
      </p>
    );
  }
  return (
    <p>
      {!connection.offline && <Spinner />} {loss.text}{' '}
      {loss.canRetry && (
        <button type="button" className="link-button" onClick={() => void actions.retryNow()}>
          Retry now
        </button>
      )}{' '}
      {loss.canReload && (
        <button type="button" className="link-button" onClick={() => window.location.reload()}>
          Reload
        </button>
      )}
    </p>
  );
}
