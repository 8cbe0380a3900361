import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useCallRuntime } from './callRuntimeContext';

const HINTS = { connecting: 'Connecting…', reconnecting: 'Reconnecting…' } as const;

/**
 * While your connection with this person is not up: that it is being set up, was cut off or failed
 * and is being made again, or — failing on and on — that it cannot be made, and why that may be.
 */
export function TileConnection({ peerAddress, displayName }: { peerAddress: string; displayName: string }) {
  const runtime = useCallRuntime();
  const hintAtom = useMemo(() => runtime.atoms.peerConnection(peerAddress), [runtime, peerAddress]);
  const hint = useAtomValue(hintAtom);
  if (!hint) return null;
  if (hint === 'unreachable') {
    // The call keeps trying meanwhile; these words go once it connects.
    return <span className="chip chip-connection is-unreachable" role="status">{`Can't connect to ${displayName}. Your network or theirs may be blocking calls.`}</span>;
  }
  return <span className={`chip chip-connection is-${hint}`}>{HINTS[hint]}</span>;
}
