import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useCallRuntime } from './callRuntimeContext';

/**
 * While a person's camera, on by their word and over a connection that is up, sends no frames that
 * reach you (a stall on the way: ReceivedPath `framesStalled`): says so, and the tile dims its last
 * frame, so that it is not taken for a person sitting still. It goes once frames move again.
 */
export function TileStall({ itemId }: { itemId: string }) {
  const runtime = useCallRuntime();
  const pathAtom = useMemo(() => runtime.atoms.receivedPath(itemId), [runtime, itemId]);
  if (useAtomValue(pathAtom)?.framesStalled !== true) return null;
  return <span className="chip chip-stalled">Video paused: poor connection</span>;
}
