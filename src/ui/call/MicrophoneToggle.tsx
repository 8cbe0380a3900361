import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { MicrophoneIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';
import { CALL_SHORTCUTS } from './callShortcuts';
import { DeviceToggle } from './DeviceToggle';

/** "Mute microphone" / "Unmute microphone" (DESIGN "Run contract"), also on Ctrl+D; push-to-talk holds it meanwhile. */
export function MicrophoneToggle() {
  const runtime = useCallRuntime();
  const { on, starting, enabled } = useAtomValue(runtime.atoms.deviceToggles).microphone;
  const { pushToTalk } = useAtomValue(preferencesAtom);
  return (
    <DeviceToggle
      on={on}
      starting={starting}
      disabled={!enabled}
      label={on ? 'Mute microphone' : 'Unmute microphone'}
      title={pushToTalk ? 'Push to talk is on: hold Space to talk' : undefined}
      shortcut={CALL_SHORTCUTS.microphone}
      onToggle={() => void runtime.toggleMicrophone()}
      icon={(off) => <MicrophoneIcon off={off} />}
      stateWords={['Microphone on', 'Microphone muted']}
    />
  );
}
