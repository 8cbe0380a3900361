import { atom, type Atom, type Getter } from 'jotai';
import { initialDevicesState, type DevicesState, type MediaItem } from '../media';
import { connectionsAtom, heldPeersAtom, receivedPathsAtom, type ReceivedPath } from '../call/callAtoms';
import { relayStatusAtom, type RelayState } from '../call/relay/relayAtoms';
import { peopleThroughOutage, preferencesAtom, roomByAddressAtomFamily, roomPeersAtomFamily } from '../sessionAtoms';
import type { CallHandover } from './callHandover';
import { callTiles } from './callTiles';
import { connectionHint, type ConnectionHint } from './connectionHint';
import type { ConnectionTrouble } from './ConnectionTroubles';
import { localMediaState } from './localMediaState';
import type { DeviceTroubles, WantedDevices } from './LocalCapture';

/**
 * Where this tab stands in the room's call:
 * - preview: not in the call; the camera preview and "Join call";
 * - joining: taking the call (its Web Lock), joining, starting media;
 * - in-call: this tab runs the call;
 * - elsewhere: you are in the call and another tab of this browser runs it (it holds the lock);
 * - unsupported: this browser cannot run a call.
 */
export type CallPhase = 'preview' | 'joining' | 'in-call' | 'elsewhere' | 'unsupported';

/** A camera and a microphone device by id (a track's settings' deviceId, or a pick); undefined is none, or the browser's default. */
export interface SelectedDevices {
  readonly camera: string | undefined;
  readonly microphone: string | undefined;
}

/** Plain records compare by value: a derived value that did not change keeps its identity, so React skips the render. */
function stableAtom<Value>(read: (get: Getter) => Value): Atom<Value> {
  let previous: { value: Value; json: string } | undefined;
  return atom((get) => {
    const value = read(get);
    const json = JSON.stringify(value);
    if (previous !== undefined && previous.json === json) return previous.value;
    previous = { value, json };
    return value;
  });
}

/** The atoms of one room's call tab: the runtime writes the primitive ones, React reads them all. */
export function createCallTabAtoms(roomAddress: string) {
  const phase = atom<CallPhase>('preview');
  /**
   * Every media item of the tab, local and remote, in the order added. A change of an item's volume
   * alone (four times a second per voice, from the analysis worker) is not written here but to
   * `volumes`: the tiles and everything else derived from the items need not follow it.
   */
  const items = atom<readonly MediaItem[]>([]);
  /** Each audio item's volume (dB) as last reported, by item id: the microphone's level meter reads it. */
  const volumes = atom<Readonly<Record<string, number>>>({});
  const devices = atom<DevicesState>(initialDevicesState);
  const selectedDevices = atom<SelectedDevices>({ camera: undefined, microphone: undefined });
  /** The devices picked in the pickers (LocalCapture), kept while none runs: what the next capture asks for. */
  const pickedDevices = atom<SelectedDevices>({ camera: undefined, microphone: undefined });
  /** A capture or call failure in words for the person (CaptureError.userMessage and the like). */
  const problem = atom<string | undefined>(undefined);
  /** Why the camera or microphone did not start, each until it runs (LocalCapture): the preview and its toggle say it. */
  const deviceTroubles = atom<DeviceTroubles>({});
  /** The autoplay policy held back remote audio or video until a user gesture. */
  const playbackBlocked = atom(false);
  /** Push-to-talk is held (Space, or the on-screen "Hold to talk"): you are talking. */
  const talkHeld = atom(false);
  /** The call came to this tab from another (issue 13), until the person dismisses the notice or leaves. */
  const handover = atom<CallHandover | undefined>(undefined);
  /** The tile the person enlarged (its key), while they keep it so. */
  const enlargedTileKey = atom<string | undefined>(undefined);
  /** Whose shared screens the person sent back to the grid, while they share (ScreenStage). */
  const screensPutBack = atom<ReadonlySet<string>>(new Set<string>());
  /**
   * You left the call (here or in another tab) and its media were let go on purpose: the preview
   * says so, and does not offer "Request Media"; its toggles say what the next join turns on
   * (`joinWith`), without capturing.
   */
  const leftCall = atom(false);
  /** What a join turns on of a camera or microphone that does not run: what the person wants on (LocalCapture). */
  const joinWith = atom<WantedDevices>({ camera: true, microphone: true });
  /**
   * The preview's first capture is being decided or made (LocalCapture.openPreview, which every
   * runtime starts with): the camera is starting, not off, and "Request Media" waits for the outcome.
   */
  const previewStarting = atom(true);
  /** The people your connection keeps failing with, by address (ConnectionTroubles). */
  const connectionTroubles = atom<Readonly<Record<string, ConnectionTrouble>>>({});
  /** The video this tab sends loses much on its way to the others (call/SendLossWatch), while it runs the call. */
  const sendingPoorly = atom(false);

  const local = stableAtom((get) => localMediaState(get(items)));
  /** The microphone is on its way: its toggle waits, and your tile does not say muted meanwhile. */
  const microphoneStarting = atom((get) => get(previewStarting) || get(devices).requestingMicrophoneCapture);
  /**
   * The microphone's and the camera's toggles as every way of pressing them reads them (the buttons,
   * their shortcuts, another tab's asks): on, on its way, and whether a press acts now — not while
   * the device is on its way, not for a device there is none of, not the microphone while
   * push-to-talk holds it. A device let go after you left the call is on when the next join turns it on.
   */
  const deviceToggles = stableAtom((get) => {
    const { microphone, camera } = get(local);
    const known = get(devices);
    const released = get(leftCall);
    const wanted = get(joinWith);
    const cameraStarting = get(previewStarting) || known.requestingCameraCapture;
    return {
      microphone: {
        on: microphone ? !microphone.muted : released && wanted.microphone && known.hasMicrophone,
        starting: get(microphoneStarting),
        enabled: !get(preferencesAtom).pushToTalk && known.hasMicrophone && !get(microphoneStarting),
      },
      camera: { on: camera ? !camera.off : released && wanted.camera && known.hasCamera, starting: cameraStarting, enabled: known.hasCamera && !cameraStarting },
    };
  });
  // The people the call still follows through a lost connection keep their tiles (call/RejoinHold).
  const tiles = stableAtom((get) =>
    callTiles({
      peers: [...get(roomPeersAtomFamily(roomAddress)), ...(get(heldPeersAtom)[roomAddress] ?? [])],
      items: get(items),
      selfDisplayName: get(preferencesAtom).displayName,
      selfMicrophoneStarting: get(microphoneStarting),
    }),
  );
  /** The enlarged tile while it is still in the grid. */
  const enlargedTile = atom((get) => {
    const key = get(enlargedTileKey);
    return get(tiles).some((tile) => tile.key === key) ? key : undefined;
  });
  /** The video item the enlarged tile shows: its sender is asked for its best quality. */
  const enlargedVideoItemId = atom((get) => get(tiles).find((tile) => tile.key === get(enlargedTile))?.videoItemId);
  /** How the call's media travels (SPEC §4 media relay): over the mesh until the relay carries it. */
  const relayState = atom((get): RelayState => get(relayStatusAtom)[roomAddress]?.state ?? 'mesh');
  /** How one received item arrives, and through the relay which layer: an atom per item, for its tile. */
  const receivedPath = (itemId: string): Atom<ReceivedPath | undefined> => atom((get) => get(receivedPathsAtom)[itemId]);
  /** How your connection with one person stands (their SPEC §3 Connection records): an atom per person, for their tile. */
  const peerConnection = (peerAddress: string): Atom<ConnectionHint> =>
    atom((get) =>
      connectionHint(
        Object.values(get(connectionsAtom)).filter((record) => record.roomAddress === roomAddress && record.peerAddress === peerAddress),
        get(connectionTroubles)[peerAddress],
      ),
    );
  /**
   * The names of the others already in the call, for the preview: of the joined room, or through our
   * own lost connection of those there when it dropped (as the Participants list shows them);
   * undefined while the room's people are not known yet (before its first join).
   */
  const othersInCall = stableAtom((get) => {
    const room = get(roomByAddressAtomFamily(roomAddress));
    const people = room?.joined === true ? get(roomPeersAtomFamily(roomAddress)) : room && peopleThroughOutage(room);
    return people?.filter((peer) => !peer.isSelf && peer.joinedCall).map((peer) => peer.displayName);
  });
  /**
   * Issue 6: "you are muted" while you speak into a muted microphone in the call. Not under
   * push-to-talk: there the microphone is muted on purpose between turns, and speaking stays on a
   * moment after each release, so the hint would come after every turn and its button is disabled.
   */
  const mutedWhileSpeaking = atom((get) => {
    const microphone = get(local).microphone;
    return get(phase) === 'in-call' && !get(preferencesAtom).pushToTalk && microphone !== undefined && microphone.muted && microphone.speaking;
  });
  /**
   * The camera or microphone the person has on that the system stopped (another app took it, a
   * privacy switch, a lid closed): the others see it off until it comes back, and the person is told.
   */
  const stoppedBySystem = stableAtom((get) => {
    const { microphone, camera } = get(local);
    return { microphone: microphone !== undefined && microphone.stopped && !microphone.muted, camera: camera !== undefined && camera.stopped && !camera.off };
  });
  /**
   * Your microphone on, yet it delivers no sound at all (muted on the device itself, an input with
   * nothing plugged in): the others hear nothing of you. One the system stopped is said as such.
   */
  const microphoneSilent = atom((get) => {
    const microphone = get(local).microphone;
    return microphone !== undefined && microphone.silent && !microphone.muted && !microphone.stopped;
  });
  /**
   * SPEC §2 "Request Media": playback waits for a gesture, or no camera or microphone runs yet of
   * those the person wants on (someone who joined with both off only listens: nothing to offer).
   */
  const requestMediaOffered = atom((get) => {
    if (get(playbackBlocked)) return true;
    if (get(leftCall) || get(previewStarting)) return false;
    const now = get(phase);
    const { microphone, camera } = get(local);
    const known = get(devices);
    const wanted = get(joinWith);
    const wantedThere = (wanted.camera && known.hasCamera) || (wanted.microphone && known.hasMicrophone);
    return (now === 'preview' || now === 'in-call') && !microphone && !camera && !known.requestingCapture && wantedThere;
  });

  return {
    phase,
    items,
    volumes,
    devices,
    selectedDevices,
    pickedDevices,
    problem,
    deviceTroubles,
    playbackBlocked,
    talkHeld,
    handover,
    enlargedTileKey,
    screensPutBack,
    leftCall,
    joinWith,
    previewStarting,
    connectionTroubles,
    sendingPoorly,
    local,
    deviceToggles,
    tiles,
    enlargedTile,
    enlargedVideoItemId,
    relayState,
    receivedPath,
    peerConnection,
    othersInCall,
    mutedWhileSpeaking,
    stoppedBySystem,
    microphoneSilent,
    requestMediaOffered,
  };
}

export type CallTabAtoms = ReturnType<typeof createCallTabAtoms>;
