import { BridgeCallSignaling } from '../../../src/main-thread/call/BridgeCallSignaling';
import { connectionsAtom, receivedPathsAtom } from '../../../src/main-thread/call/callAtoms';
import { Call } from '../../../src/main-thread/call/Call';
import { followFrameSize } from '../../../src/main-thread/callTab/followFrameSize';
import { MediaItems, type MediaItem, type VideoSendLoad } from '../../../src/main-thread/media';
import { relayStatusAtom } from '../../../src/main-thread/call/relay/relayAtoms';
import { sessionStateAtom } from '../../../src/main-thread/sessionAtoms';
import { systemClock } from '../../../src/common/clock';
import { inbound, openFixtureRoom, shareCameraAndMicrophone, when } from '../fixture-session';
import type { SentVideoLayer, ShownFrame } from './api';

/**
 * The call engine with the media relay on, without the call UI: `?room=<name>` opens the room
 * through the shared session, joins the call, captures the fake camera (1280×720, the relay's
 * capture tier) and microphone and runs a Call, exposing `window.relayFixture`. Each remote video
 * plays in a small <video> element, whose frame sizes tell the Call the layer arriving, as a tile's do.
 */

const roomName = new URLSearchParams(location.search).get('room') ?? '';

/** Every RTCPeerConnection the page makes from now on (mediasoup-client's ingest included), for `sentVideoLayers`. */
const peerConnections: RTCPeerConnection[] = [];
const NativePeerConnection = window.RTCPeerConnection;
window.RTCPeerConnection = class extends NativePeerConnection {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    peerConnections.push(this);
  }
};

async function sentVideoLayers(): Promise<SentVideoLayer[]> {
  const open = peerConnections.filter((connection) => connection.connectionState !== 'closed');
  const reports = await Promise.all(open.map((connection) => connection.getStats()));
  return reports.flatMap((report) => {
    const stats = [...report.values()] as Array<Record<string, unknown>>;
    const pair = stats.find((entry) => entry['type'] === 'candidate-pair' && entry['nominated'] === true);
    return stats
      .filter((entry) => entry['type'] === 'outbound-rtp' && entry['kind'] === 'video')
      .map((entry) => ({
        rid: entry['rid'] as string | undefined,
        active: entry['active'] as boolean | undefined,
        frameWidth: entry['frameWidth'] as number | undefined,
        framesPerSecond: entry['framesPerSecond'] as number | undefined,
        qualityLimitationReason: entry['qualityLimitationReason'] as string | undefined,
        targetBitrate: entry['targetBitrate'] as number | undefined,
        availableOutgoingBitrate: pair?.['availableOutgoingBitrate'] as number | undefined,
      }));
  });
}

/** Plays each remote video item in a small element while it lasts, its frame sizes going to `engine` (Call.setFrameSize). */
function playRemoteVideos(media: MediaItems, engine: Call): void {
  const playing = new Map<string, () => void>();
  media.on('added', (item) => {
    const track = media.getTrack(item.id);
    if (item.source !== 'remote' || item.kind !== 'video' || !track) return;
    const element = document.createElement('video');
    Object.assign(element, { muted: true, autoplay: true, width: 64, height: 36, srcObject: new MediaStream([track]) });
    document.body.append(element);
    const unfollow = followFrameSize(element, (size) => engine.setFrameSize(item.id, size));
    playing.set(item.id, () => {
      unfollow();
      element.srcObject = null;
      element.remove();
    });
  });
  media.on('removed', (item) => {
    playing.get(item.id)?.();
    playing.delete(item.id);
  });
}

async function start(): Promise<void> {
  // As the call tab does: the engine claims the call's Jingle before the call is joined, so no offer finds nobody to take it.
  const { store, bridge, rooms, roomAddress, selfAddress } = await openFixtureRoom(roomName, {
    autoJoinCall: false,
    ready: (state) => state.connection.callConfig !== undefined,
  });
  const errors: string[] = [];
  const logger = { info: () => {}, error: (message: string) => errors.push(message) };
  const media = new MediaItems({ clock: systemClock });
  const { stream, videoTrack } = await shareCameraAndMicrophone(media, { width: 1280, height: 720, frameRate: 10 });

  const engine = new Call({
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
  playRemoteVideos(media, engine);
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
    cameraStreamId: stream.id,
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
    sentVideoLayers,
    errors,
    leaveCall: () => rooms.leaveCall(roomAddress),
  };
}

start().catch((error: unknown) => {
  window.relayFixtureError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
});
