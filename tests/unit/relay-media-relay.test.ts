// MediaRelay's requests to the relay (PROTOCOL.md "Media relay"), on a fake relay connection: the
// browser-only parts (mediasoup-client's Device, the ingest's send transport) are stood in for.
import { createStore } from 'jotai';
import { SessionManager } from 'stanza/jingle';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallSignaling } from '../../src/main-thread/call/CallSignaling';
import { sessionKey, USER_STREAM_KEY, type ShareableMedia } from '../../src/main-thread/call/sessionPlan';
import { TypedEmitter } from '../../src/common/TypedEmitter';
import { MediaItems } from '../../src/main-thread/media';
import { MediaRelay } from '../../src/main-thread/relay/MediaRelay';
import { PathHandover } from '../../src/main-thread/relay/PathHandover';
import { RelayIngest } from '../../src/main-thread/relay/RelayIngest';
import { RelayRpcClient, type RelayRpcClientEvents } from '../../src/main-thread/relay/RelayRpcClient';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { Room } from '../../src/protocol/entities';
import type { CreateConsumerParams } from '../../src/protocol/relay';
import { initialSessionState } from '../../src/protocol/session-state';
import { ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { BOB, peer, ROOM, room } from './callTab-fakes';

vi.mock('mediasoup-client', () => ({
  Device: class {
    async load(): Promise<void> {}
  },
}));

/** The relay's end of the connection: records requests; CREATE_CONSUMER stays unanswered (the offer is not under test). */
class FakeRelayConnection extends TypedEmitter<RelayRpcClientEvents> {
  readonly requests: Array<{ method: string; params: unknown }> = [];
  isOpen = true;

  request(method: string, params: unknown): Promise<unknown> {
    this.requests.push({ method, params });
    if (method === 'GET_ROUTER_CAPABILITIES') return Promise.resolve({ rtpCapabilities: { codecs: [], headerExtensions: [] } });
    if (method === 'CREATE_CONSUMER') return new Promise(() => {});
    return Promise.resolve({});
  }

  close(): void {
    this.isOpen = false;
  }
}

/** An ingest whose transport has connected and produced the microphone. */
function connectedIngest(): RelayIngest {
  return Object.assign(new TypedEmitter(), {
    connected: true,
    kinds: ['audio'],
    sync: async () => {},
    setMaxBitrate: async () => {},
    close: () => {},
  }) as unknown as RelayIngest;
}

const relays: MediaRelay[] = [];

afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.close();
  vi.restoreAllMocks();
});

/** A MediaRelay for a call in `record`'s room that shares a microphone with Bob; resolves with its CREATE_CONSUMER. */
async function createConsumerFor(record: Room): Promise<CreateConsumerParams> {
  const connection = new FakeRelayConnection();
  vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
  vi.spyOn(RelayIngest, 'create').mockImplementation(async () => connectedIngest());
  const clock = new ManualClock();
  const store = createStore();
  const state = initialSessionState();
  state.rooms[record.id] = record;
  store.set(sessionStateAtom, state);
  const errors: string[] = [];
  const relay = new MediaRelay({
    roomAddress: ROOM,
    store,
    manager: new SessionManager({}),
    signaling: {} as CallSignaling,
    media: new MediaItems({ clock }),
    clock,
    logger: { info: () => {}, error: (message) => errors.push(message) },
    handover: new PathHandover(clock),
    iceServers: [],
    sfuServer: () => ({ url: 'wss://relay.test/', password: 'token', minimumPeers: 2 }),
  });
  relays.push(relay);
  const microphone: ShareableMedia = { id: 'mic', kind: 'audio', streamId: 'stream-1', screenCapture: false };
  const input = {
    wanted: true,
    plan: [{ key: sessionKey(BOB, USER_STREAM_KEY), peerAddress: BOB, streamKey: USER_STREAM_KEY, media: [microphone] }],
    shared: [microphone],
    peers: [peer(BOB, { id: 'bob-sid' })],
    meshExists: () => true,
    meshEstablished: () => false,
  };
  // As the call engine does: every change recomputes (connected, then ingested, then the consumer).
  relay.on('changed', () => relay.follow(input));
  relay.follow(input);
  const created = () => connection.requests.find((request) => request.method === 'CREATE_CONSUMER');
  await until(() => created() !== undefined || errors.length > 0, 'CREATE_CONSUMER');
  expect(errors).toEqual([]);
  return created()!.params as CreateConsumerParams;
}

describe('PROTOCOL.md "Media relay": CREATE_CONSUMER names the room by its <user rid> as roomId', () => {
  it("sends the room record's rid, beside the room address and the receiver's sid", async () => {
    const params = await createConsumerFor(room({ rid: '0b7a3c1e-rid' }));
    expect(params).toMatchObject({ peerId: 'bob-sid', roomAddress: ROOM, roomId: '0b7a3c1e-rid', audio: true, video: false });
  });

  it('falls back to the room address when the server sent no rid', async () => {
    const params = await createConsumerFor(room({ rid: undefined }));
    expect(params).toMatchObject({ roomAddress: ROOM, roomId: ROOM });
  });
});
