import { createStore } from 'jotai';
import type { MediaItem, MediaItems } from '../../src/main-thread/media';
import { SessionBridge } from '../../src/main-thread/SessionBridge';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { RoomsCommands } from '../../src/protocol/commands';
import type { SessionState } from '../../src/protocol/session-state';

/**
 * Browser side of the fixture pages that drive a Call without the call UI (call-fixture,
 * relay-fixture): the room opened through the shared session as a call tab opens it, and the fake
 * camera and microphone shared, so that each page keeps only what its own tests look at.
 */

type Store = ReturnType<typeof createStore>;

/** Resolves with the first value `read` finds in the session state, now or after a later change. */
export function when<T>(store: Store, read: (state: SessionState) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    let unsubscribe: (() => void) | undefined;
    const check = (): boolean => {
      const value = read(store.get(sessionStateAtom));
      if (value === undefined) return false;
      unsubscribe?.();
      resolve(value);
      return true;
    };
    if (!check()) unsubscribe = store.sub(sessionStateAtom, check);
  });
}

/** What a receiver's inbound-rtp statistics say arrives: summed counters, and the widest frame decoded. */
export interface InboundCounters {
  framesDecoded: number;
  frameWidth: number;
  packetsReceived: number;
  bytesReceived: number;
}

export function inbound(report: RTCStatsReport | undefined): InboundCounters {
  const counters = { framesDecoded: 0, frameWidth: 0, packetsReceived: 0, bytesReceived: 0 };
  report?.forEach((stat: { type: string; framesDecoded?: number; frameWidth?: number; packetsReceived?: number; bytesReceived?: number }) => {
    if (stat.type !== 'inbound-rtp') return;
    counters.framesDecoded += stat.framesDecoded ?? 0;
    counters.frameWidth = Math.max(counters.frameWidth, stat.frameWidth ?? 0);
    counters.packetsReceived += stat.packetsReceived ?? 0;
    counters.bytesReceived += stat.bytesReceived ?? 0;
  });
  return counters;
}

/** The page's mirror of the shared session and the room it opened there. */
export interface FixtureRoom {
  store: Store;
  bridge: SessionBridge;
  /** The tab's rooms commands (joinCall, leaveCall). */
  rooms: RoomsCommands;
  roomAddress: string;
  selfAddress: string;
}

export interface FixtureRoomOptions {
  /** Passed to openRoom: whether the shared session joins the room's call along with the room. */
  autoJoinCall: boolean;
  /** What else the page waits for once the room is joined: the call joined, or the call config for a page that joins the call itself. */
  ready(state: SessionState, roomAddress: string): boolean;
}

/** Starts the shared session and opens `roomName` through it; resolves once the room is joined and `ready` holds. */
export async function openFixtureRoom(roomName: string, { autoJoinCall, ready }: FixtureRoomOptions): Promise<FixtureRoom> {
  const store = createStore();
  const bridge = new SessionBridge(store);
  await bridge.start().attached;
  const { rooms } = bridge.actions;
  const roomId = await bridge.actions.openRoom(roomName, { autoJoinCall });
  const room = await when(store, (state) => {
    const found = state.rooms[roomId];
    return found?.joined && found.address && found.selfAddress && ready(state, found.address) ? found : undefined;
  });
  return { store, bridge, rooms, roomAddress: room.address ?? '', selfAddress: room.selfAddress ?? '' };
}

/** The fake devices' capture and the local items it is shared as. */
export interface SharedCamera {
  stream: MediaStream;
  videoTrack: MediaStreamTrack;
  microphone: MediaItem;
  camera: MediaItem;
}

/** Captures the fake camera (with the `video` constraints) and microphone and shares both in `media`. */
export async function shareCameraAndMicrophone(media: MediaItems, video: MediaTrackConstraints): Promise<SharedCamera> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video });
  const [audioTrack] = stream.getAudioTracks();
  const [videoTrack] = stream.getVideoTracks();
  if (!audioTrack || !videoTrack) throw new Error('the fake devices gave no camera or microphone');
  const microphone = media.addLocalAudio(audioTrack, stream);
  media.share(microphone.id);
  const camera = media.addLocalVideo(videoTrack, stream);
  media.share(camera.id);
  return { stream, videoTrack, microphone, camera };
}
