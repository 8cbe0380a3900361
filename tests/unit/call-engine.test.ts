import { createRequire } from 'node:module';
import type { Stanzas } from 'stanza';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectionsAtom, heldPeersAtom, receivedPathsAtom } from '../../src/main-thread/call/callAtoms';
import { Call } from '../../src/main-thread/call/Call';
import type { SizedEncoding } from '../../src/main-thread/call/mesh/meshVideoSize';
import type { PeerMediaChange } from '../../src/main-thread/call/peerMedia';
import { DeviceManager, MediaCapture, MediaItems, type MediaDevicesApi } from '../../src/main-thread/media';
import { OperationQueue } from '../../src/common/OperationQueue';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import { SESSION_TERMINATION, TOTAL_VIDEO_BITRATE_BPS } from '../../src/protocol/constants';
import type { CallRecord, Peer, RequestingMedia, Room, RoomEvent } from '../../src/protocol/entities';
import { BUSY_RECOMPUTE_AFTER_MS, CAMERA_STOP, DEPARTURE_HOLD, MESH_VIDEO_SIZE, RECEIVE_FIRST, PREPARED_OFFER, REJOIN_GRACE_MS, SESSION_CONNECT_LIMIT_MS } from '../../src/protocol/clientDefaults';
import { initialSessionState } from '../../src/protocol/session-state';
import { flushMicrotasks, ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { RelayIngest } from '../../src/main-thread/call/relay/RelayIngest';
import { offersIceLite } from '../../src/main-thread/call/relay/relayJingle';
import { RelayRpcClient } from '../../src/main-thread/call/relay/RelayRpcClient';
import { FakeJingleNetwork, FakePeerConnection, grantingLocks, type FakeReceiver } from './call-fakes';
import { FakeMediaDevices, settle } from './callTab-fakes';
import { FakeIngest, FakeRelayConnection, MICROPHONE_CONSUMER_OFFER } from './relay-fakes';
import { fakeStandInCamera, FakeStream, FakeTrack } from './track-fakes';

vi.mock('mediasoup-client', () => ({
  Device: class {
    async load(): Promise<void> {}
  },
}));

const ROOM = 'room@muc.example';
/** StanzaJS's SDP → Jingle conversion, through the module object its sessions call (so a spy sees their calls). */
const Intermediate = createRequire(import.meta.url)('stanza/jingle/sdp/Intermediate') as { importFromSDP: (sdp: string) => unknown };

interface Person {
  address: string;
  store: ReturnType<typeof createStore>;
  media: MediaItems;
  engine: Call;
  reports: Array<{ peerAddress: string; change: PeerMediaChange }>;
  errors: string[];
  /** The RTCPeerConnections this person's engine created. */
  pcs: FakePeerConnection[];
}

interface World {
  clock: ManualClock;
  network: FakeJingleNetwork;
  people: Person[];
}

let world: World | undefined;

function newWorld(): World {
  world = { clock: new ManualClock(), network: new FakeJingleNetwork(), people: [] };
  return world;
}

afterEach(async () => {
  for (const person of world?.people ?? []) await person.engine.close();
  world = undefined;
});

function peerRecord(address: string, requestingMedia: RequestingMedia, isSelf: boolean): Peer {
  return { address, roomAddress: ROOM, joinedCall: requestingMedia !== undefined, requestingMedia, isSelf, muted: false, hasActiveCamera: false, hasActiveMicrophone: false, hasActiveScreenCapture: false, sessionFailed: false } as Peer;
}

/** What `person`'s mirrored state says: in the call or not, and the others with what they request. */
function setView(person: Person, inCall: boolean, others: Record<string, RequestingMedia | 'out'>): void {
  const state = initialSessionState();
  state.rooms.r1 = { id: 'r1', address: ROOM, joined: true, selfAddress: person.address } as Room;
  state.calls[ROOM] = { roomAddress: ROOM, joined: inCall, requestingMedia: inCall ? 'video' : 'none' } as CallRecord;
  state.peers[person.address] = peerRecord(person.address, 'video', true);
  for (const [address, media] of Object.entries(others)) {
    state.peers[address] = { ...peerRecord(address, media === 'out' ? 'none' : media, false), joinedCall: media !== 'out' };
  }
  person.store.set(sessionStateAtom, state);
}

/**
 * SPEC §4 on a lost connection, as `person`'s mirror shows it: every peer cleared, the room
 * interrupted (it was joined), the call record still joined. `back` lists who is in the room again
 * once our rejoin completed (undefined: still waiting for it).
 */
function setLostConnection(person: Person, back?: readonly Person[]): void {
  const state = person.store.get(sessionStateAtom);
  const room = state.rooms.r1!;
  const peers = Object.fromEntries(
    [person, ...(back ?? [])].map((someone) => [someone.address, { ...peerRecord(someone.address, 'video', someone === person), joinedCall: true }]),
  );
  const rejoined: Partial<Room> = back ? { joined: true, roomState: 'joined' } : { joined: false, roomState: 'interrupted' };
  person.store.set(sessionStateAtom, { ...state, rooms: { r1: { ...room, joinedAt: 1, ...rejoined } }, peers: back ? peers : {} });
}

async function join(w: World, nick: string): Promise<Person> {
  const address = `${ROOM}/${nick}`;
  const store = createStore();
  const media = new MediaItems({ clock: w.clock });
  const reports: Person['reports'] = [];
  const errors: string[] = [];
  const pcs: FakePeerConnection[] = [];
  const engine = new Call({
    roomAddress: ROOM,
    store,
    signaling: w.network.signalingFor(address),
    media,
    iceServers: [],
    clock: w.clock,
    logger: { info: () => {}, error: (message) => errors.push(message) },
    locks: grantingLocks,
    reportPeerMedia: async (peerAddress, change) => {
      reports.push({ peerAddress, change });
    },
    createPeerConnection: () => {
      const pc = new FakePeerConnection();
      pcs.push(pc);
      return pc as unknown as RTCPeerConnection;
    },
  });
  const person: Person = { address, store, media, engine, reports, errors, pcs };
  w.people.push(person);
  return person;
}

/** Everyone sees everyone in the call, requesting video. */
function allInCall(w: World): void {
  for (const person of w.people) setView(person, true, Object.fromEntries(w.people.filter((other) => other !== person).map((other) => [other.address, 'video' as const])));
}

/** The Opus fmtp lines of a fake connection's description (Opus is its payload type 111). */
function opusFmtpOf(sdp: string | undefined): string[] {
  return (sdp ?? '').split('\r\n').filter((line) => line.startsWith('a=fmtp:111 '));
}

function shareCamera(person: Person): { mic: string; camera: string } {
  const audio = new FakeTrack('audio');
  const video = new FakeTrack('video');
  const stream = new FakeStream([audio, video]) as unknown as MediaStream;
  const mic = person.media.addLocalAudio(audio as unknown as MediaStreamTrack, stream).id;
  const camera = person.media.addLocalVideo(video as unknown as MediaStreamTrack, stream).id;
  person.media.share(mic);
  person.media.share(camera);
  return { mic, camera };
}

/** Shares a screen, with its sound (one stream, as getDisplayMedia gives them) when `withSound`; returns the screen's id. */
function shareScreen(person: Person, { withSound = false } = {}): string {
  const video = new FakeTrack('video');
  const sound = withSound ? new FakeTrack('audio') : undefined;
  const stream = new FakeStream(sound ? [video, sound] : [video]) as unknown as MediaStream;
  const id = person.media.addLocalScreen(video as unknown as MediaStreamTrack, stream).id;
  person.media.share(id);
  if (sound) person.media.share(person.media.addLocalScreenAudio(sound as unknown as MediaStreamTrack, stream).id);
  return id;
}

/** Alice and Bob in the call, Bob receiving Alice's camera and voice. */
async function aliceSendingToBob(w: World): Promise<{ alice: Person; bob: Person; mic: string }> {
  const alice = await join(w, 'alice');
  const bob = await join(w, 'bob');
  const { mic } = shareCamera(alice);
  allInCall(w);
  await Promise.all([alice.engine.start(), bob.engine.start()]);
  await until(() => remoteFrom(bob, alice).length === 2, 'camera and voice received');
  return { alice, bob, mic };
}

function remoteFrom(person: Person, owner: Person) {
  return person.media.forPeer(owner.address);
}

function connections(person: Person) {
  return Object.values(person.store.get(connectionsAtom));
}

/** The connection `from` sends to `to` on, and `to`'s RTCPeerConnection for it. */
function sending(from: Person, to: Person) {
  return connections(from).filter((record) => record.peerAddress === to.address && (record.sendingAudioMediaId ?? record.sendingVideoMediaId) !== undefined);
}

function connectAll(w: World): void {
  for (const person of w.people) for (const pc of person.pcs) if (pc.signalingState === 'stable' && pc.iceConnectionState === 'new') pc.setIceState('connected');
}

/** Alice, and Bob if `bobShares`, share camera and microphone; both in the call, each receiving what the other sends. */
async function aliceAndBobInCall(w: World, bobShares: boolean): Promise<{ alice: Person; bob: Person }> {
  const alice = await join(w, 'alice');
  const bob = await join(w, 'bob');
  shareCamera(alice);
  if (bobShares) shareCamera(bob);
  allInCall(w);
  await Promise.all([alice.engine.start(), bob.engine.start()]);
  await until(() => remoteFrom(bob, alice).length === 2 && (!bobShares || remoteFrom(alice, bob).length === 2), 'receiving');
  return { alice, bob };
}

describe('Call: sessions follow the room (PROTOCOL.md one-way sessions)', () => {
  it('two people: each initiates one session with camera and microphone, senders initiator; each receives the other', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    shareCamera(bob);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);

    await until(() => remoteFrom(alice, bob).length === 2 && remoteFrom(bob, alice).length === 2, 'both receiving');
    const initiate = w.network.log.find((entry) => entry.from === alice.address && entry.jingle.action === 'session-initiate');
    expect(initiate?.to).toBe(bob.address);
    expect(initiate?.jingle.contents?.map((content) => [content.name, content.senders])).toEqual([
      ['0', 'initiator'],
      ['1', 'initiator'],
    ]);
    expect(w.network.actions(alice.address, bob.address).filter((action) => action === 'session-initiate')).toHaveLength(1);
    expect(w.network.actions(bob.address, alice.address)).toContain('session-accept');
    expect(remoteFrom(alice, bob).map((item) => item.kind).sort()).toEqual(['audio', 'video']);

    connectAll(w);
    await until(() => connections(alice).every((record) => record.connectionState === 'connected'), 'connected');
    expect(connections(alice)).toHaveLength(2);
    // SPEC §9: one receiver, one shared video: the whole budget.
    await until(() => alice.pcs.some((pc) => pc.getSenders().some((sender) => sender.encodings[0]?.maxBitrate === TOTAL_VIDEO_BITRATE_BPS)), 'bitrate set');
    expect(alice.reports.filter((report) => report.peerAddress === bob.address).at(-1)?.change).toMatchObject({ hasActiveCamera: true, hasActiveMicrophone: true });
  });

  it('an audio-only peer gets the microphone only; a new joiner gets a session; a leaver loses its sessions and media', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    const carol = await join(w, 'carol');
    shareCamera(alice);
    setView(alice, true, { [bob.address]: 'audio' });
    setView(bob, true, { [alice.address]: 'video' });
    setView(carol, true, { [alice.address]: 'video', [bob.address]: 'audio' });
    await Promise.all(w.people.map((person) => person.engine.start()));
    await until(() => remoteFrom(bob, alice).length === 1, 'bob receives');
    expect(remoteFrom(bob, alice).map((item) => item.kind)).toEqual(['audio']);
    expect(alice.pcs[0]?.sentKinds()).toEqual(['audio']);

    // Carol joins the call: alice starts a session to her.
    setView(alice, true, { [bob.address]: 'audio', [carol.address]: 'video' });
    await until(() => remoteFrom(carol, alice).length === 2, 'carol receives');
    // SPEC §9: bob takes no video, so carol alone divides the budget.
    await until(() => alice.pcs.some((pc) => pc.getSenders().some((sender) => sender.encodings[0]?.maxBitrate === TOTAL_VIDEO_BITRATE_BPS)), 'bitrate set');

    // Bob leaves the call: alice ends her session to him, and bob drops what he received.
    setView(alice, true, { [bob.address]: 'out', [carol.address]: 'video' });
    await until(() => remoteFrom(bob, alice).length === 0, 'bob no longer receives');
    expect(sending(alice, bob)).toEqual([]);
    expect(w.network.actions(alice.address, bob.address).at(-1)).toBe('session-terminate');
    expect(w.network.log.findLast((entry) => entry.from === alice.address && entry.to === bob.address)?.jingle.reason?.condition).toBe('success');
    expect(alice.errors).toEqual([]);
  });

  it('camera and screen travel in separate sessions; the screen is marked by description-info and arrives as a screen capture', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 2, 'camera received');
    const screen = shareScreen(alice);
    await until(() => remoteFrom(bob, alice).some((item) => item.screenCapture), 'screen received');
    expect(sending(alice, bob)).toHaveLength(2);
    const describe = w.network.log.find((entry) => entry.jingle.action === 'description-info');
    expect(describe?.jingle.contents).toEqual([
      { creator: 'initiator', name: 'video', application: { applicationType: 'urn:xmpp:jingle:apps:rtp:1', media: 'video', screenCaptures: [{ id: alice.media.getTrack(screen)?.id }] } },
    ]);
    expect(remoteFrom(bob, alice).filter((item) => item.kind === 'video' && !item.screenCapture)).toHaveLength(1);
    // The mark reaches alice's peer record ("sharing screen"), though nothing else changed meanwhile.
    await until(() => bob.reports.findLast((report) => report.peerAddress === alice.address && report.change.hasActiveScreenCapture !== undefined)?.change.hasActiveScreenCapture === true, 'screen reported');
    // SPEC §9: one receiver × two shared videos.
    await until(() => alice.pcs.every((pc) => pc.getSenders().every((sender) => sender.track?.kind !== 'video' || sender.encodings[0]?.maxBitrate === TOTAL_VIDEO_BITRATE_BPS / 2)), 'halved');

    alice.media.remove(screen);
    await until(() => !remoteFrom(bob, alice).some((item) => item.screenCapture), 'screen gone');
    expect(sending(alice, bob)).toHaveLength(1);
  });

  it("a screen shared with its sound: the sound travels in the screen's session and arrives as the screen's, while the person's microphone and mute stay their voice's", async () => {
    const w = newWorld();
    const { alice, bob, mic } = await aliceSendingToBob(w);
    const screen = shareScreen(alice, { withSound: true });
    const received = (kind: 'audio' | 'video', screenCapture: boolean) => remoteFrom(bob, alice).filter((item) => item.kind === kind && item.screenCapture === screenCapture);
    await until(() => received('audio', true).length === 1 && received('video', true).length === 1, "the screen and its sound received as the screen's");
    expect(received('audio', false)).toHaveLength(1);
    expect(sending(alice, bob)).toHaveLength(2);
    const screenSession = connections(bob).find((record) => record.receivingVideoMediaId === received('video', true)[0]?.id);
    expect(screenSession?.receivingAudioMediaId).toBe(received('audio', true)[0]?.id);
    const latest = () => bob.reports.filter((report) => report.peerAddress === alice.address).reduce((facts, report) => ({ ...facts, ...report.change }), {} as PeerMediaChange);
    await until(() => latest().hasActiveScreenCapture === true, 'sharing reported');
    expect([latest().hasActiveMicrophone, latest().muted ?? false]).toEqual([true, false]);

    // Alice mutes her microphone: she is muted, without a live microphone, and her screen's sound still plays.
    alice.media.setLocalDisabled(mic, true);
    await until(() => latest().muted === true && latest().hasActiveMicrophone === false, 'muted reported');
    expect(received('audio', true)[0]?.remoteDisabled).toBe(false);

    alice.media.remove(screen);
    await until(() => received('audio', true).length === 0 && received('video', true).length === 0, 'the screen and its sound gone');
    expect(received('audio', false)).toHaveLength(1);
  });

  it("a screen's sound is offered in stereo and answered so, and its sender sends it at SCREEN_SOUND_BITRATE_BPS; the voice stays mono", async () => {
    const w = newWorld();
    const { alice, bob } = await aliceSendingToBob(w);
    shareScreen(alice, { withSound: true });
    await until(() => remoteFrom(bob, alice).filter((item) => item.screenCapture).length === 2, "the screen and its sound received");
    const opusOf = (jingle: Stanzas.Jingle) =>
      (jingle.contents ?? []).flatMap((content) => ((content.application as Stanzas.JingleRtpDescription | undefined)?.codecs ?? []).filter((codec) => codec.name === 'opus').map((codec) => codec.parameters ?? {}));
    const sessions = (action: string) => w.network.log.filter((entry) => entry.jingle.action === action);
    const [voice, screen] = sessions('session-initiate').filter((entry) => entry.from === alice.address);
    expect([opusOf(voice!.jingle), opusOf(screen!.jingle)]).toEqual([[{}], [{ 'sprop-stereo': '1' }]]);
    const answerTo = (initiate: typeof voice) => sessions('session-accept').find((entry) => entry.jingle.sid === initiate!.jingle.sid)!;
    expect([opusOf(answerTo(voice).jingle), opusOf(answerTo(screen).jingle)]).toEqual([[{}], [{ stereo: '1' }]]);
    const applied = alice.pcs.map((pc) => opusFmtpOf(pc.remoteDescription?.sdp));
    expect(applied).toEqual(expect.arrayContaining([[], ['a=fmtp:111 stereo=1;maxaveragebitrate=96000']]));
  });

  it('mute and unmute go out as session-info and mark the receiver’s item and peer', async () => {
    const w = newWorld();
    const { alice, bob, mic } = await aliceSendingToBob(w);

    alice.media.setLocalDisabled(mic, true);
    await until(() => remoteFrom(bob, alice).find((item) => item.kind === 'audio')?.remoteDisabled === true, 'muted there');
    expect(w.network.log.findLast((entry) => entry.jingle.action === 'session-info')?.jingle.info).toEqual({
      infoType: '{urn:xmpp:jingle:apps:rtp:info:1}mute',
      creator: 'initiator',
      name: 'audio',
    });
    await until(() => bob.reports.findLast((report) => report.peerAddress === alice.address)?.change.muted === true, 'muted reported');

    alice.media.setLocalDisabled(mic, false);
    await until(() => remoteFrom(bob, alice).find((item) => item.kind === 'audio')?.remoteDisabled === false, 'unmuted there');
    await until(() => bob.reports.findLast((report) => report.peerAddress === alice.address)?.change.muted === false, 'unmuted reported');
  });

  it("a receiver's profile off pauses the sender's video on that session and low resumes it", async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 2, 'received');
    const video = remoteFrom(bob, alice).find((item) => item.kind === 'video');
    const sender = alice.pcs[0];
    await bob.engine.requestVideoProfile(video?.id ?? '', 'off');
    await until(() => sender?.videoEncodingActive() === false, 'paused');
    expect(bob.media.get(video?.id ?? '')?.profile).toBe('off');
    await bob.engine.requestVideoProfile(video?.id ?? '', 'low');
    await until(() => sender?.videoEncodingActive() === true, 'resumed');
  });
});

describe('Call: a direct camera video goes at the size its receiver asks for (PROTOCOL.md quality, MESH_VIDEO_SIZE)', () => {
  /** The encoding `from` sends a local item to `to` with: its size cap (none: the whole capture), and whether it goes at all. */
  function sentTo(from: Person, itemId: string, to: Person): SizedEncoding | undefined {
    return from.engine.senders(itemId).get(to.address)?.getParameters().encodings[0];
  }

  it('until Bob asks, Alice’s camera goes at medium (640×360 at most); low at 320×180, high sends the whole capture, off pauses it at the size it had', async () => {
    const { alice, bob } = await aliceAndBobInCall(newWorld(), false);
    const camera = alice.media.local().find((item) => item.kind === 'video')?.id ?? '';
    expect(sentTo(alice, camera, bob)?.scaleResolutionDownTo).toEqual({ maxWidth: 640, maxHeight: 360 });
    const video = remoteFrom(bob, alice).find((item) => item.kind === 'video')?.id ?? '';
    await bob.engine.requestVideoProfile(video, 'low');
    await until(() => sentTo(alice, camera, bob)?.scaleResolutionDownTo?.maxHeight === 180, 'low');
    await bob.engine.requestVideoProfile(video, 'high');
    await until(() => sentTo(alice, camera, bob)?.scaleResolutionDownTo === undefined, 'the whole capture');
    await bob.engine.requestVideoProfile(video, 'off');
    await until(() => sentTo(alice, camera, bob)?.active === false, 'paused');
    expect(sentTo(alice, camera, bob)?.scaleResolutionDownTo).toBeUndefined();
    await bob.engine.requestVideoProfile(video, 'medium');
    await until(() => sentTo(alice, camera, bob)?.active === true && sentTo(alice, camera, bob)?.scaleResolutionDownTo?.maxWidth === 640, 'medium again');
  });

  it('an offer made ahead starts its camera at medium too', async () => {
    const w = newWorld();
    const { alice } = await aliceAloneInCall(w);
    await w.clock.advance(PREPARED_OFFER.delayMs);
    await until(() => alice.pcs[0]?.signalingState === 'have-local-offer', 'the offer made ahead');
    expect(alice.pcs[0]?.videoEncoding()?.scaleResolutionDownTo).toEqual({ maxWidth: 640, maxHeight: 360 });
  });

  it('a receiver that asks nothing (a SimpleWebRTC 1.30.3 app) gets the whole capture MESH_VIDEO_SIZE.unaskedAfterMs after it accepted; one that asked keeps its size', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    const carol = await join(w, 'carol');
    const { camera } = shareCamera(alice);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start(), carol.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 2 && remoteFrom(carol, alice).length === 2, 'both receive alice');
    const video = remoteFrom(bob, alice).find((item) => item.kind === 'video')?.id ?? '';
    await bob.engine.requestVideoProfile(video, 'low');
    await until(() => sentTo(alice, camera, bob)?.scaleResolutionDownTo?.maxWidth === 320, 'low to bob');
    expect(sentTo(alice, camera, carol)?.scaleResolutionDownTo?.maxWidth).toBe(640);
    await w.clock.advance(MESH_VIDEO_SIZE.unaskedAfterMs - 1);
    expect(sentTo(alice, camera, carol)?.scaleResolutionDownTo?.maxWidth).toBe(640);
    await w.clock.advance(1);
    await until(() => sentTo(alice, camera, carol)?.scaleResolutionDownTo === undefined, 'the whole capture to carol');
    expect(sentTo(alice, camera, bob)?.scaleResolutionDownTo?.maxWidth).toBe(320);
  });

  it('a screen share goes whole whatever its receiver asks; off still pauses it', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    const screen = shareScreen(alice);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 1, 'bob receives the screen');
    expect(sentTo(alice, screen, bob)?.scaleResolutionDownTo).toBeUndefined();
    const video = remoteFrom(bob, alice)[0]?.id ?? '';
    await bob.engine.requestVideoProfile(video, 'low');
    await bob.engine.requestVideoProfile(video, 'off');
    await until(() => sentTo(alice, screen, bob)?.active === false, 'paused');
    expect(sentTo(alice, screen, bob)?.scaleResolutionDownTo).toBeUndefined();
  });
});

describe('Call: session termination on fake time (SPEC §4)', () => {
  it('a responder not in the call declines; the sender flags the peer and tries again after 2 s', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    setView(alice, true, { [bob.address]: 'video' });
    setView(bob, false, { [alice.address]: 'video' });
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => w.network.actions(bob.address, alice.address).includes('session-terminate'), 'declined');
    expect(w.network.log.findLast((entry) => entry.from === bob.address)?.jingle.reason?.condition).toBe('decline');
    await until(() => alice.reports.some((report) => report.change.sessionFailed === true), 'flagged');
    expect(alice.errors).toEqual([expect.stringMatching(/ended: decline$/)]);
    expect(bob.errors).toEqual([]);
    // A declined offer never shows up as media.
    expect(bob.media.remote()).toEqual([]);

    const initiates = () => w.network.actions(alice.address, bob.address).filter((action) => action === 'session-initiate').length;
    expect(initiates()).toBe(1);
    await w.clock.advance(1_999);
    expect(initiates()).toBe(1);
    setView(bob, true, { [alice.address]: 'video' });
    await w.clock.advance(1);
    await until(() => initiates() === 2, 'started again');
    await until(() => remoteFrom(bob, alice).length === 2, 'accepted this time');
    connectAll(w);
    await until(() => alice.reports.findLast((report) => report.change.sessionFailed !== undefined)?.change.sessionFailed === false, 'flag cleared');
  });

  it("a responder whose ICE fails ends at once with failed-transport; the initiator starts again after 500 ms", async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 2, 'received');
    const initiates = () => w.network.actions(alice.address, bob.address).filter((action) => action === 'session-initiate').length;

    const failed: Array<{ by: string; bringingTheirMedia: boolean }> = [];
    for (const person of [alice, bob]) person.engine.on('sessionFailed', (error) => failed.push({ by: person.address, bringingTheirMedia: error.bringingTheirMedia }));
    bob.pcs[0]?.setIceState('failed');
    expect(w.network.log.at(-1)).toMatchObject({ from: bob.address, jingle: { action: 'session-terminate', reason: { condition: 'failed-transport' } } });
    expect(remoteFrom(bob, alice)).toEqual([]);
    await until(() => alice.errors.length === 1, 'initiator saw the failure');
    expect(alice.errors[0]).toMatch(/ended: failed-transport$/);
    // Each side says whose media the failed session brought: Bob's tile of Alice waits for hers again.
    expect(failed).toEqual(
      expect.arrayContaining([
        { by: bob.address, bringingTheirMedia: true },
        { by: alice.address, bringingTheirMedia: false },
      ]),
    );
    await w.clock.advance(499);
    expect(initiates()).toBe(1);
    await w.clock.advance(1);
    await until(() => initiates() === 2 && remoteFrom(bob, alice).length === 2, 'new session');
  });

  it('one failed session holds back only new sessions to its peer: the others to them run on, and the failed one starts again after its delay', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, false);
    connectAll(w);
    const camera = sending(alice, bob);
    shareScreen(alice);
    await until(() => remoteFrom(bob, alice).some((item) => item.screenCapture), 'screen received');
    const screenOffers = () => w.network.log.filter((entry) => entry.from === alice.address && entry.jingle.action === 'session-initiate').length;
    expect(screenOffers()).toBe(2);

    // Bob's connection for the screen fails (his is the last one made).
    bob.pcs.at(-1)?.setIceState('failed');
    await until(() => alice.errors.some((error) => error.endsWith('ended: failed-transport')), 'the screen session failed');
    await w.clock.advance(SESSION_TERMINATION.recomputeAfterFailedTransportMs - 1);
    // The camera's session is untouched meanwhile.
    expect(sending(alice, bob).map((record) => record.id)).toEqual(camera.map((record) => record.id));
    expect(w.network.log.filter((entry) => entry.jingle.action === 'session-terminate' && camera.some((record) => record.id === entry.jingle.sid))).toEqual([]);
    await w.clock.advance(1);
    await until(() => screenOffers() === 3 && remoteFrom(bob, alice).some((item) => item.screenCapture), 'the screen offered again');
    expect(remoteFrom(bob, alice).filter((item) => !item.screenCapture)).toHaveLength(2);
  });

  it('a session still interrupted after 5 s ends as failed-transport, and one that recovers in time does not', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 2, 'received');
    const pc = bob.pcs[0];
    pc?.setIceState('connected');
    pc?.setIceState('disconnected');
    await until(() => connections(bob)[0]?.connectionState === 'interrupted', 'interrupted');
    await w.clock.advance(4_000);
    pc?.setIceState('connected');
    await w.clock.advance(10_000);
    expect(connections(bob)).toHaveLength(1);

    pc?.setIceState('disconnected');
    await w.clock.advance(4_999);
    expect(connections(bob)).toHaveLength(1);
    await w.clock.advance(1);
    expect(connections(bob)).toEqual([]);
    expect(w.network.log.at(-1)).toMatchObject({ from: bob.address, jingle: { action: 'session-terminate', reason: { condition: 'failed-transport' } } });
  });

  it('a sender that left the room is gone: its sessions end here without a word', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 2, 'received');
    const sent = w.network.log.length;
    setView(bob, true, {});
    await until(() => connections(bob).length === 0, 'ended');
    expect(remoteFrom(bob, alice)).toEqual([]);
    expect(w.network.log.slice(sent)).toEqual([]);
    expect(bob.errors).toEqual([]);
  });

  it('leaving the call ends every session both ways', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    shareCamera(bob);
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(alice, bob).length === 2 && remoteFrom(bob, alice).length === 2, 'both receiving');
    // Her presence without <conf> reaches bob before her terminates do.
    setView(bob, true, { [alice.address]: 'out' });
    setView(alice, false, { [bob.address]: 'video' });
    await until(() => connections(alice).length === 0 && connections(bob).length === 0, 'all ended');
    expect(remoteFrom(alice, bob)).toEqual([]);
    expect(remoteFrom(bob, alice)).toEqual([]);
    expect([...alice.errors, ...bob.errors]).toEqual([]);
  });
});

/** How many session-initiates `from` has sent `to`. */
function initiatesOf(w: World, from: Person, to: Person): number {
  return w.network.actions(from.address, to.address).filter((action) => action === 'session-initiate').length;
}

/** `person` reports `peer` sessionFailed now (Peer.sessionFailed, SessionFailures). */
function flags(person: Person, peer: Person): boolean {
  return person.reports.findLast((report) => report.peerAddress === peer.address && report.change.sessionFailed !== undefined)?.change.sessionFailed === true;
}

/** The sessions `person` logged as ended with an error condition (SessionFailedError), not StanzaJS's own log lines. */
function failures(person: Person): string[] {
  return person.errors.filter((message) => / ended: /.test(message));
}

const isOffer = (from: Person) => (sender: string, jingle: Stanzas.Jingle) => sender === from.address && jingle.action === 'session-initiate';

describe('Call: an offer refused or never answered ends on both sides and is made anew after SPEC §4’s hold, never left pending for good (PROTOCOL.md one-way sessions)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('Bob cannot apply Alice’s offer: he answers it with an error and ends it failed-application; she flags him, offers again after 2 s, and he receives her camera and voice', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    // Bob's connection cannot take the first offer (the first offer any connection here is given).
    vi.spyOn(FakePeerConnection.prototype, 'setRemoteDescription').mockRejectedValueOnce(new Error('Failed to set remote offer sdp'));
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => flags(alice, bob), 'Alice flags Bob');
    expect(w.network.log.filter((entry) => entry.from === bob.address).map((entry) => [entry.jingle.action, entry.jingle.reason?.condition])).toEqual([['session-terminate', 'failed-application']]);
    expect(bob.pcs[0]?.signalingState).toBe('closed');
    expect(connections(bob)).toEqual([]);
    expect(connections(alice)).toEqual([]);
    expect(failures(alice)).toEqual([expect.stringMatching(/ended: failed-application \(general-error\)$/)]);

    await w.clock.advance(SESSION_TERMINATION.recomputeAfterOtherErrorMs - 1);
    expect(initiatesOf(w, alice, bob)).toBe(1);
    await w.clock.advance(1);
    await until(() => initiatesOf(w, alice, bob) === 2 && remoteFrom(bob, alice).length === 2, 'offered again and received');
    expect(connections(bob).map((record) => record.sessionState)).toEqual(['active']);
  });

  it('Alice’s offer refused wait/resource-constraint (Bob’s session worker holds as many of her sessions as it takes): she ends it and offers again only after BUSY_RECOMPUTE_AFTER_MS', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    w.network.refuse(isOffer(alice), { type: 'wait', condition: 'resource-constraint', text: 'at most 16 sessions with one person at once' });
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => flags(alice, bob), 'Alice flags Bob');
    expect(failures(alice)).toEqual([expect.stringMatching(/ended: busy \(resource-constraint\)$/)]);
    expect(connections(alice)).toEqual([]);

    await w.clock.advance(BUSY_RECOMPUTE_AFTER_MS - 1);
    expect(initiatesOf(w, alice, bob)).toBe(1);
    await w.clock.advance(1);
    await until(() => initiatesOf(w, alice, bob) === 2 && remoteFrom(bob, alice).length === 2, 'offered again and received');
  });

  it('Alice’s offer is lost on its way and her worker’s request times out: she ends it, saying so to Bob should he hold it, and offers again after 2 s', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    w.network.refuse(isOffer(alice), 'timeout');
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => flags(alice, bob), 'Alice flags Bob');
    const [offer, terminate] = w.network.log.filter((entry) => entry.from === alice.address);
    expect(terminate?.jingle).toMatchObject({ action: 'session-terminate', sid: offer?.jingle.sid, reason: { condition: 'timeout' } });
    expect(connections(alice)).toEqual([]);

    await w.clock.advance(SESSION_TERMINATION.recomputeAfterOtherErrorMs - 1);
    expect(initiatesOf(w, alice, bob)).toBe(1);
    await w.clock.advance(1);
    await until(() => initiatesOf(w, alice, bob) === 2 && remoteFrom(bob, alice).length === 2, 'offered again and received');
  });
});

describe('Call: our session whose ICE failed and is not brought back within 5 s ends as failed-transport and is offered anew (SPEC §4’s interrupted timeout, given to a failed initiator too)', () => {
  it('Alice’s ICE to Bob fails and her restart goes unanswered (his answer, or his session-terminate, lost): 5 s after the failure she ends it failed-transport, and offers anew 500 ms later', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceSendingToBob(w);
    connectAll(w);
    const pc = alice.pcs[0]!;
    pc.setIceState('failed');
    await until(() => w.network.actions(alice.address, bob.address).includes('transport-info'), 'ICE restart offered');
    // The restart's checks begin, with no answer from Bob to check against.
    pc.setIceState('checking');
    await w.clock.advance(SESSION_TERMINATION.interruptedTimeoutMs - 1);
    expect(w.network.actions(alice.address, bob.address)).not.toContain('session-terminate');
    expect(connections(alice)).toEqual([expect.objectContaining({ connectionState: 'connecting', restarting: true })]);
    await w.clock.advance(1);
    expect(w.network.log.at(-1)).toMatchObject({ from: alice.address, jingle: { action: 'session-terminate', reason: { condition: 'failed-transport' } } });
    expect(pc.signalingState).toBe('closed');
    expect(failures(alice)).toEqual([expect.stringMatching(/ended: failed-transport$/)]);

    await w.clock.advance(SESSION_TERMINATION.recomputeAfterFailedTransportMs - 1);
    expect(initiatesOf(w, alice, bob)).toBe(1);
    await w.clock.advance(1);
    await until(() => initiatesOf(w, alice, bob) === 2 && remoteFrom(bob, alice).length === 2, 'offered anew and received');
  });

  it('one whose restart connects within the 5 s runs on', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceSendingToBob(w);
    connectAll(w);
    const pc = alice.pcs[0]!;
    pc.setIceState('failed');
    await w.clock.advance(SESSION_TERMINATION.interruptedTimeoutMs - 1);
    pc.setIceState('connected');
    await w.clock.advance(10_000);
    expect(w.network.actions(alice.address, bob.address)).not.toContain('session-terminate');
    expect(sending(alice, bob).map((record) => record.connectionState)).toEqual(['connected']);
  });
});

describe('Call: a session not connected SESSION_CONNECT_LIMIT_MS after it was made ends as failed-transport and is made anew — its ICE may never begin when the candidates it needs are lost (beyond the spec)', () => {
  it('Alice’s session to Bob stays new, no candidate ever reaching it: at the limit it ends failed-transport on both sides, and she offers anew 500 ms later, which connects', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceSendingToBob(w);
    expect(alice.pcs[0]!.iceConnectionState).toBe('new');
    await w.clock.advance(SESSION_CONNECT_LIMIT_MS - 1);
    expect(w.network.actions(alice.address, bob.address)).not.toContain('session-terminate');
    await w.clock.advance(1);
    await until(() => alice.pcs[0]!.signalingState === 'closed' && bob.pcs[0]!.signalingState === 'closed', 'ended on both sides');
    expect(failures(alice)).toEqual([expect.stringMatching(/failed-transport$/)]);
    await w.clock.advance(SESSION_TERMINATION.recomputeAfterFailedTransportMs);
    await until(() => initiatesOf(w, alice, bob) === 2 && remoteFrom(bob, alice).length === 2, 'offered anew and received');
    connectAll(w);
    await until(() => sending(alice, bob).map((record) => record.connectionState).join() === 'connected', 'the new session connected');
  });

  it('one that connects within the limit runs on', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceSendingToBob(w);
    await w.clock.advance(SESSION_CONNECT_LIMIT_MS - 1);
    connectAll(w);
    await w.clock.advance(2 * SESSION_CONNECT_LIMIT_MS);
    expect(w.network.actions(alice.address, bob.address)).not.toContain('session-terminate');
    expect(w.network.actions(bob.address, alice.address)).not.toContain('session-terminate');
    expect(sending(alice, bob).map((record) => record.connectionState)).toEqual(['connected']);
  });
});

describe('Call: a session-initiate sent again under the sid of a session still pending takes its place, the old one ended here unsaid and its connection closed (a relay consumer made anew under its id)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('Bob’s offer reaches Alice again while she still applies it: her first connection is closed, the second session carries his camera and voice, and Bob hears nothing of the first', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(bob);
    allInCall(w);
    // Alice's first connection is still applying the offer when it comes again; closed, it fails that, as a browser's does.
    vi.spyOn(FakePeerConnection.prototype, 'setRemoteDescription').mockImplementationOnce(function (this: FakePeerConnection) {
      return new Promise((_resolve, reject) => {
        const close = this.close.bind(this);
        this.close = () => {
          close();
          reject(new Error('The RTCPeerConnection is closed'));
        };
      });
    });
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => connections(alice)[0]?.sessionState === 'pending', 'Alice applies the offer');
    const offer = w.network.log.find((entry) => entry.from === bob.address && entry.jingle.action === 'session-initiate')!;

    void w.network.sendAgain(bob.address, alice.address, offer.jingle);
    await until(() => remoteFrom(alice, bob).length === 2, 'Alice receives the second');
    expect(alice.pcs[0]?.signalingState).toBe('closed');
    expect(connections(alice).map((record) => [record.id, record.sessionState])).toEqual([[offer.jingle.sid, 'active']]);
    expect(connections(bob).map((record) => [record.id, record.sessionState])).toEqual([[offer.jingle.sid, 'active']]);
    // The first offer's answer is no error either, which would end the sid's new session at Bob.
    await flushMicrotasks();
    expect(w.network.actions(alice.address, bob.address)).toEqual(['session-accept']);
    expect([...failures(alice), ...failures(bob)]).toEqual([]);
  });
});

/** The people `person`'s call holds through a lost connection (their tiles stay), by address. */
function heldBy(person: Person): string[] {
  return (person.store.get(heldPeersAtom)[ROOM] ?? []).map((peer) => peer.address);
}

describe('Call: Peer.sessionFailed, whichever path failed, goes once the person is served again on either path (SPEC §4 session termination)', () => {
  it('Bob’s relay session fails, then the relay goes away and the mesh serves him: flagged through the recompute delay, then no longer', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    // The relay answers once; after it dies it cannot be reached again.
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValueOnce(connection as unknown as RelayRpcClient).mockRejectedValue(new Error('refused'));
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => new FakeIngest() as unknown as RelayIngest);
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    const microphone = new FakeTrack('audio');
    alice.media.share(alice.media.addLocalAudio(microphone as unknown as MediaStreamTrack, new FakeStream([microphone]) as unknown as MediaStream).id);
    allInCall(w);
    const state = alice.store.get(sessionStateAtom);
    const callConfig = { iceServers: [], videoResolutionTiers: {}, sfuServer: { url: 'ws://relay.example/relay', password: 'relay-token', minimumPeers: 1 } };
    alice.store.set(sessionStateAtom, { ...state, connection: { ...state.connection, callConfig } });
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 1, 'bob receives alice’s microphone from the relay');
    expect(connection.paramsOf('CREATE_CONSUMER')).toHaveLength(1);
    const flagged = () => alice.reports.findLast((report) => report.peerAddress === bob.address && report.change.sessionFailed !== undefined)?.change.sessionFailed === true;

    // Bob's side of the relay session fails: he ends it as failed-transport (SPEC §4), and Alice flags him.
    bob.pcs.at(-1)!.setIceState('failed');
    await until(flagged, 'bob flagged');
    connection.die('relay gone');
    await until(() => w.network.actions(alice.address, bob.address).filter((action) => action === 'session-initiate').length === 2, 'the mesh offers alice’s microphone to bob');
    await until(() => remoteFrom(bob, alice).length === 1, 'bob accepted it');
    const initiates = w.network.log.filter((entry) => entry.jingle.action === 'session-initiate');
    expect(initiates.map((entry) => offersIceLite(entry.jingle))).toEqual([true, false]);
    connectAll(w);
    await flushMicrotasks();
    expect(flagged()).toBe(true);
    await w.clock.advance(SESSION_TERMINATION.recomputeAfterFailedTransportMs);
    await until(() => !flagged(), 'bob no longer flagged');
  });
});

describe('Call: a lost connection to the chat server is not a call outage (issue 13)', () => {
  it('while the room waits for its rejoin, and after it, the sessions run on: nothing ended, nothing started again', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, true);
    connectAll(w);
    const sent = w.network.log.length;
    const received = remoteFrom(bob, alice).map((item) => item.id);

    setLostConnection(alice);
    setLostConnection(bob);
    await w.clock.advance(10_000);
    expect(connections(alice)).toHaveLength(2);
    expect(remoteFrom(bob, alice).map((item) => item.id)).toEqual(received);
    // Alice is back first: Bob, not back yet, is still in her call.
    setLostConnection(alice, []);
    await w.clock.advance(10_000);
    expect(connections(alice)).toHaveLength(2);
    setLostConnection(bob, [alice]);
    setLostConnection(alice, [bob]);
    await w.clock.advance(60_000);
    expect(connections(alice)).toHaveLength(2);
    expect(remoteFrom(bob, alice).map((item) => item.id)).toEqual(received);
    // Nothing on the wire but each one's mute state said again to the other, now reachable (issue 13).
    expect(w.network.log.slice(sent).filter((entry) => entry.jingle.action !== 'session-info')).toEqual([]);
    expect([...alice.errors, ...bob.errors]).toEqual([]);
  });

  it('a person held through the outage whose sessions with us all ended is let go then, not REJOIN_GRACE_MS after our rejoin (they went away, or came back under another address)', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, true);
    connectAll(w);

    setLostConnection(alice);
    setLostConnection(bob);
    await w.clock.advance(1_000);
    setLostConnection(alice, []);
    await flushMicrotasks();
    expect(heldBy(alice)).toEqual([bob.address]);
    // Bob's tab is gone (a reload while the server was down): both connections with him go quiet.
    for (const pc of alice.pcs) pc.setIceState('disconnected');
    await w.clock.advance(SESSION_TERMINATION.interruptedTimeoutMs);
    await until(() => connections(alice).length === 0, 'both sessions ended');
    await flushMicrotasks();
    expect(heldBy(alice)).toEqual([]);
    expect(remoteFrom(alice, bob)).toEqual([]);
  });

  it('someone in the call with no session with us (nothing sent either way) is kept for REJOIN_GRACE_MS all the same', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);

    setLostConnection(alice);
    await flushMicrotasks();
    setLostConnection(alice, []);
    await flushMicrotasks();
    await w.clock.advance(REJOIN_GRACE_MS - 1);
    expect(heldBy(alice)).toEqual([bob.address]);
    await w.clock.advance(1);
    expect(heldBy(alice)).toEqual([]);
  });

  it('a person not back within REJOIN_GRACE_MS of our rejoin is gone: their sessions end here', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, false);
    connectAll(w);

    setLostConnection(bob);
    await w.clock.advance(5_000);
    setLostConnection(bob, []);
    // The store's change reaches the call on a microtask (its recompute): the grace starts then.
    await flushMicrotasks();
    await w.clock.advance(REJOIN_GRACE_MS - 1);
    expect(remoteFrom(bob, alice)).toHaveLength(2);
    await w.clock.advance(1);
    await until(() => connections(bob).length === 0, 'ended');
    expect(remoteFrom(bob, alice)).toEqual([]);
  });
});

/**
 * What `person`'s mirror shows when the room says something of `other`: they went (`left`, or a
 * removal), with the event line the session writes; or they are back (`joined`), in the call.
 */
function roomSays(person: Person, other: Person, kind: Extract<RoomEvent['kind'], 'left' | 'kicked' | 'joined'>): void {
  const state = person.store.get(sessionStateAtom);
  const peers = { ...state.peers };
  if (kind === 'joined') peers[other.address] = { ...peerRecord(other.address, 'video', false), joinedCall: true };
  else delete peers[other.address];
  const id = `event-${Object.keys(state.roomEvents).length}`;
  const line: RoomEvent = { id, roomAddress: ROOM, kind, displayName: other.address, peerAddress: other.address, time: 0 };
  person.store.set(sessionStateAtom, { ...state, peers, roomEvents: { ...state.roomEvents, [id]: line } });
}

describe('Call: someone whose room says they left while their media still reaches us is kept for their return — a connection to the chat server replaced is no departure (issue 13, DepartureHold)', () => {
  /**
   * Alice and Bob in a call, both sending, connected. `passTime` runs the clock in steps of 100 ms,
   * Bob's receivers of Alice getting a packet at each step while `flowing` (her media reaching him).
   */
  async function aliceAndBobConnected() {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, true);
    connectAll(w);
    const fromAlice = bob.pcs.flatMap((pc) => pc.getReceivers());
    const passTime = async (ms: number, flowing: boolean): Promise<void> => {
      for (let passed = 0; passed < ms; passed += 100) {
        if (flowing) for (const receiver of fromAlice) receiver.frameArrives(w.clock.now());
        await w.clock.advance(100);
      }
    };
    await passTime(500, true);
    return { w, alice, bob, passTime };
  }

  it('Alice’s room says she left and, a moment later, that she is back at the same address, her media flowing throughout: Bob keeps her tile and both sessions, nothing offered anew; what he said meanwhile is said again', async () => {
    const { w, alice, bob, passTime } = await aliceAndBobConnected();
    const received = remoteFrom(bob, alice).map((item) => item.id);
    const sent = w.network.log.length;

    roomSays(bob, alice, 'left');
    await passTime(2_000, true);
    expect(heldBy(bob)).toEqual([alice.address]);
    expect(connections(bob)).toHaveLength(2);
    roomSays(bob, alice, 'joined');
    await passTime(DEPARTURE_HOLD.graceMs, true);
    expect(heldBy(bob)).toEqual([]);
    expect(connections(bob)).toHaveLength(2);
    expect(remoteFrom(bob, alice).map((item) => item.id)).toEqual(received);
    // Bob's mute state, said again now that she is reachable; no session ended or started.
    const said = w.network.log.slice(sent).map((entry) => `${entry.from} ${entry.jingle.action ?? ''}`);
    expect(said.length).toBeGreaterThan(0);
    expect(new Set(said)).toEqual(new Set([`${bob.address} session-info`]));
    expect([...alice.errors, ...bob.errors]).toEqual([]);
  });

  it.each([
    { when: 'her media stops (her tab closed): Bob lets her go DEPARTURE_HOLD.stalledAfterMs after her last packet', heldMs: DEPARTURE_HOLD.stalledAfterMs, flowing: false },
    { when: 'not back within DEPARTURE_HOLD.graceMs, though her media still flows: Bob lets her go then', heldMs: DEPARTURE_HOLD.graceMs, flowing: true },
  ])('$when, and her sessions end', async ({ heldMs, flowing }) => {
    const { alice, bob, passTime } = await aliceAndBobConnected();
    roomSays(bob, alice, 'left');
    await passTime(heldMs - DEPARTURE_HOLD.checkIntervalMs, flowing);
    expect(heldBy(bob)).toEqual([alice.address]);
    await passTime(2 * DEPARTURE_HOLD.checkIntervalMs, flowing);
    expect(heldBy(bob)).toEqual([]);
    await until(() => connections(bob).length === 0, 'her sessions ended');
    expect(remoteFrom(bob, alice)).toEqual([]);
  });

  it('removed by a moderator (kicked), her media still flowing: Bob does not keep her for a moment', async () => {
    const { alice, bob, passTime } = await aliceAndBobConnected();
    roomSays(bob, alice, 'kicked');
    await flushMicrotasks();
    expect(heldBy(bob)).toEqual([]);
    await passTime(100, true);
    await until(() => connections(bob).length === 0, 'her sessions ended');
    expect(remoteFrom(bob, alice)).toEqual([]);
  });

  it('she ended her sessions before leaving ("Leave"): nothing of hers reaches Bob, so he does not keep her', async () => {
    const { alice, bob, passTime } = await aliceAndBobConnected();
    await alice.engine.close();
    await until(() => connections(bob).length === 0, 'her sessions ended');
    roomSays(bob, alice, 'left');
    await passTime(100, true);
    expect(heldBy(bob)).toEqual([]);
  });
});

/** What `person`'s mirrored state says of `other`'s mute (the Peer record this tab and the others reported). */
function showMuted(person: Person, other: Person, muted: boolean): void {
  const state = person.store.get(sessionStateAtom);
  person.store.set(sessionStateAtom, { ...state, peers: { ...state.peers, [other.address]: { ...state.peers[other.address]!, muted } } });
}

function audioFrom(person: Person, owner: Person) {
  return remoteFrom(person, owner).find((item) => item.kind === 'audio');
}

const isSessionInfo = (_from: string, jingle: { action?: string }) => jingle.action === 'session-info';

describe('Call: a closing Call gives up its claim before it ends its sessions (issue 13, "Move call here")', () => {
  it('no session-terminate of a closing Call goes out while it still claims the call, so the offers anew it brings reach the tab that runs the call now', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, true);
    const before = w.network.log.length;
    await bob.engine.close();
    const terminates = w.network.log.map((entry, at) => ({ ...entry, at })).filter((entry) => entry.at >= before && entry.from === bob.address && entry.jingle.action === 'session-terminate');
    expect(terminates.map((entry) => entry.to)).toEqual([alice.address, alice.address]);
    const release = w.network.releases.find((entry) => entry.address === bob.address);
    expect(release?.afterRequests).toBe(before);
  });
});

describe('Call: a muted person never goes live on a new session (issue 13, call handover)', () => {
  it("a person the room shows muted stays muted on their new session while its audio arrives before its mute session-info", async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    const { mic } = shareCamera(alice);
    alice.media.setLocalDisabled(mic, true);
    allInCall(w);
    showMuted(bob, alice, true);
    w.network.holdBack(isSessionInfo);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => remoteFrom(bob, alice).length === 2, 'received');
    expect(audioFrom(bob, alice)?.remoteDisabled).toBe(true);

    w.network.release();
    await until(() => w.network.actions(alice.address, bob.address).includes('session-info'), 'mute stated');
    await flushMicrotasks();
    expect(audioFrom(bob, alice)?.remoteDisabled).toBe(true);
    expect(bob.reports.filter((report) => report.peerAddress === alice.address && report.change.muted === false)).toEqual([]);
  });

  it('the sender states its mute once answered, unmute too: a person the room still shows muted is live when they are', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    shareCamera(alice);
    allInCall(w);
    showMuted(bob, alice, true);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => audioFrom(bob, alice)?.remoteDisabled === false, 'live there');
    const accepted = w.network.log.findIndex((entry) => entry.jingle.action === 'session-accept');
    const stated = w.network.log.findIndex((entry) => entry.jingle.action === 'session-info');
    expect(stated).toBeGreaterThan(accepted);
    expect(w.network.log[stated]?.jingle.info).toEqual({ infoType: '{urn:xmpp:jingle:apps:rtp:info:1}unmute', creator: 'initiator', name: 'audio' });
    await until(() => bob.reports.findLast((report) => report.peerAddress === alice.address)?.change.muted === false, 'unmuted reported');
  });

  it('a muted sender says nothing before the answer: a peer that declines is tried again after 2 s, not at once', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    const { mic } = shareCamera(alice);
    alice.media.setLocalDisabled(mic, true);
    setView(alice, true, { [bob.address]: 'video' });
    setView(bob, false, { [alice.address]: 'video' });
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    await until(() => w.network.actions(bob.address, alice.address).includes('session-terminate'), 'declined');
    await flushMicrotasks();
    expect(w.network.actions(alice.address, bob.address)).not.toContain('session-info');
    const initiates = () => w.network.actions(alice.address, bob.address).filter((action) => action === 'session-initiate').length;
    await w.clock.advance(1_999);
    expect(initiates()).toBe(1);
  });
});

/** Alice and Bob in a call, each sharing camera and microphone, connected; Bob's microphone muted or not. */
async function inCallWithBobMuted(w: World, bobMuted: boolean): Promise<{ alice: Person; bob: Person; bobMic: string }> {
  const alice = await join(w, 'alice');
  const bob = await join(w, 'bob');
  shareCamera(alice);
  const { mic: bobMic } = shareCamera(bob);
  bob.media.setLocalDisabled(bobMic, bobMuted);
  allInCall(w);
  await Promise.all([alice.engine.start(), bob.engine.start()]);
  await until(() => audioFrom(alice, bob)?.remoteDisabled === bobMuted && remoteFrom(bob, alice).length === 2, 'in the call');
  connectAll(w);
  return { alice, bob, bobMic };
}

/** Signalling goes down for both (their rooms wait for the rejoin), and Bob mutes or unmutes meanwhile: nothing of it can go. */
async function bobTogglesWhileDown(w: World, { alice, bob, bobMic }: { alice: Person; bob: Person; bobMic: string }, muted: boolean): Promise<void> {
  w.network.cut(alice.address, bob.address);
  setLostConnection(alice);
  setLostConnection(bob);
  bob.media.setLocalDisabled(bobMic, muted);
  await w.clock.advance(10_000);
  expect(audioFrom(alice, bob)?.remoteDisabled).toBe(!muted);
}

/** What Alice's call tab last reported of Bob's mute (the Peer record every tab and the people list show). */
function reportedMuted(alice: Person, bob: Person): boolean | undefined {
  return alice.reports.findLast((report) => report.peerAddress === bob.address && report.change.muted !== undefined)?.change.muted;
}

describe('Call: a mute or unmute made while signalling was down reaches everyone once they are back (issue 13)', () => {
  it('Bob unmutes while the chat server is down: once back, Alice has him live (he rejoins after her)', async () => {
    const w = newWorld();
    const call = await inCallWithBobMuted(w, true);
    const { alice, bob } = call;
    // Nothing can go: Alice still holds him muted, as she must until his session says otherwise.
    await bobTogglesWhileDown(w, call, false);

    w.network.restore(alice.address, bob.address);
    setLostConnection(alice, []);
    await flushMicrotasks();
    setLostConnection(bob, [alice]);
    setLostConnection(alice, [bob]);
    await until(() => audioFrom(alice, bob)?.remoteDisabled === false, 'Bob live at Alice');
    await until(() => reportedMuted(alice, bob) === false, 'reported unmuted');
    // Still the same sessions: the media went on, only the words were missing.
    expect(w.network.actions(bob.address, alice.address).filter((action) => action === 'session-initiate')).toHaveLength(1);
  });

  it('Bob mutes while the chat server is down: once back, Alice has him muted (he rejoins first; told when she is back)', async () => {
    const w = newWorld();
    const call = await inCallWithBobMuted(w, false);
    const { alice, bob } = call;
    await bobTogglesWhileDown(w, call, true);

    // Bob is back first: Alice is not in the room yet, nothing can reach her.
    w.network.restore(bob.address);
    setLostConnection(bob, []);
    await w.clock.advance(5_000);
    expect(audioFrom(alice, bob)?.remoteDisabled).toBe(false);

    w.network.restore(alice.address);
    setLostConnection(alice, [bob]);
    setLostConnection(bob, [alice]);
    await until(() => audioFrom(alice, bob)?.remoteDisabled === true, 'Bob muted at Alice');
    await until(() => reportedMuted(alice, bob) === true, 'reported muted');
  });
});

/**
 * Alice sends Bob her camera on a connected session; `passTime` runs the clock in steps of 100 ms,
 * Bob’s receiver getting a frame at each step while her session sends video — or never (the network
 * stalls), or always (a sender whose camera off sends black frames). `chatServerDown` cuts signalling
 * between them, the call's media on.
 */
async function aliceSendsBobHerCamera({ offFromTheStart = false } = {}) {
  const w = newWorld();
  const alice = await join(w, 'alice');
  const bob = await join(w, 'bob');
  const { camera } = shareCamera(alice);
  if (offFromTheStart) alice.media.setLocalDisabled(camera, true);
  allInCall(w);
  await Promise.all([alice.engine.start(), bob.engine.start()]);
  await until(() => remoteFrom(bob, alice).length === 2, 'bob receives alice');
  connectAll(w);
  const aliceToBob = alice.pcs.find((pc) => pc.sentKinds().includes('video'))!;
  const bobFromAlice = bob.pcs.find((pc) => pc.getReceivers().some((receiver) => receiver.track.kind === 'video'))!;
  const receiver = bobFromAlice.getReceivers().find((candidate) => candidate.track.kind === 'video') as FakeReceiver;
  const passTime = async (ms: number, frames: 'as sent' | 'never' | 'always' = 'as sent'): Promise<void> => {
    for (let passed = 0; passed < ms; passed += 100) {
      if (frames === 'always' || (frames === 'as sent' && aliceToBob.videoEncodingActive())) receiver.frameArrives(w.clock.now());
      await w.clock.advance(100);
    }
  };
  const chatServerDown = (): void => {
    w.network.cut(alice.address, bob.address);
    setLostConnection(alice);
    setLostConnection(bob);
  };
  const bobShowsHerCamera = () => remoteFrom(bob, alice).find((item) => item.kind === 'video')?.remoteDisabled === false;
  await passTime(1_000);
  return { w, alice, bob, camera, aliceToBob, passTime, chatServerDown, bobShowsHerCamera };
}

describe('Call: a camera turned off sends no video, so that its receivers show it off, and on again, even while signalling cannot carry the mute or unmute (issue 13)', () => {
  it('Alice turns her camera off while the chat server is down: her video to Bob stops, and Bob shows her camera off once its frames have stopped; turned on again, he shows it', async () => {
    const { w, alice, bob, camera, aliceToBob, passTime, chatServerDown, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    chatServerDown();
    const saidBefore = w.network.actions(alice.address, bob.address);
    alice.media.setLocalDisabled(camera, true);
    await until(() => aliceToBob.videoEncodingActive() === false, 'her video to bob stops');
    await passTime(CAMERA_STOP.stoppedAfterMs - 100);
    expect(bobShowsHerCamera()).toBe(true);
    await passTime(CAMERA_STOP.checkIntervalMs + 100);
    expect(bobShowsHerCamera()).toBe(false);
    // Her mute never reached him: the frames told him.
    expect(w.network.actions(alice.address, bob.address)).toEqual(saidBefore);

    alice.media.setLocalDisabled(camera, false);
    await until(() => aliceToBob.videoEncodingActive() === true, 'her video to bob goes again');
    await passTime(CAMERA_STOP.checkIntervalMs);
    expect(bobShowsHerCamera()).toBe(true);
  });

  it('Alice turns her camera off before the chat server goes down (her mute reaches Bob) and on while it is down: Bob shows it once its frames move again; once back, her unmute, said again, keeps it shown', async () => {
    const { w, alice, bob, camera, aliceToBob, passTime, chatServerDown, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    alice.media.setLocalDisabled(camera, true);
    await until(() => !bobShowsHerCamera(), 'her mute reached bob');
    await until(() => aliceToBob.videoEncodingActive() === false, 'her video to bob stops');
    await passTime(CAMERA_STOP.stoppedAfterMs);
    chatServerDown();
    const saidBefore = w.network.actions(alice.address, bob.address);
    alice.media.setLocalDisabled(camera, false);
    await until(() => aliceToBob.videoEncodingActive() === true, 'her video to bob goes again');
    await passTime(CAMERA_STOP.checkIntervalMs + 100);
    expect(bobShowsHerCamera()).toBe(true);
    // Her unmute never reached him: the frames told him.
    expect(w.network.actions(alice.address, bob.address)).toEqual(saidBefore);

    w.network.restore(alice.address, bob.address);
    setLostConnection(alice, [bob]);
    setLostConnection(bob, [alice]);
    await until(() => w.network.actions(alice.address, bob.address).length > saidBefore.length, 'her mute state said again');
    await passTime(2 * CAMERA_STOP.stoppedAfterMs);
    expect(bobShowsHerCamera()).toBe(true);
  });

  it('Alice’s camera, off from the start (no frame ever reached Bob), turned on while the chat server is down: Bob shows it once its first frames arrive', async () => {
    const { alice, camera, aliceToBob, passTime, chatServerDown, bobShowsHerCamera } = await aliceSendsBobHerCamera({ offFromTheStart: true });
    await until(() => !bobShowsHerCamera(), 'her mute reached bob');
    await passTime(CAMERA_STOP.stoppedAfterMs);
    chatServerDown();
    alice.media.setLocalDisabled(camera, false);
    await until(() => aliceToBob.videoEncodingActive() === true, 'her video to bob goes');
    await passTime(CAMERA_STOP.checkIntervalMs + 100);
    expect(bobShowsHerCamera()).toBe(true);
  });

  it('while signalling works, a camera its sender said is off stays off though its frames move again after standing still: her unmute would say it', async () => {
    const { alice, camera, passTime, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    alice.media.setLocalDisabled(camera, true);
    await until(() => !bobShowsHerCamera(), 'her mute reached bob');
    await passTime(CAMERA_STOP.stoppedAfterMs);
    await passTime(2 * CAMERA_STOP.stoppedAfterMs, 'always');
    expect(bobShowsHerCamera()).toBe(false);
  });

  it('on the mesh her video goes only while her camera is on and Bob asks for video (not `off`)', async () => {
    const { w, alice, bob, camera, aliceToBob } = await aliceSendsBobHerCamera();
    const video = remoteFrom(bob, alice).find((item) => item.kind === 'video')!.id;
    const sent = async (): Promise<boolean | undefined> => {
      await flushMicrotasks();
      return aliceToBob.videoEncodingActive();
    };
    await bob.engine.requestVideoProfile(video, 'off');
    expect(await sent()).toBe(false);
    alice.media.setLocalDisabled(camera, true);
    await bob.engine.requestVideoProfile(video, 'low');
    expect(await sent()).toBe(false);
    alice.media.setLocalDisabled(camera, false);
    expect(await sent()).toBe(true);
    await bob.engine.requestVideoProfile(video, 'off');
    expect(await sent()).toBe(false);
    expect(w.network.actions(bob.address, alice.address)).toContain('description-info');
  });

  it('while signalling works, frames that stop are a stall, not a camera turned off: Alice’s camera stays shown (her mute would say it)', async () => {
    const { passTime, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    await passTime(2 * CAMERA_STOP.stoppedAfterMs, 'never');
    expect(bobShowsHerCamera()).toBe(true);
  });

  it('a video whose frames stop because its receiver asked for none is not a camera turned off', async () => {
    const { alice, bob, passTime, chatServerDown, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    const video = remoteFrom(bob, alice).find((item) => item.kind === 'video')!.id;
    await bob.engine.requestVideoProfile(video, 'off');
    chatServerDown();
    await passTime(2 * CAMERA_STOP.stoppedAfterMs);
    expect(bobShowsHerCamera()).toBe(true);
  });

  it('a camera its sender said is off stays off though frames arrive (a SimpleWebRTC 1.30.3 sender’s disabled track sends black frames): the sender’s word stands', async () => {
    const { alice, camera, passTime, chatServerDown, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    alice.media.setLocalDisabled(camera, true);
    await until(() => !bobShowsHerCamera(), 'her mute reached bob');
    chatServerDown();
    await passTime(2 * CAMERA_STOP.stoppedAfterMs, 'always');
    expect(bobShowsHerCamera()).toBe(false);
  });
});

describe('Call: a camera or microphone its sender\'s system stops is off for the others — said by Jingle mute, its video not sent — and on again once it is back, so that it is never taken for a stall (beyond the spec)', () => {
  it('Alice’s camera stopped by her system: Bob shows it off, her video to him stops; back, he shows it and it goes again', async () => {
    const { alice, camera, aliceToBob, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    const track = alice.media.getTrack(camera) as unknown as FakeTrack;
    track.muteFromSource();
    await until(() => !bobShowsHerCamera(), 'her camera shown off');
    await until(() => aliceToBob.videoEncodingActive() === false, 'her video to bob stops');
    track.muteFromSource(false);
    await until(() => bobShowsHerCamera(), 'her camera shown again');
    await until(() => aliceToBob.videoEncodingActive() === true, 'her video to bob goes again');
  });

  it('Alice’s microphone stopped by her system: Bob has her muted; back, he hears her', async () => {
    const w = newWorld();
    const { alice, bob, mic } = await aliceSendingToBob(w);
    const herVoice = () => remoteFrom(bob, alice).find((item) => item.kind === 'audio');
    const track = alice.media.getTrack(mic) as unknown as FakeTrack;
    track.muteFromSource();
    await until(() => herVoice()?.remoteDisabled === true, 'muted there');
    await until(() => bob.reports.findLast((report) => report.peerAddress === alice.address)?.change.muted === true, 'muted reported');
    track.muteFromSource(false);
    await until(() => herVoice()?.remoteDisabled === false, 'unmuted there');
  });
});

describe('Call: a camera whose frames stall on the way, its sender saying it is on, is shown stalled until they move again (beyond the spec)', () => {
  const bobSeesHerStalled = (bob: Person, alice: Person): boolean | undefined => {
    const video = remoteFrom(bob, alice).find((item) => item.kind === 'video')!.id;
    return bob.store.get(receivedPathsAtom)[video]?.framesStalled;
  };

  it('Alice’s frames stop reaching Bob while signalling works: stalled once they have stood still for CAMERA_STOP.stoppedAfterMs, her camera still shown; no longer once they move', async () => {
    const { alice, bob, passTime, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    expect(bobSeesHerStalled(bob, alice)).toBe(false);
    await passTime(CAMERA_STOP.stoppedAfterMs - 100, 'never');
    expect(bobSeesHerStalled(bob, alice)).toBe(false);
    await passTime(CAMERA_STOP.checkIntervalMs + 100, 'never');
    expect(bobSeesHerStalled(bob, alice)).toBe(true);
    expect(bobShowsHerCamera()).toBe(true);
    await passTime(CAMERA_STOP.checkIntervalMs + 100);
    expect(bobSeesHerStalled(bob, alice)).toBe(false);
  });

  it('a camera its sender turned off is off, not stalled', async () => {
    const { alice, bob, camera, passTime, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    alice.media.setLocalDisabled(camera, true);
    await until(() => !bobShowsHerCamera(), 'her mute reached bob');
    await passTime(2 * CAMERA_STOP.stoppedAfterMs, 'never');
    expect(bobSeesHerStalled(bob, alice)).toBe(false);
  });

  it('a stalled camera its sender then turns off is no longer stalled: her word says why nothing comes', async () => {
    const { alice, bob, camera, passTime, bobShowsHerCamera } = await aliceSendsBobHerCamera();
    await passTime(2 * CAMERA_STOP.stoppedAfterMs, 'never');
    expect(bobSeesHerStalled(bob, alice)).toBe(true);
    alice.media.setLocalDisabled(camera, true);
    await until(() => !bobShowsHerCamera(), 'her mute reached bob');
    expect(bobSeesHerStalled(bob, alice)).toBe(false);
  });

  it('a video Bob asked for none of (`off`: his tile hidden) is not stalled, nor one whose frames stop while the chat server is down (shown off instead)', async () => {
    const first = await aliceSendsBobHerCamera();
    const video = remoteFrom(first.bob, first.alice).find((item) => item.kind === 'video')!.id;
    await first.passTime(2 * CAMERA_STOP.stoppedAfterMs, 'never');
    expect(bobSeesHerStalled(first.bob, first.alice)).toBe(true);
    await first.bob.engine.requestVideoProfile(video, 'off');
    await first.passTime(CAMERA_STOP.checkIntervalMs + 100, 'never');
    expect(bobSeesHerStalled(first.bob, first.alice)).toBe(false);

    const second = await aliceSendsBobHerCamera();
    second.chatServerDown();
    await second.passTime(2 * CAMERA_STOP.stoppedAfterMs, 'never');
    expect(second.bobShowsHerCamera()).toBe(false);
    expect(bobSeesHerStalled(second.bob, second.alice)).toBe(false);
  });
});

describe('Call: a stream shared, or an offer left unanswered, while signalling was down reaches everyone once they are back (issue 13)', () => {
  const initiates = (from: Person, to: Person) => w().network.actions(from.address, to.address).filter((action) => action === 'session-initiate').length;
  const w = () => world!;

  it('Alice shares her screen while the chat server is down: nothing is offered meanwhile, and Bob receives it once both are back', async () => {
    newWorld();
    const call = await inCallWithBobMuted(w(), false);
    const { alice, bob } = call;
    w().network.cut(alice.address, bob.address);
    setLostConnection(alice);
    setLostConnection(bob);
    const before = initiates(alice, bob);
    shareScreen(alice);
    await w().clock.advance(10_000);
    // No offer tried that could not go (it would have been logged as not sent).
    expect(alice.errors).toEqual([]);

    w().network.restore(alice.address, bob.address);
    setLostConnection(alice, [bob]);
    setLostConnection(bob, [alice]);
    await until(() => remoteFrom(bob, alice).some((item) => item.screenCapture), 'screen received');
    expect(initiates(alice, bob)).toBe(before + 1);
    expect(alice.errors).toEqual([]);
  });

  it('Bob’s answer to Alice’s screen was lost as the chat server went down: once both are back, she offers it anew and he answers', async () => {
    newWorld();
    const { alice, bob } = await inCallWithBobMuted(w(), false);
    // What Alice sends from now on is on its way (in order) when the connection drops.
    w().network.holdBack((from) => from === alice.address);
    shareScreen(alice);
    await until(() => initiates(alice, bob) === 2, 'screen offered');
    const oldSid = w().network.log.findLast((entry) => entry.jingle.action === 'session-initiate')?.jingle.sid;
    // The offer reaches Bob as the connection drops: his answer cannot go.
    w().network.cut(alice.address, bob.address);
    setLostConnection(alice);
    setLostConnection(bob);
    w().network.release();
    await w().clock.advance(10_000);
    expect(bob.errors).toContain('Jingle session-accept not sent: Not connected');

    w().network.restore(alice.address, bob.address);
    setLostConnection(alice, [bob]);
    setLostConnection(bob, [alice]);
    await until(() => initiates(alice, bob) === 3 && w().network.actions(bob.address, alice.address).filter((action) => action === 'session-accept').length === 2, 'offered anew and answered');
    // The old offer is withdrawn; the camera's session, answered before, runs on.
    expect(w().network.log.filter((entry) => entry.from === alice.address && entry.jingle.action === 'session-terminate').map((entry) => entry.jingle.sid)).toEqual([oldSid]);
    await until(() => remoteFrom(bob, alice).filter((item) => item.screenCapture).length === 1, 'one screen received');
    expect(alice.errors).toEqual([]);
  });
});

/** The encoding Alice's camera goes to Bob with (the mesh's sender to him). */
function cameraTo(alice: Person, bob: Person): SizedEncoding | undefined {
  const camera = alice.media.local().find((item) => item.kind === 'video')?.id ?? '';
  return alice.engine.senders(camera).get(bob.address)?.getParameters().encodings[0];
}

const HIDDEN_TILE = { visible: false, width: 320, height: 180, fullScreen: false };
const SMALL_TILE = { visible: true, width: 320, height: 180, fullScreen: false };

/** Bob's tab is hidden (his tile asks Alice for `off`, she pauses her video to him), then the chat server goes down for both. */
async function bobHiddenThenOutage(w: World): Promise<{ alice: Person; bob: Person; video: string }> {
  const { alice, bob } = await aliceAndBobInCall(w, false);
  connectAll(w);
  const video = remoteFrom(bob, alice).find((item) => item.kind === 'video')?.id ?? '';
  await bob.engine.setTileNeed(video, HIDDEN_TILE);
  await until(() => cameraTo(alice, bob)?.active === false, 'paused for the hidden tab');
  w.network.cut(alice.address, bob.address);
  setLostConnection(alice);
  setLostConnection(bob);
  await w.clock.advance(5_000);
  return { alice, bob, video };
}

describe('Call: a quality request made while signalling was down reaches its sender once they are back (issue 13)', () => {
  it('Bob returns to his hidden tab while the chat server is down: his tile asks for low, which cannot go; after the rejoin Alice is asked again and resumes her video to him', async () => {
    const w = newWorld();
    const { alice, bob, video } = await bobHiddenThenOutage(w);
    await bob.engine.setTileNeed(video, SMALL_TILE);
    expect(bob.errors).toContain('Jingle description-info not sent: Not connected');
    await w.clock.advance(5_000);
    expect(cameraTo(alice, bob)?.active).toBe(false);

    w.network.restore(alice.address, bob.address);
    setLostConnection(alice, [bob]);
    setLostConnection(bob, [alice]);
    // The tile's need has not changed since: only the catch-up asks again.
    await until(() => cameraTo(alice, bob)?.active === true, 'Alice’s video to Bob resumed');
    expect(cameraTo(alice, bob)?.scaleResolutionDownTo).toEqual({ maxWidth: 320, maxHeight: 180 });
  });

  it('a request that could not go is not recorded as asked: the tile’s next need asks again, though it maps to the same quality', async () => {
    const w = newWorld();
    const { alice, bob, video } = await bobHiddenThenOutage(w);
    await bob.engine.setTileNeed(video, SMALL_TILE);
    w.network.restore(alice.address, bob.address);
    await bob.engine.setTileNeed(video, { ...SMALL_TILE, width: 300 });
    await until(() => cameraTo(alice, bob)?.active === true, 'Alice’s video to Bob resumed');
  });
});

/** `person`'s camera and microphone captured as a tab does (MediaCapture), from fake devices. */
function captureOf(w: World, person: Person): { capture: MediaCapture; mediaDevices: FakeMediaDevices } {
  const mediaDevices = new FakeMediaDevices();
  const api = mediaDevices as unknown as MediaDevicesApi;
  const logger = { info: () => undefined, error: (message: string) => person.errors.push(message) };
  const capture = new MediaCapture({
    mediaDevices: api,
    devices: new DeviceManager({ mediaDevices: api, clock: w.clock, logger }),
    media: person.media,
    queue: new OperationQueue(),
    clock: w.clock,
    logger,
    onError: (error) => person.errors.push(error.message),
    standInCamera: fakeStandInCamera,
  });
  return { capture, mediaDevices };
}

describe('Call: sharing a new microphone replaces the one it replaces on the running sessions, with no renegotiation (SPEC §4 Media: sharing a local item replaces the item it replaces)', () => {
  it('a microphone picked mid-call goes out on Alice’s session to Bob in place of the old one: no session-terminate or session-initiate, even while the new device is still starting', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, false);
    const received = remoteFrom(bob, alice).map((item) => item.id);
    const oldMicrophone = alice.media.local('audio')[0]!;
    const { capture, mediaDevices } = captureOf(w, alice);
    const sentBefore = w.network.log.length;
    let deviceStarted!: () => void;
    mediaDevices.starting = new Promise((resolve) => (deviceStarted = resolve));

    const switching = capture.captureUserMedia({ audio: { deviceId: { exact: 'other-microphone' } }, replaceAudio: oldMicrophone.id });
    // The call recomputes while the new device starts.
    await settle();
    deviceStarted();
    const newMicrophone = (await switching)?.audio ?? '';
    await until(() => alice.engine.senders(newMicrophone).get(bob.address)?.track === alice.media.getTrack(newMicrophone), 'the new microphone sent to Bob');

    // Only the new track's mute state (mesh `replaceSent`), on the running session.
    expect(w.network.log.slice(sentBefore).map((entry) => entry.jingle.action)).toEqual(['session-info']);
    expect(remoteFrom(bob, alice).map((item) => item.id)).toEqual(received);
    expect(alice.media.get(oldMicrophone.id)).toBeUndefined();
    expect(alice.errors).toEqual([]);
  });
});

describe('Call: a camera switched on the mesh keeps its stream, so the relay takes it over as the same stream (what a receiver sees: one tile per stream across a path change)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('Alice picks another camera while the mesh carries her call; the relay then switched on names its ingest after the stream her session to Bob signals: the id Bob’s receiver finds the relay session’s predecessor by', async () => {
    const w = newWorld();
    const { alice, bob } = await aliceAndBobInCall(w, false);
    connectAll(w);
    const camera = alice.media.local('video')[0]!.id;
    const { capture } = captureOf(w, alice);
    const newCamera = (await capture.captureUserMedia({ video: { deviceId: { exact: 'other-camera' } }, replaceVideo: camera }))?.video ?? '';
    await until(() => alice.engine.senders(newCamera).get(bob.address)?.track === alice.media.getTrack(newCamera), 'the new camera sent to Bob');
    const videoSection = alice.pcs[0]!.localDescription?.sdp?.split('m=video')[1] ?? '';
    const signalled = /a=msid:(\S+) /.exec(videoSection)?.[1];

    // The relay, faked: its connection answers what the ingest needs; the ingest itself is not under
    // test, a fake RelayIngest.create only notes the id it is made under.
    const ingestNames: string[] = [];
    const fakeRelayConnection = {
      on: () => () => undefined,
      request: async () => ({ rtpCapabilities: { codecs: [], headerExtensions: [] } }),
      isOpen: true,
      close: () => undefined,
    } as unknown as RelayRpcClient;
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(fakeRelayConnection);
    vi.spyOn(RelayIngest, 'create').mockImplementation(({ id }) => {
      ingestNames.push(id);
      return new Promise(() => undefined);
    });
    const state = alice.store.get(sessionStateAtom);
    const callConfig = { iceServers: [], videoResolutionTiers: {}, sfuServer: { url: 'ws://relay.example/relay', password: 'relay-token', minimumPeers: 1 } };
    alice.store.set(sessionStateAtom, { ...state, connection: { ...state.connection, callConfig } });
    await until(() => ingestNames.length > 0, 'the camera ingested');

    expect(signalled).toBeDefined();
    expect(ingestNames).toEqual([signalled]);
    expect(alice.errors).toEqual([]);
  });
});

describe('Call: changes made together are one recompute, gathered on a microtask (ARCHITECTURE.md "The Call": in place of SPEC §9’s update queue, not built)', () => {
  it('sharing microphone and camera at once in the call starts one session with both, not an audio one restarted', async () => {
    const w = newWorld();
    const alice = await join(w, 'alice');
    const bob = await join(w, 'bob');
    allInCall(w);
    await Promise.all([alice.engine.start(), bob.engine.start()]);
    shareCamera(alice);
    await until(() => remoteFrom(bob, alice).length === 2, 'received');
    const initiates = w.network.log.filter((entry) => entry.from === alice.address && entry.jingle.action === 'session-initiate');
    expect(initiates).toHaveLength(1);
    expect(initiates[0]?.jingle.contents?.map((content) => (content.application as { media?: string } | undefined)?.media)).toEqual(['audio', 'video']);
  });
});

/** Alice alone in the call, sharing camera and microphone. */
async function aliceAloneInCall(w: World): Promise<{ alice: Person; camera: string }> {
  const alice = await join(w, 'alice');
  const { camera } = shareCamera(alice);
  setView(alice, true, {});
  await alice.engine.start();
  return { alice, camera };
}

/** Bob joins Alice's call, asking for video, until he receives her camera and microphone. */
async function bobJoins(w: World, alice: Person): Promise<void> {
  const bob = await join(w, 'bob');
  setView(bob, true, { [alice.address]: 'video' });
  await bob.engine.start();
  setView(alice, true, { [bob.address]: 'video' });
  await until(() => remoteFrom(bob, alice).length === 2, 'bob receives alice');
}

describe('Call: the session to whoever joins next starts from an offer made ahead (issue 14, the join path)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('alone in the call, an offer is made after PREPARED_OFFER.delayMs; a newcomer gets it with no connection or offer made for them, nor that offer converted into Jingle then', async () => {
    const w = newWorld();
    const { alice } = await aliceAloneInCall(w);
    await w.clock.advance(PREPARED_OFFER.delayMs - 1);
    expect(alice.pcs).toHaveLength(0);
    await w.clock.advance(1);
    await until(() => alice.pcs[0]?.signalingState === 'have-local-offer', 'the offer made ahead');
    const madeAhead = alice.pcs[0]!;
    const offered = madeAhead.localDescription?.sdp;
    const createOffer = vi.spyOn(FakePeerConnection.prototype, 'createOffer');
    const parse = vi.spyOn(Intermediate, 'importFromSDP');

    await bobJoins(w, alice);

    expect(alice.pcs).toEqual([madeAhead]);
    expect(createOffer).not.toHaveBeenCalled();
    // Bob's side converts his answer; Alice's offer was written as Jingle while it waited.
    expect(parse.mock.calls.map(([sdp]) => sdp)).not.toContain(offered);
    expect(parse).toHaveBeenCalled();
    expect(madeAhead.localDescription?.sdp).toBe(offered);
    expect(madeAhead.signalingState).toBe('stable');
    const initiate = w.network.log.find((entry) => entry.from === alice.address && entry.jingle.action === 'session-initiate');
    expect(initiate?.jingle.contents?.map((content) => [content.name, content.senders])).toEqual([
      ['0', 'initiator'],
      ['1', 'initiator'],
    ]);
    // The next one, once the join is over.
    await w.clock.advance(PREPARED_OFFER.delayMs);
    await until(() => alice.pcs.length === 2 && alice.pcs[1]!.signalingState === 'have-local-offer', 'the next offer made ahead');
  });

  it('an offer whose candidates are still gathering is not handed out: the newcomer’s session makes its own', async () => {
    const w = newWorld();
    const { alice } = await aliceAloneInCall(w);
    // The offer is set, its gathering goes on (a candidate the session heard of would precede its session-initiate).
    vi.spyOn(FakePeerConnection.prototype, 'setLocalDescription').mockImplementationOnce(async function (this: FakePeerConnection, description: RTCSessionDescriptionInit) {
      this.localDescription = description;
      this.signalingState = 'have-local-offer';
    });
    await w.clock.advance(PREPARED_OFFER.delayMs);
    await until(() => alice.pcs[0]?.signalingState === 'have-local-offer', 'the offer made ahead');

    await bobJoins(w, alice);
    expect(alice.pcs).toHaveLength(2);
    expect(alice.pcs[0]!.signalingState).toBe('have-local-offer');
    expect(alice.pcs[1]!.signalingState).toBe('stable');
  });

  it('a new camera track makes the offer anew; leaving the call closes it', async () => {
    const w = newWorld();
    const { alice, camera } = await aliceAloneInCall(w);
    await w.clock.advance(PREPARED_OFFER.delayMs);
    await until(() => alice.pcs.length === 1, 'the offer made ahead');

    // Another camera: its item is shared, then the old one goes (LocalCapture's order).
    const track = new FakeTrack('video');
    const other = alice.media.addLocalVideo(track as unknown as MediaStreamTrack, new FakeStream([track]) as unknown as MediaStream).id;
    alice.media.share(other);
    alice.media.remove(camera);
    await flushMicrotasks();
    expect(alice.pcs[0]!.signalingState).toBe('closed');
    await w.clock.advance(PREPARED_OFFER.delayMs);
    await until(() => alice.pcs.length === 2 && alice.pcs[1]!.signalingState === 'have-local-offer', 'made anew');
    expect(alice.pcs[1]!.getSenders().map((sender) => sender.track)).toContain(track);

    setView(alice, false, {});
    await flushMicrotasks();
    expect(alice.pcs[1]!.signalingState).toBe('closed');
  });
});

/**
 * When `person`'s self-presence came and when each other person's presence did (ms on the fake
 * clock's scale): who was in the room first.
 */
function setArrivals(person: Person, selfAt: number, others: Record<string, number>): void {
  const state = person.store.get(sessionStateAtom);
  const peers = { ...state.peers };
  for (const [address, at] of Object.entries(others)) peers[address] = { ...peers[address]!, joinedRoomAt: at };
  person.store.set(sessionStateAtom, { ...state, rooms: { r1: { ...state.rooms.r1!, joinedAt: selfAt } }, peers });
}

/** Alice was in the room first; both enter the call at once, each sharing a camera or not; `beforeStart` changes Bob's view first. */
async function bobJoinsAlicesCall(
  w: World,
  { aliceShares, bobShares, beforeStart }: { aliceShares: boolean; bobShares: boolean; beforeStart?: (bob: Person) => void },
): Promise<{ alice: Person; bob: Person }> {
  const alice = await join(w, 'alice');
  const bob = await join(w, 'bob');
  if (aliceShares) shareCamera(alice);
  if (bobShares) shareCamera(bob);
  allInCall(w);
  setArrivals(alice, 1, { [bob.address]: 10 });
  setArrivals(bob, 10, { [alice.address]: 5 });
  beforeStart?.(bob);
  await Promise.all([bob.engine.start(), alice.engine.start()]);
  return { alice, bob };
}

describe('Call: a newcomer connects what those already in the call send it before offering to them (issue 14, the join path)', () => {
  it('Bob joins Alice’s call: hers goes out at once; his waits until hers is connected, not for the wait’s end', async () => {
    const w = newWorld();
    const { alice, bob } = await bobJoinsAlicesCall(w, { aliceShares: true, bobShares: true });

    await until(() => remoteFrom(bob, alice).length === 2, 'bob receives alice');
    expect(w.network.actions(alice.address, bob.address)[0]).toBe('session-initiate');
    expect(w.network.actions(bob.address, alice.address)).toEqual(['session-accept']);
    connectAll(w);
    await until(() => remoteFrom(alice, bob).length === 2, 'alice receives bob');
    expect(w.network.actions(bob.address, alice.address).slice(0, 2)).toEqual(['session-accept', 'session-initiate']);
    expect(w.clock.now()).toBe(0);
  });

  it('someone in the call who sends nothing gets the newcomer’s offer after RECEIVE_FIRST.maxWaitMs, not before', async () => {
    const w = newWorld();
    const { alice, bob } = await bobJoinsAlicesCall(w, { aliceShares: false, bobShares: true });

    await w.clock.advance(RECEIVE_FIRST.maxWaitMs - 1);
    expect(w.network.actions(bob.address, alice.address)).toEqual([]);
    await w.clock.advance(1);
    await until(() => remoteFrom(alice, bob).length === 2, 'alice receives bob');
  });

  it('whoever came later waits for nobody: the first in the room offers to the newcomer at once, though the newcomer sends nothing', async () => {
    const w = newWorld();
    const { alice, bob } = await bobJoinsAlicesCall(w, { aliceShares: true, bobShares: false });

    await until(() => remoteFrom(bob, alice).length === 2, 'bob receives alice');
    expect(w.clock.now()).toBe(0);
  });
});

describe('Call: a newcomer to a call the relay carries receives first too: its connection to the relay waits until what the others send it is connected (issue 14, the join path)', () => {
  /** `person`'s config names a relay that takes a call from its second person. */
  function withRelay(person: Person): void {
    const state = person.store.get(sessionStateAtom);
    const callConfig = { iceServers: [], videoResolutionTiers: {}, sfuServer: { url: 'ws://relay.example/relay', password: 'relay-token', minimumPeers: 1 } };
    person.store.set(sessionStateAtom, { ...state, connection: { ...state.connection, callConfig } });
  }

  it('Bob joins Alice’s call with the relay on for him: he asks for the relay once her session to him is connected, not before', async () => {
    const asked: string[] = [];
    // A socket that never opens: a named fake (Node 20 has no WebSocket), as this test is only about when one is asked for.
    class AskedSocket {
      readonly readyState = 0;
      constructor(url: string) {
        asked.push(url);
      }
      addEventListener(): void {}
      removeEventListener(): void {}
      send(): void {}
      close(): void {}
    }
    vi.stubGlobal('WebSocket', AskedSocket);
    try {
      const w = newWorld();
      const { alice, bob } = await bobJoinsAlicesCall(w, { aliceShares: true, bobShares: true, beforeStart: withRelay });

      await until(() => remoteFrom(bob, alice).length === 2, 'bob receives alice');
      expect(asked).toEqual([]);
      connectAll(w);
      await until(() => asked.length === 1, 'bob asks for the relay');
      expect(asked).toEqual(['ws://relay.example/relay?room=room%40muc.example']);
      expect(w.network.actions(bob.address, alice.address)).toEqual(['session-accept']);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
