import { createClient, type Agent, type Stanzas } from 'stanza';
import { BridgeCallSignaling } from '../../../src/main-thread/call/BridgeCallSignaling';
import type { CallSignaling } from '../../../src/main-thread/call/CallSignaling';
import { connectionsAtom } from '../../../src/main-thread/call/callAtoms';
import { CallEngine } from '../../../src/main-thread/call/CallEngine';
import { MediaItems } from '../../../src/main-thread/media';
import { parleyStanzas } from '../../../src/protocol/stanzas';
import { systemClock } from '../../../src/common/clock';
import type { PeerMediaChange } from '../../../src/main-thread/call/peerMedia';
import { inbound, openFixtureRoom, shareCameraAndMicrophone } from '../fixture-session';
import type { SentJingle } from './api';

/**
 * The call engine without the call UI (which does not exist yet): `?room=<name>` opens the room
 * through the shared session, joins the call, captures the fake camera and microphone and runs a
 * CallEngine, exposing `window.callFixture`. `?mode=plain` is instead an independent client: plain
 * StanzaJS with its own jingle plugin and websocket, as another XMPP client would be.
 */

const params = new URLSearchParams(location.search);
const roomName = params.get('room') ?? '';

async function startParley(): Promise<void> {
  const { store, bridge, rooms, roomAddress, selfAddress } = await openFixtureRoom(roomName, {
    autoJoinCall: true,
    ready: (state, roomAddress) => state.calls[roomAddress]?.joined === true,
  });
  const errors: string[] = [];
  const logger = { info: () => {}, error: (message: string) => errors.push(message) };
  const media = new MediaItems({ clock: systemClock });
  const { microphone, camera } = await shareCameraAndMicrophone(media, { width: 320, height: 240, frameRate: 15 });

  const reports: Array<{ peerAddress: string; change: PeerMediaChange }> = [];
  // Records what the engine puts on the wire, for the test to check PROTOCOL.md's shapes.
  const sentJingle: SentJingle[] = [];
  const bridgeSignaling = new BridgeCallSignaling(bridge);
  const signaling: CallSignaling = {
    send: (iq) => {
      const jingle = (iq as { jingle?: Stanzas.Jingle }).jingle;
      if (jingle?.action) sentJingle.push({ action: jingle.action, to: iq.to ?? '', contents: (jingle.contents ?? []).map((content) => ({ name: content.name, senders: content.senders })) });
      return bridgeSignaling.send(iq);
    },
    claimCall: (address, handler) => bridgeSignaling.claimCall(address, handler),
    releaseCall: (address) => bridgeSignaling.releaseCall(address),
  };
  const engine = new CallEngine({
    roomAddress,
    store,
    signaling,
    media,
    iceServers: [],
    clock: systemClock,
    logger,
    locks: navigator.locks,
    reportPeerMedia: async (peerAddress, change) => {
      reports.push({ peerAddress, change });
    },
    // These tests are of the mesh itself: three people stay on it (tests/e2e/relay-call.spec.ts covers the relay).
    mediaRelay: false,
  });
  await engine.start();

  let screenId: string | undefined;
  window.callFixture = {
    selfAddress,
    roomAddress,
    connections: () => Object.values(store.get(connectionsAtom)),
    received: () =>
      Promise.all(
        media.remote().map(async (item) => ({
          id: item.id,
          kind: item.kind,
          owner: item.owner ?? '',
          screenCapture: item.screenCapture,
          remoteDisabled: item.remoteDisabled,
          name: item.name,
          ...inbound(await engine.receiver(item.id)?.getStats()),
        })),
      ),
    cameraFramesEncoded: async () => {
      const encoded: Record<string, number> = {};
      for (const [peer, sender] of engine.senders(camera.id)) {
        (await sender.getStats()).forEach((stat: { type: string; framesEncoded?: number }) => {
          if (stat.type === 'outbound-rtp') encoded[peer] = (encoded[peer] ?? 0) + (stat.framesEncoded ?? 0);
        });
      }
      return encoded;
    },
    videoMaxBitrates: () => {
      const bitrates: Record<string, Array<number | undefined>> = {};
      for (const id of [camera.id, ...(screenId === undefined ? [] : [screenId])]) {
        for (const [peer, sender] of engine.senders(id)) {
          bitrates[peer] = [...(bitrates[peer] ?? []), sender.getParameters().encodings[0]?.maxBitrate];
        }
      }
      return bitrates;
    },
    reports,
    sentJingle,
    errors,
    setMicrophoneMuted: (muted) => void media.setLocalDisabled(microphone.id, muted),
    shareScreen: async () => {
      const screen = await navigator.mediaDevices.getDisplayMedia({ video: true });
      const [track] = screen.getVideoTracks();
      if (!track) throw new Error('no screen track');
      screenId = media.addLocalScreen(track, screen).id;
      media.share(screenId);
      return screenId;
    },
    stopScreen: () => {
      if (screenId !== undefined) media.remove(screenId);
    },
    requestProfile: (mediaId, profile) => engine.requestVideoProfile(mediaId, profile),
    leaveCall: () => rooms.leaveCall(roomAddress),
  };
}

async function post(url: string, body: unknown, bearer?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Another client in the room: plain StanzaJS, its own websocket, StanzaJS's own jingle wiring. */
async function startPlain(): Promise<void> {
  const config = await post('/api/config', { clientVersion: '1.30.3' });
  const { roomAddress } = await post(String(config.roomConfigUrl), { name: roomName }, String(config.credential));
  const nick = String(config.id);
  const client: Agent = createClient({
    jid: String(config.userId),
    password: String(config.credential),
    resource: nick,
    transports: { websocket: String(config.signalingUrl), bosh: false },
    autoReconnect: false,
  });
  client.use(parleyStanzas);
  client.jingle.resetICEServers();
  const sentInitiates: string[] = [];
  client.on('raw:outgoing', (xml) => {
    if (xml.includes('session-initiate')) sentInitiates.push(xml);
  });
  client.on('jingle:incoming', (session) => void session.accept());
  await new Promise<void>((resolve) => {
    client.once('session:started', () => resolve());
    void client.connect();
  });
  await client.joinRoom(String(roomAddress), nick, { mmucConf: { media: 'video' } });
  window.plainClient = {
    occupantAddress: `${String(roomAddress)}/${nick}`,
    sentInitiates,
    offerTo: async (peerAddress) => {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 320, height: 240, frameRate: 15 } });
      const session = client.jingle.createMediaSession(peerAddress);
      // SimpleWebRTC's shape: the sender initiates and only sends.
      for (const track of stream.getTracks()) session.pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
      await session.start();
      return session.sid;
    },
    failIncoming: () => {
      const incoming = Object.values(client.jingle.sessions).filter((session) => !session.isInitiator);
      for (const session of incoming) session.end('failed-transport');
      return incoming.map((session) => session.sid);
    },
  };
}

(params.get('mode') === 'plain' ? startPlain() : startParley()).catch((error: unknown) => {
  window.fixtureError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
});
