import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { useCallRuntime } from './callRuntimeContext';

/** Preference pushToTalk: the microphone stays muted except while Space is held. */
export function PushToTalkToggle() {
  const runtime = useCallRuntime();
  const { pushToTalk } = useAtomValue(preferencesAtom);
  const held = useAtomValue(runtime.atoms.talkKeyHeld);
  return (
    <label className="toggle push-to-talk">
      <input type="checkbox" checked={pushToTalk} onChange={(event) => runtime.setPushToTalk(event.target.checked)} />
      Push to talk
      {pushToTalk && <span className={`chip${held ? ' chip-speaking' : ''}`}>{held ? 'talking' : 'hold Space'}</span>}
    </label>
  );
}
