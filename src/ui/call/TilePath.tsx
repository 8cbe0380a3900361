import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useCallRuntime } from './callRuntimeContext';

const LAYER_NAMES = { off: 'paused', low: 'low', medium: 'medium', high: 'high' } as const;

/** How a received video reaches you: directly, or through the relay and at which of the sender's layers. */
export function TilePath({ itemId }: { itemId: string }) {
  const runtime = useCallRuntime();
  const pathAtom = useMemo(() => runtime.atoms.receivedPath(itemId), [runtime, itemId]);
  const path = useAtomValue(pathAtom);
  if (!path) return null;
  const size = path.frameWidth && path.frameHeight ? `${path.frameWidth}×${path.frameHeight}` : undefined;
  const text = path.path === 'relay' ? `Relay · ${path.layer ? LAYER_NAMES[path.layer] : 'waiting'}` : 'Direct';
  return (
    <span className={`chip chip-path is-${path.path}`} title={size ? `${text}, ${size}` : text}>
      {text}
    </span>
  );
}
