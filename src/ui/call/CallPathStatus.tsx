import { useAtomValue } from 'jotai';
import type { RelayState } from '../../main-thread/call/relay/relayAtoms';
import { useCallRuntime } from './callRuntimeContext';

const WORDS: Record<RelayState, string> = {
  mesh: 'Direct connections',
  connecting: 'Connecting to the media relay…',
  relay: 'Through the media relay',
  unavailable: 'Media relay unavailable: direct connections for now',
};

/** Whether the call's media goes directly between the people (mesh) or through the relay (SPEC §4). */
export function CallPathStatus() {
  const runtime = useCallRuntime();
  const state = useAtomValue(runtime.atoms.relayState);
  return (
    <p className={`call-path is-${state}`} role="status" aria-label="Media path">
      <span className="call-path-dot" aria-hidden="true" />
      {WORDS[state]}
    </p>
  );
}
