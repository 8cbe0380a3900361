import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { handoverMessage } from '../../main-thread/callTab/callHandover';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { focusLost } from '../focusLost';
import { useCallRuntime } from './callRuntimeContext';
import { focusCallControl } from './focusCallControl';
import { MicrophonePicker } from './DevicePickers';
import { stoppedWords } from './stoppedWords';

/**
 * What the person should know about their media: a capture or call problem in plain words, the
 * "you are muted" hint while they speak muted (issue 6), that the video they send loses much on its
 * way (with their camera to turn off), that the system stopped their camera or microphone (with a
 * way to try again) or that their microphone delivers no sound (with another to pick), and the plain "Request Media" fallback
 * (SPEC §2) while playback or capture waits for their gesture — beside a capture's problem, as one
 * notice with its words; when the call moved to this tab, that it did and how their media stands
 * (issue 13), with the screen share to start again.
 */
export function CallNotices() {
  const runtime = useCallRuntime();
  const problem = useAtomValue(runtime.atoms.problem);
  const mutedWhileSpeaking = useAtomValue(runtime.atoms.mutedWhileSpeaking);
  const requestMediaOffered = useAtomValue(runtime.atoms.requestMediaOffered);
  const playbackBlocked = useAtomValue(runtime.atoms.playbackBlocked);
  const handover = useAtomValue(runtime.atoms.handover);
  const sendingPoorly = useAtomValue(runtime.atoms.sendingPoorly);
  const stoppedBySystem = useAtomValue(runtime.atoms.stoppedBySystem);
  const inCall = useAtomValue(runtime.atoms.phase) === 'in-call';
  const microphoneSilent = useAtomValue(runtime.atoms.microphoneSilent);
  const cameraOn = useAtomValue(runtime.atoms.deviceToggles).camera.on;
  const preferences = useAtomValue(preferencesAtom);
  const notices = useRef<HTMLDivElement>(null);
  // A notice's button was used: "Dismiss", "Share screen again" and "Request Media" take their notice
  // away, and focus with it; once it has gone, focus goes to the call's controls, not to the page.
  const noticeButtonUsed = useRef(false);
  useEffect(() => {
    if (!noticeButtonUsed.current || notices.current?.contains(document.activeElement)) return;
    noticeButtonUsed.current = false;
    if (focusLost()) focusCallControl(notices.current);
  });
  const onNoticeButton = (action: () => void) => () => {
    noticeButtonUsed.current = true;
    action();
  };
  // A capture that failed (refused, no device) and "Request Media" are one notice: why, and the way to try again.
  const problemToRetry = requestMediaOffered && !playbackBlocked ? problem : undefined;
  return (
    <div ref={notices} className="call-notices">
      {problem && !problemToRetry && (
        <div role="alert" className="banner banner-error call-problem">
          <p>{problem}</p>
          <button type="button" className="button small" onClick={onNoticeButton(() => runtime.dismissProblem())}>
            Dismiss
          </button>
        </div>
      )}
      <div role="status" className="call-hint">
        {handover && (
          <div className="banner banner-info call-handover">
            <p>{handoverMessage(handover, preferences)}</p>
            {handover.screenShareEnded && runtime.screenShareSupported && (
              <button type="button" className="button small" onClick={onNoticeButton(() => void runtime.startScreenShare())}>
                Share screen again
              </button>
            )}
            <button type="button" className="button small" onClick={onNoticeButton(() => runtime.dismissHandover())}>
              Dismiss
            </button>
          </div>
        )}
        {mutedWhileSpeaking && <p className="banner banner-warning">You are muted. Unmute your microphone to be heard.</p>}
        {(stoppedBySystem.camera || stoppedBySystem.microphone) && (
          <div className="banner banner-warning call-device-stopped">
            <p>{stoppedWords(stoppedBySystem, inCall)}</p>
            <button type="button" className="button small" onClick={onNoticeButton(() => void runtime.restartStoppedDevices())}>
              Try again
            </button>
          </div>
        )}
        {microphoneSilent && (
          <div className="banner banner-warning call-microphone-silent">
            <p>Your microphone sends no sound: it may be muted on the device itself, or not the one you speak into.{inCall && ' Until it sends some, the others cannot hear you.'}</p>
            <MicrophonePicker label="Use another microphone" />
          </div>
        )}
        {sendingPoorly && (
          <div className="banner banner-warning call-send-loss">
            <p>Your connection is losing much of the video you send: others may see it frozen.{cameraOn && ' Turning your camera off keeps your voice clearer.'}</p>
            {cameraOn && (
              <button type="button" className="button small" onClick={onNoticeButton(() => void runtime.toggleCamera())}>
                Turn camera off
              </button>
            )}
          </div>
        )}
      </div>
      {requestMediaOffered && (
        <div role={problemToRetry ? 'alert' : undefined} className={`banner ${problemToRetry ? 'banner-error' : 'banner-info'} request-media`}>
          <p>{playbackBlocked ? 'Your browser is waiting for a click before it plays the call.' : (problemToRetry ?? 'Your camera and microphone are not on yet.')}</p>
          <button type="button" className="button primary" onClick={onNoticeButton(() => void runtime.requestMedia())}>
            Request Media
          </button>
        </div>
      )}
    </div>
  );
}
