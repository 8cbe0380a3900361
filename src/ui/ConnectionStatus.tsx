import { useAtomValue } from 'jotai';
import { connectionAtom } from '../main-thread/sessionAtoms';
import { connectionWords } from './connectionWords';

/** The signalling connection (SPEC §4) in plain words beside the room's name. */
export function ConnectionStatus() {
  const { text, tone } = connectionWords(useAtomValue(connectionAtom));
  return (
    <p role="status" aria-label="Connection" className={`connection is-${tone}`} title={text}>
      <span className="connection-text">{text}</span>
    </p>
  );
}
