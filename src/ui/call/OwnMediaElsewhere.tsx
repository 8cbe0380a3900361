import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { OwnMediaRequest } from '../../protocol/commands';
import { OWN_MEDIA_REQUEST_SETTLE_MS } from '../../protocol/clientDefaults';
import { errorMessage } from '../../common/errorMessage';
import { callAtomFamily, preferencesAtom, selfPeerAtomFamily } from '../../main-thread/sessionAtoms';
import { focusLost } from '../focusLost';
import { useActions } from '../tabContext';
import { HangUpIcon } from './CallIcons';
import { DeviceToggle } from './DeviceToggle';
import { stoppedWords } from './stoppedWords';

type Device = keyof OwnMediaRequest;

/**
 * Your microphone and camera in the call another tab of yours runs: in the pop-out chat, and in a
 * room tab that says the call runs elsewhere. They show what the room hears and sees of you (your
 * own record; through an outage of the chat server, the call record's own media) and ask the call's
 * tab to do what its own buttons would (`calls.requestOwnMedia`), with the same keyboard shortcuts,
 * so that Ctrl+D in the pop-out mutes you rather than opening the browser's bookmark dialog.
 * `offerHangUp`: "Hang up" beside them (the pop-out chat; the room tab's "elsewhere" view has its
 * own). Nothing is shown while you are not in the call, but that you left it, once its "Hang up"
 * took you out: the words take the focus the button had.
 */
export function OwnMediaElsewhere({ roomAddress, offerHangUp = false }: { roomAddress: string; offerHangUp?: boolean }) {
  const call = useAtomValue(callAtomFamily(roomAddress));
  const self = useAtomValue(selfPeerAtomFamily(roomAddress));
  const { pushToTalk } = useAtomValue(preferencesAtom);
  const actions = useActions();
  // Your record goes while the room waits for its rejoin (SPEC §4), though the call goes on: then the
  // call record's own media, which the call's tab keeps, says it.
  const microphoneOn = self ? self.hasActiveMicrophone : call?.ownMedia.microphoneMuted === false;
  const cameraOn = self ? self.hasActiveCamera : call?.ownMedia.cameraOff === false;
  // Off for the others because the system stopped it, though you have it on: the call's tab says so, and so does this.
  const stopped = { camera: call?.ownMedia.cameraStopped === true, microphone: call?.ownMedia.microphoneStopped === true };
  // Why the call's tab could not start one (another app holds it, it is blocked): said here as there, and marked on its toggle.
  const troubles = { microphone: call?.ownMedia.microphoneTrouble || undefined, camera: call?.ownMedia.cameraTrouble || undefined };
  const troubleWords = [troubles.microphone, troubles.camera].filter((advice): advice is string => advice !== undefined);
  // What was asked and not done yet, per device: the state it asked to leave, until it leaves it or the ask settles.
  const [asked, setAsked] = useState<Partial<Record<Device, boolean>>>({});
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  useEffect(() => setAsked((current) => withoutDone(current, { microphoneMuted: microphoneOn, cameraOff: cameraOn })), [microphoneOn, cameraOn]);
  useEffect(() => {
    if (Object.keys(asked).length === 0) return undefined;
    const settle = setTimeout(() => setAsked({}), OWN_MEDIA_REQUEST_SETTLE_MS);
    return () => clearTimeout(settle);
  }, [asked]);
  const [hungUpHere, setHungUpHere] = useState(false);
  const leftNote = useRef<HTMLParagraphElement>(null);
  const joined = call?.joined === true;
  useEffect(() => {
    if (hungUpHere && !joined && focusLost()) leftNote.current?.focus();
  }, [hungUpHere, joined]);
  if (!joined) {
    return hungUpHere ? (
      <p ref={leftNote} className="own-media-left" role="status" tabIndex={-1}>
        You left the call.
      </p>
    ) : null;
  }

  const ask = (device: Device, leaving: boolean): void => {
    setAsked((current) => ({ ...current, [device]: leaving }));
    setRefusal(undefined);
    actions.calls.requestOwnMedia(roomAddress, { [device]: leaving }).catch((error: unknown) => {
      setAsked((current) => withoutDevice(current, device));
      setRefusal(refusalWords(device, error));
    });
  };
  // Leaving the call is the session's: the call's tab lets go of it as every tab does when the record says so.
  const hangUp = (): void => {
    setRefusal(undefined);
    actions.rooms.leaveCall(roomAddress).then(
      () => setHungUpHere(true),
      (error: unknown) => setRefusal(`You are still in the call: ${errorMessage(error)}.`),
    );
  };
  return (
    <div className="own-media-elsewhere" role="group" aria-label="Your call">
      <DeviceToggle
        device="microphone"
        on={microphoneOn}
        starting={asked.microphoneMuted === microphoneOn}
        disabled={pushToTalk}
        title={pushToTalk ? 'Push to talk is on: hold Space in the call’s tab to talk' : undefined}
        onToggle={() => ask('microphoneMuted', microphoneOn)}
        trouble={troubles.microphone === undefined ? undefined : { advice: troubles.microphone }}
      />
      <DeviceToggle
        device="camera"
        on={cameraOn}
        starting={asked.cameraOff === cameraOn}
        disabled={false}
        onToggle={() => ask('cameraOff', cameraOn)}
        trouble={troubles.camera === undefined ? undefined : { advice: troubles.camera }}
      />
      {offerHangUp && (
        <button type="button" className="control hang-up" aria-label="Hang up" title="Hang up" onClick={hangUp}>
          <HangUpIcon />
        </button>
      )}
      {(stopped.camera || stopped.microphone) && (
        <p className="own-media-stopped" role="status">
          {stoppedWords(stopped, true)} Turn {stopped.camera && stopped.microphone ? 'them' : 'it'} on here to try again.
        </p>
      )}
      {troubleWords.length > 0 && (
        <p className="own-media-trouble" role="status">
          {troubleWords.join(' ')}
        </p>
      )}
      {refusal && (
        <p className="own-media-refusal" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}

/** Why a toggle did nothing, in plain words (the error's name survives the way back from the session). */
function refusalWords(device: Device, error: unknown): string {
  const what = device === 'microphoneMuted' ? 'Your microphone' : 'Your camera';
  const why = error instanceof Error && error.name === 'CallNotRunningError' ? 'no tab of yours is running the call right now' : errorMessage(error);
  return `${what} wasn't changed: ${why}.`;
}

/** The asks whose device has left the state they asked to leave: done. */
function withoutDone(asked: Partial<Record<Device, boolean>>, now: Record<Device, boolean>): Partial<Record<Device, boolean>> {
  const pending = Object.entries(asked).filter(([device, leaving]) => now[device as Device] === leaving);
  return pending.length === Object.keys(asked).length ? asked : Object.fromEntries(pending);
}

function withoutDevice(asked: Partial<Record<Device, boolean>>, device: Device): Partial<Record<Device, boolean>> {
  return Object.fromEntries(Object.entries(asked).filter(([asking]) => asking !== device));
}
