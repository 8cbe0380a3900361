import { useAtomValue } from 'jotai';
import { connectionAtom } from '../main-thread/sessionAtoms';

/** The signalling connection's state in words (SPEC §4). */
export function ConnectionStatus() {
  const connection = useAtomValue(connectionAtom);
  return (
    <p role="status" aria-label="Connection" className={`connection connection-${connection.state}`} title="Connection to the signalling service">
      {connection.state}
    </p>
  );
}
