import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useCallRuntime } from './callRuntimeContext';

const HINTS = { connecting: 'Connecting…', interrupted: 'Reconnecting…' } as const;

/** While your connection with this person is not up: that it is being set up, or was cut off and may come back. */
export function TileConnection({ peerAddress }: { peerAddress: string }) {
  const runtime = useCallRuntime();
  const hintAtom = useMemo(() => runtime.atoms.peerConnection(peerAddress), [runtime, peerAddress]);
  const hint = useAtomValue(hintAtom);
  if (!hint) return null;
  return <span className={`chip chip-connection is-${hint}`}>{HINTS[hint]}</span>;
}
