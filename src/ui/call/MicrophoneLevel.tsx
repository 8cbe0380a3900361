import { useAtomValue } from 'jotai';
import { useCallRuntime } from './callRuntimeContext';

/** How loud the microphone hears you in the voice band (from the analysis worker): shows that it works. */
export function MicrophoneLevel({ itemId }: { itemId: string }) {
  const runtime = useCallRuntime();
  const volume = useAtomValue(runtime.atoms.volumes)[itemId] ?? -Infinity;
  return <meter className="preview-level" min={-100} max={-20} value={Math.max(-100, volume)} aria-label="Microphone level" />;
}
