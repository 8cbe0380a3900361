import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { MicrophoneIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/** Preference pushToTalk, as a checkbox: the microphone stays muted except while you hold Space or "Hold to talk". */
export function PushToTalkSetting() {
  const runtime = useCallRuntime();
  const { pushToTalk } = useAtomValue(preferencesAtom);
  return (
    <label className="toggle push-to-talk-toggle">
      <input type="checkbox" checked={pushToTalk} onChange={(event) => runtime.setPushToTalk(event.target.checked)} />
      Push to talk
    </label>
  );
}

/**
 * Preference pushToTalk: the microphone stays muted except while you hold Space or, while it is on,
 * "Hold to talk" beside it — pressed with a finger or the mouse, for a screen without a Space bar.
 */
export function PushToTalkToggle() {
  const runtime = useCallRuntime();
  const { pushToTalk } = useAtomValue(preferencesAtom);
  const held = useAtomValue(runtime.atoms.talkHeld);
  const letGo = () => runtime.holdToTalk(false);
  // Gone while held (the preview gave way to the call under another finger): its release would never come.
  useEffect(() => () => runtime.holdToTalk(false), [runtime]);
  return (
    <div className="push-to-talk">
      <PushToTalkSetting />
      {pushToTalk && (
        <button
          type="button"
          className={`hold-to-talk${held ? ' is-held' : ''}`}
          aria-label="Hold to talk"
          aria-pressed={held}
          title="Hold to talk, or hold Space"
          // Held for as long as the finger or button stays down, wherever it moves meanwhile.
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture(event.pointerId);
            runtime.holdToTalk(true);
          }}
          onPointerUp={letGo}
          onPointerCancel={letGo}
          onLostPointerCapture={letGo}
          onContextMenu={(event) => event.preventDefault()}
        >
          <MicrophoneIcon />
          <span className="hold-to-talk-words" aria-hidden="true">
            {held ? 'Talking' : 'Hold to talk'}
          </span>
        </button>
      )}
    </div>
  );
}
