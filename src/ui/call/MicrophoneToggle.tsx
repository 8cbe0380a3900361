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
  // A microphone on its way is neither shown muted nor toggled: a click then would start it, not mute it.
  const starting = useAtomValue(runtime.atoms.previewStarting) || devices.requestingMicrophoneCapture;
  const label = on ? 'Mute microphone' : 'Unmute microphone';
  return (
    <button
      type="button"
      className={`control${on || starting ? '' : ' is-off'}`}
      aria-label={label}
      title={pushToTalk ? 'Push to talk is on: hold Space to talk' : label}
      disabled={pushToTalk || !devices.hasMicrophone || starting}
      onClick={() => void runtime.toggleMicrophone()}
    >
      <MicrophoneIcon off={!on && !starting} />
    </button>
  );
}
