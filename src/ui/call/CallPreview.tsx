import { useAtomValue } from 'jotai';
import { useEffect, useRef, type ReactNode } from 'react';
import { askForNotificationsOnce } from '../../main-thread/alerts/desktopNotifications';
import type { DeviceTrouble } from '../../main-thread/media';
import { focusLost } from '../focusLost';
import { InviteButtons } from '../InviteButtons';
import { useActions } from '../tabContext';
import { CameraToggle } from './CameraToggle';
import { useCallRuntime } from './callRuntimeContext';
import { DevicePickers } from './DevicePickers';
import { MediaVideo } from './MediaVideo';
import { MicrophoneLevel } from './MicrophoneLevel';
import { MicrophoneToggle } from './MicrophoneToggle';
import { NamePrompt } from './NamePrompt';
import { useHasNoName } from '../useHasNoName';
import { PushToTalkToggle } from './PushToTalkToggle';
import { useOtherCalls, type OtherCalls } from './useOtherCalls';
import { listInWords } from '../../common/listInWords';

function inCallText(names: readonly string[] | undefined): string {
  if (names === undefined) return 'Checking who is in the call…';
  if (names.length === 0) return 'Nobody is in the call yet.';
  if (names.length === 1) return `${names[0]} is in the call.`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are in the call.`;
  return `${names[0]}, ${names[1]} and ${names.length - 2} more are in the call.`;
}

/**
 * Why a device of yours did not start, beside it in the preview: in short words while the problem's
 * own notice says what to do, and in its whole advice once that notice is dismissed.
 */
function TroubleWords({ trouble, className }: { trouble: DeviceTrouble; className: string }) {
  const runtime = useCallRuntime();
  const noticeShown = useAtomValue(runtime.atoms.problem) !== undefined;
  return <p className={className}>{noticeShown ? `${trouble.words}.` : trouble.advice}</p>;
}

/** Said before "Join call" while you are in another room's call, which the join leaves. */
function OtherCallsNote({ otherCalls }: { otherCalls: OtherCalls }) {
  if (otherCalls.roomNames.length === 0) return null;
  return (
    <p className="banner banner-info preview-other-call">
      You’re in the call in {listInWords(otherCalls.roomNames)}. Joining this one leaves {otherCalls.roomNames.length === 1 ? 'it' : 'them'}.
    </p>
  );
}

/**
 * Joins at once, or once the other calls you are in are left (one call at a time). Called by the
 * click on "Join call": the moment to ask for notifications, while the browser counts the click.
 */
function joinLeaving(otherCalls: OtherCalls, join: () => void): void {
  askForNotificationsOnce();
  if (otherCalls.roomNames.length === 0) join();
  else void otherCalls.leave().then(join);
}

/** What every preview shows: the video, and beside it the title, what to know, "Join call" with the invites, and more below. */
function PreviewLayout({ video, title, about, join, roomName, children }: { video: ReactNode; title: string; about?: ReactNode; join: ReactNode; roomName: string; children?: ReactNode }) {
  return (
    <div className="call-preview">
      <div className="preview-video">
        <div className="preview-frame">{video}</div>
      </div>
      <div className="preview-side">
        <h2 className="preview-title">{title}</h2>
        {about}
        <div className="preview-actions">
          {join}
          <InviteButtons roomName={roomName} />
        </div>
        {children}
      </div>
    </div>
  );
}

/**
 * Before joining (or after leaving): see yourself, turn camera or microphone off, join; below, the
 * devices and push-to-talk. "Join call" comes before the device pickers, so a phone shows it without scrolling.
 */
export function CallPreview({ joining, roomName }: { joining: boolean; roomName: string }) {
  const runtime = useCallRuntime();
  const hasNoName = useHasNoName();
  const joinRef = useRef<HTMLButtonElement>(null);
  const typedName = useRef('');
  const actions = useActions();
  const otherCalls = useOtherCalls(roomName);
  const join = () => {
    const name = hasNoName ? typedName.current.trim() : '';
    // Not waited for: the join is on its way at once, and the room hears the name as after "Save name".
    if (name) void actions.preferences.setPreferences({ displayName: name }).catch(() => undefined);
    joinLeaving(otherCalls, () => void runtime.joinCall());
  };
  // Back from a call, a dialog or a prompt, focus would fall to the page: "Join call" is the next step.
  // Not scrolled to: "Join call" is in view above the device pickers, and scrolling forced a layout (issue 14).
  useEffect(() => {
    if (focusLost()) joinRef.current?.focus({ preventScroll: true });
  }, [hasNoName]);
  const { camera, microphone } = useAtomValue(runtime.atoms.local);
  const devices = useAtomValue(runtime.atoms.devices);
  const others = useAtomValue(runtime.atoms.othersInCall);
  const leftCall = useAtomValue(runtime.atoms.leftCall);
  // A camera let go after leaving is "on" when the next join turns it on (deviceToggles).
  const cameraToggledOn = useAtomValue(runtime.atoms.deviceToggles).camera.on;
  const starting = useAtomValue(runtime.atoms.previewStarting) || devices.requestingCapture;
  const troubles = useAtomValue(runtime.atoms.deviceTroubles);
  const showVideo = camera !== undefined && !camera.off;
  return (
    <PreviewLayout
      roomName={roomName}
      title={leftCall ? 'You left the call' : 'Ready to join?'}
      video={
        <>
          {showVideo ? (
            <MediaVideo key={camera.itemId} itemId={camera.itemId} mirrored={camera.mirrored} />
          ) : !starting && troubles.camera ? (
            <TroubleWords trouble={troubles.camera} className="preview-off preview-trouble" />
          ) : (
            <p className="preview-off">{starting ? 'Starting your camera…' : cameraToggledOn ? 'Your camera turns on when you join' : 'Your camera is off'}</p>
          )}
          {microphone && !microphone.muted && <MicrophoneLevel itemId={microphone.itemId} />}
          <div className="preview-toggles">
            <MicrophoneToggle />
            <CameraToggle />
          </div>
        </>
      }
      about={
        <>
          <p className="muted">{inCallText(others)}</p>
          <OtherCallsNote otherCalls={otherCalls} />
          {!microphone && !starting && troubles.microphone && <TroubleWords trouble={troubles.microphone} className="preview-device-trouble" />}
          {hasNoName && <NamePrompt onSaved={() => joinRef.current?.focus()} onTyped={(name) => (typedName.current = name)} />}
        </>
      }
      join={
        <button ref={joinRef} type="button" className="button primary join-call" disabled={joining} onClick={join}>
          {joining ? 'Joining…' : 'Join call'}
        </button>
      }
    >
      <DevicePickers />
      <PushToTalkToggle />
    </PreviewLayout>
  );
}

/**
 * The preview while the call is not up yet in this tab (the room's address is being looked up, or
 * the call's code is arriving): "Join call" is offered already (issue 14, the join path), and a
 * click joins as soon as the call can; the camera, the devices and the rest come with the call.
 * Should the call's code not arrive, it says so, and what to do.
 */
export function PendingCallPreview({ joinAsked, onJoin, loadFailed, roomName }: { joinAsked: boolean; onJoin: () => void; loadFailed: boolean; roomName: string }) {
  const otherCalls = useOtherCalls(roomName);
  return (
    <PreviewLayout
      roomName={roomName}
      title="Ready to join?"
      video={<p className="preview-off">{loadFailed ? 'Your camera is off' : 'Starting your camera…'}</p>}
      about={
        loadFailed ? (
          <p role="alert" className="banner banner-error call-problem">
            The call could not be loaded. Check your connection and reload the page.
          </p>
        ) : (
          <OtherCallsNote otherCalls={otherCalls} />
        )
      }
      join={
        <button type="button" className="button primary join-call" disabled={joinAsked || loadFailed} onClick={() => joinLeaving(otherCalls, onJoin)}>
          {joinAsked ? 'Joining…' : 'Join call'}
        </button>
      }
    />
  );
}
