import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { MicrophoneIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';
import { CALL_SHORTCUTS } from './callShortcuts';
import { DeviceToggle } from './DeviceToggle';

/** "Mute microphone" / "Unmute microphone" (DESIGN "Run contract"), also on Ctrl+D; push-to-talk holds it meanwhile. */
export function MicrophoneToggle() {
  const runtime = useCallRuntime();
  const { microphone } = useAtomValue(runtime.atoms.local);
  const devices = useAtomValue(runtime.atoms.devices);
  const { pushToTalk } = useAtomValue(preferencesAtom);
  // Let go after you left the call: what the next join turns on.
  const joinWith = useAtomValue(runtime.atoms.joinWith);
  const released = useAtomValue(runtime.atoms.leftCall);
  const on = microphone ? !microphone.muted : released && joinWith.microphone;
  const starting = useAtomValue(runtime.atoms.previewStarting) || devices.requestingMicrophoneCapture;
  return (
    <DeviceToggle
      on={on}
      starting={starting}
      disabled={pushToTalk || !devices.hasMicrophone || starting}
      label={on ? 'Mute microphone' : 'Unmute microphone'}
      title={pushToTalk ? 'Push to talk is on: hold Space to talk' : undefined}
      shortcut={CALL_SHORTCUTS.microphone}
      onToggle={() => void runtime.toggleMicrophone()}
      icon={(off) => <MicrophoneIcon off={off} />}
      stateWords={['Microphone on', 'Microphone muted']}
    />
  );
}
