import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { useCallRuntime } from './callRuntimeContext';
import { DeviceToggle } from './DeviceToggle';

/** "Mute microphone" / "Unmute microphone" (DESIGN "Run contract"), also on Ctrl+D; push-to-talk holds it meanwhile. */
export function MicrophoneToggle({ takeFocus = false }: { takeFocus?: boolean }) {
  const runtime = useCallRuntime();
  const { on, starting, enabled } = useAtomValue(runtime.atoms.deviceToggles).microphone;
  const trouble = useAtomValue(runtime.atoms.deviceTroubles).microphone;
  const { pushToTalk } = useAtomValue(preferencesAtom);
  return (
    <DeviceToggle
      device="microphone"
      on={on}
      starting={starting}
      disabled={!enabled}
      title={pushToTalk ? 'Push to talk is on: hold Space or "Hold to talk" to talk' : undefined}
      trouble={trouble}
      onToggle={() => void runtime.toggleMicrophone()}
      takeFocus={takeFocus}
    />
  );
}
