import { useEffect, useId, useRef, useState } from 'react';
import { focusLost } from '../focusLost';
import { CameraToggle } from './CameraToggle';
import { HangUpIcon, SettingsIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';
import { DeafenToggle } from './DeafenToggle';
import { DevicePickers } from './DevicePickers';
import { MicrophoneToggle } from './MicrophoneToggle';
import { PushToTalkSetting, PushToTalkToggle } from './PushToTalkToggle';
import { ScreenShareToggle } from './ScreenShareToggle';

/** The controls under the grid while you are in the call. */
export function CallControls() {
  const runtime = useCallRuntime();
  const [devicesShown, setDevicesShown] = useState(false);
  const devicesId = useId();
  const controlsRef = useRef<HTMLDivElement>(null);
  // Joining removes the "Join call" button: focus goes to the microphone's toggle rather than falling
  // to the page. While the microphone starts its toggle is disabled, and the group holds focus: never
  // whichever control happens to be usable first (a key press there could share your screen).
  const [focusMicrophone, setFocusMicrophone] = useState(false);
  useEffect(() => {
    if (!focusLost()) return;
    controlsRef.current?.focus({ preventScroll: true });
    setFocusMicrophone(true);
  }, []);
  return (
    <div className="call-controls-area">
      {devicesShown && (
        <div id={devicesId} className="call-devices">
          <DevicePickers />
          {/* A phone's bar keeps only "Hold to talk": the setting is here (parley.css). */}
          <div className="call-devices-push-to-talk">
            <PushToTalkSetting />
          </div>
        </div>
      )}
      <div ref={controlsRef} className="call-controls" role="group" aria-label="Call controls" tabIndex={-1}>
        <MicrophoneToggle takeFocus={focusMicrophone} />
        <CameraToggle />
        <ScreenShareToggle />
        <DeafenToggle />
        <button
          type="button"
          className={`control${devicesShown ? ' is-active' : ''}`}
          aria-label="Devices"
          title="Camera, microphone, speaker and push to talk"
          aria-expanded={devicesShown}
          aria-controls={devicesId}
          onClick={() => setDevicesShown((shown) => !shown)}
        >
          <SettingsIcon />
        </button>
        <PushToTalkToggle />
        <button type="button" className="control hang-up" aria-label="Hang up" title="Hang up" onClick={() => void runtime.hangUp()}>
          <HangUpIcon />
        </button>
      </div>
    </div>
  );
}
