import type { Remote } from 'comlink';
import { createStore } from 'jotai';
import { BridgeCallSignaling } from '../../../src/main-thread/call/BridgeCallSignaling';
import { connectionsAtom } from '../../../src/main-thread/call/callAtoms';
import { CallEngine } from '../../../src/main-thread/call/CallEngine';
import { MediaItems, type MediaItem, type VideoSendLoad } from '../../../src/main-thread/media';
import { receivedPathsAtom, relayStatusAtom } from '../../../src/main-thread/relay/relayAtoms';
import { SessionBridge } from '../../../src/main-thread/SessionBridge';
import { sessionStateAtom } from '../../../src/main-thread/sessionAtoms';
import type { RoomsCommands } from '../../../src/protocol/commands';
import type { SessionState } from '../../../src/protocol/session-state';
import { systemClock } from '../../../src/shared-worker/clock';
import type { RelayReceivedMedia, ShownFrame } from './api';

/**
 * The call engine with the media relay on, without the call UI: `?room=<name>` opens the room
 * through the shared session, joins the call, captures the fake camera (1280×720, the relay's
 * capture tier) and microphone and runs a CallEngine, exposing `window.relayFixture`.
 */

type Store = ReturnType<typeof createStore>;

const roomName = new URLSearchParams(location.search).get('room') ?? '';

function when<T>(store: Store, read: (state: SessionState) => T | undefined): Promise<T> {
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

type InboundCounters = Pick<RelayReceivedMedia, 'framesDecoded' | 'frameWidth' | 'packetsReceived' | 'bytesReceived'>;

function inbound(report: RTCStatsReport | undefined): InboundCounters {
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

async function start(): Promise<void> {
  const store = createStore();
  const bridge = new SessionBridge(store);
  await bridge.start();
  const rooms = (bridge.session as unknown as { rooms: Remote<RoomsCommands> }).rooms;
  // As the call tab does: the engine claims the call's Jingle before the call is joined, so no offer finds nobody to take it.
  const roomId = await bridge.session.openRoom(bridge.tabId, roomName, { autoJoinCall: false });
  const room = await when(store, (state) => {
    const found = state.rooms[roomId];
    return found?.joined && found.address && found.selfAddress && state.connection.callConfig ? found : undefined;
  });
  const roomAddress = room.address ?? '';
  const selfAddress = room.selfAddress ?? '';
  const errors: string[] = [];
  const logger = { info: () => {}, error: (message: string) => errors.push(message) };
  const media = new MediaItems({ clock: systemClock });
  const camera = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 1280, height: 720, frameRate: 10 } });
  const [audioTrack] = camera.getAudioTracks();
  const [videoTrack] = camera.getVideoTracks();
  if (!audioTrack || !videoTrack) throw new Error('the fake devices gave no camera or microphone');
  media.share(media.addLocalAudio(audioTrack, camera).id);
  media.share(media.addLocalVideo(videoTrack, camera).id);

  const engine = new CallEngine({
    roomAddress,
    store,
    signaling: new BridgeCallSignaling(bridge),
    media,
    iceServers: store.get(sessionStateAtom).connection.callConfig?.iceServers ?? [],
    clock: systemClock,
    logger,
    locks: navigator.locks,
    reportPeerMedia: async () => undefined,
  });
  const sendLoads: VideoSendLoad[] = [];
  engine.on('sendLoad', (load) => sendLoads.push(load));
  await engine.start();
  await rooms.joinCall(roomAddress);
  await when(store, (state) => state.calls[roomAddress]?.joined || undefined);

  const shownCamera = (owner: string): MediaItem | undefined => media.remote('video').findLast((item) => item.owner === owner && !item.screenCapture);
  const shown = new Map<string, ShownFrame[]>();

  window.relayFixture = {
    selfAddress,
    selfId: selfAddress.slice(selfAddress.indexOf('/') + 1),
    roomAddress,
    pageLoadId: crypto.randomUUID(),
    cameraStreamId: camera.id,
    cameraWidth: videoTrack.getSettings().width ?? 0,
    connections: () => Object.values(store.get(connectionsAtom)),
    relayStatus: () => store.get(relayStatusAtom)[roomAddress],
    sendLoad: () => sendLoads.at(-1),
    received: () =>
      Promise.all(
        media.remote().map(async (item) => {
          const path = store.get(receivedPathsAtom)[item.id];
          return {
            id: item.id,
            kind: item.kind,
            owner: item.owner ?? '',
            screenCapture: item.screenCapture,
            path: path?.path,
            layer: path?.layer,
            ...inbound(await engine.receiver(item.id)?.getStats()),
          };
        }),
      ),
    setTileNeed: (mediaId, need) => engine.setTileNeed(mediaId, need),
    watchShownVideo: (owner) => {
      const samples: ShownFrame[] = [];
      shown.set(owner, samples);
      setInterval(() => {
        const item = shownCamera(owner);
        const at = performance.now();
        if (!item) {
          samples.push({ at, id: undefined, path: undefined, framesDecoded: 0 });
          return;
        }
        const path = store.get(receivedPathsAtom)[item.id]?.path;
        const receiver = engine.receiver(item.id);
        if (!receiver) samples.push({ at, id: item.id, path, framesDecoded: 0 });
        else void receiver.getStats().then((report) => samples.push({ at, id: item.id, path, framesDecoded: inbound(report).framesDecoded }));
      }, 200);
    },
    shownVideo: (owner) => [...(shown.get(owner) ?? [])].sort((a, b) => a.at - b.at),
    errors,
    leaveCall: () => rooms.leaveCall(roomAddress),
  };
}

start().catch((error: unknown) => {
  window.relayFixtureError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
});
