import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { MicrophoneIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/** "Mute microphone" / "Unmute microphone" (DESIGN "Run contract"); push-to-talk holds it meanwhile. */
export function MicrophoneToggle() {
  const runtime = useCallRuntime();
  const { microphone } = useAtomValue(runtime.atoms.local);
  const devices = useAtomValue(runtime.atoms.devices);
  const { pushToTalk } = useAtomValue(preferencesAtom);
  const on = microphone !== undefined && !microphone.muted;
  const label = on ? 'Mute microphone' : 'Unmute microphone';
  return (
    <button
      type="button"
      className={`control${on ? '' : ' is-off'}`}
      aria-label={label}
      title={pushToTalk ? 'Push to talk is on: hold Space to talk' : label}
      disabled={pushToTalk || !devices.hasMicrophone || devices.requestingMicrophoneCapture}
      onClick={() => void runtime.toggleMicrophone()}
    >
      <MicrophoneIcon off={!on} />
    </button>
  );
}
