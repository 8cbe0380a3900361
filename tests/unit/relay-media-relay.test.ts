// The relay path's requests to the relay (PROTOCOL.md "Media relay"), on a fake relay connection: the
// browser-only parts (mediasoup-client's Device, the ingest's send transport) are stood in for.
import { createStore } from 'jotai';
import type { Stanzas } from 'stanza';
import { JINGLE_INFO_ACTIVE } from 'stanza/Constants';
import { SessionManager } from 'stanza/jingle';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallSignaling } from '../../src/main-thread/call/CallSignaling';
import { ConnectionRecords } from '../../src/main-thread/call/ConnectionRecords';
import type { Delivery } from '../../src/main-thread/call/MediaPath';
import { planPaths, type PathPlan } from '../../src/main-thread/call/pathPlan';
import { groupIntoStreams, sessionKey, USER_STREAM_KEY, type ShareableMedia } from '../../src/main-thread/call/sessionPlan';
import { MediaItems, type MediaItem } from '../../src/main-thread/media';
import { PathHandover } from '../../src/main-thread/call/PathChange';
import { RelayPath } from '../../src/main-thread/call/relay/RelayPath';
import { RelayJingleSession } from '../../src/main-thread/call/relay/RelayJingleSession';
import { describeProfile } from '../../src/main-thread/call/descriptionInfo';
import { RelayIngest } from '../../src/main-thread/call/relay/RelayIngest';
import { RelayRpcClient } from '../../src/main-thread/call/relay/RelayRpcClient';
import { relayStatusAtom } from '../../src/main-thread/call/relay/relayAtoms';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { Room } from '../../src/protocol/entities';
import { CONSUMER_AHEAD_AFTER_MS, PATH_CHANGE, RELAY_RECEIVER_FALLBACK, RELAY_RECONNECT } from '../../src/protocol/clientDefaults';
import { SESSION_TERMINATION } from '../../src/protocol/constants';
import type { SessionFailedError } from '../../src/main-thread/call/errors';
import { RELAY_ERROR, RelayRpcError, type CreateConsumerParams } from '../../src/protocol/relay';
import { initialSessionState } from '../../src/protocol/session-state';
import { flushMicrotasks, ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { BOB, peer, ROOM, room } from './callTab-fakes';
import { FakeIngest, FakeRelayConnection, MICROPHONE_CONSUMER_OFFER } from './relay-fakes';

vi.mock('mediasoup-client', () => ({
  Device: class {
    async load(): Promise<void> {}
  },
}));

const relays: RelayPath[] = [];

afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.close();
  vi.restoreAllMocks();
});

/** A RelayPath for a call in `record`'s room, with the errors it logs, its clock, its Jingle sessions' manager and its store. */
function relayPathIn(record: Room, signaling = {} as CallSignaling): { relay: RelayPath; errors: string[]; clock: ManualClock; manager: SessionManager; store: ReturnType<typeof createStore> } {
  const clock = new ManualClock();
  const store = createStore();
  const state = initialSessionState();
  state.rooms[record.id] = record;
  store.set(sessionStateAtom, state);
  const errors: string[] = [];
  const manager = new SessionManager({});
  const relay = new RelayPath({
    roomAddress: ROOM,
    store,
    manager,
    signaling,
    media: new MediaItems({ clock }),
    clock,
    logger: { info: () => {}, error: (message) => errors.push(message) },
    handover: new PathHandover(clock),
    records: new ConnectionRecords(store),
    iceServers: [],
    sfuServer: () => ({ url: 'wss://relay.test/', password: 'token', minimumPeers: 2 }),
  });
  relays.push(relay);
  return { relay, errors, clock, manager, store };
}

const microphone: ShareableMedia = { id: 'mic', kind: 'audio', streamId: 'stream-1', screenCapture: false };

/** The microphone, shared with Bob. */
const toBob: Delivery = { key: sessionKey(BOB, USER_STREAM_KEY), peerAddress: BOB, peerId: peer(BOB, { id: 'bob-sid' }).id, streamKey: USER_STREAM_KEY, media: [microphone], startable: true };

/**
 * As the Call does on every change (connected, then ingested, then the consumers): `shared()`
 * published, `planned()` delivered where the plan puts them on the relay; each plan goes to `plans`.
 * The mesh runs every delivery and never establishes one.
 */
function following(relay: RelayPath, planned: () => Delivery[], shared: () => ShareableMedia[] = () => [microphone], plans: PathPlan[] = []): () => void {
  const follow = (): void => {
    relay.publish(groupIntoStreams(shared()), true);
    const paths = planPaths({
      planned: planned(),
      relayReady: (streamKey) => relay.canCarry(streamKey),
      relayPending: (streamKey) => relay.pending(streamKey),
      relayFailed: (key) => relay.failedReceiver(key),
      relayExists: (key) => relay.carries(key),
      relayEstablished: (key) => relay.established(key),
      meshExists: () => true,
      meshEstablished: () => false,
    });
    plans.push(paths);
    relay.deliver(planned().filter((candidate) => paths.relay.has(candidate.key)));
  };
  relay.on('changed', follow);
  follow();
  return follow;
}

/** A RelayPath for a call in `record`'s room that shares a microphone with Bob; resolves with its CREATE_CONSUMER. */
async function createConsumerFor(record: Room): Promise<CreateConsumerParams> {
  const connection = new FakeRelayConnection();
  vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
  vi.spyOn(RelayIngest, 'create').mockImplementation(async () => new FakeIngest() as unknown as RelayIngest);
  const { relay, errors } = relayPathIn(record);
  following(relay, () => [toBob]);
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

describe('A newcomer to a call on the relay publishes straight to it: the relay is "on its way" until its ingest first connects', () => {
  it('is pending while connecting and ingesting, and ready (no longer pending) once the ingest connects', async () => {
    const connection = new FakeRelayConnection();
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    const ingest = new FakeIngest(false);
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => ingest as unknown as RelayIngest);
    const { relay, errors } = relayPathIn(room({}));
    const streams = groupIntoStreams([microphone]);
    relay.on('changed', () => relay.publish(streams, true));
    relay.publish(streams, true);
    expect(relay.pending(USER_STREAM_KEY)).toBe(true);
    await until(() => connection.requests.some((request) => request.method === 'GET_ROUTER_CAPABILITIES'), 'the connection');
    await until(() => vi.mocked(RelayIngest.create).mock.calls.length > 0, 'the ingest');
    expect(relay.pending(USER_STREAM_KEY)).toBe(true);
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(false);
    ingest.connect();
    await until(() => relay.canCarry(USER_STREAM_KEY), 'ready');
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);
    expect(errors).toEqual([]);
  });

  it('stays pending while its first sync still produces the stream, though the transport connected with the first track', async () => {
    const connection = new FakeRelayConnection();
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    const ingest = new FakeIngest(false);
    let finishSync: (() => void) | undefined;
    ingest.sync = () => new Promise<void>((resolve) => (finishSync = resolve));
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => ingest as unknown as RelayIngest);
    const { relay, errors } = relayPathIn(room({}));
    const streams = groupIntoStreams([microphone]);
    relay.on('changed', () => relay.publish(streams, true));
    relay.publish(streams, true);
    await until(() => finishSync !== undefined, 'the first sync');
    // mediasoup-client connects the transport with the first producer, before the sync's next one.
    ingest.connect();
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(false);
    expect(relay.pending(USER_STREAM_KEY)).toBe(true);
    finishSync!();
    await until(() => relay.canCarry(USER_STREAM_KEY), 'ready');
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);
    expect(errors).toEqual([]);
  });

  it('is not pending when not wanted, nor once the relay cannot be reached (the mesh carries the call)', async () => {
    vi.spyOn(RelayRpcClient, 'connect').mockRejectedValue(new Error('refused'));
    const { relay, errors } = relayPathIn(room({}));
    const streams = groupIntoStreams([microphone]);
    relay.publish(streams, false);
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);
    relay.publish(streams, true);
    expect(relay.pending(USER_STREAM_KEY)).toBe(true);
    await until(() => errors.length > 0, 'the outage');
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);
  });
});

describe('A sender on the relay makes the next receiver’s consumer of each stream ahead: a newcomer’s session-initiate waits for no CREATE_CONSUMER (issue 14, the join path)', () => {
  it('once the plan has settled, a consumer with no receiver is made; the next receiver is offered that one, claimed for them, and the one after gets another', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => new FakeIngest() as unknown as RelayIngest);
    const { relay, errors, clock, manager } = relayPathIn(room({ rid: 'room-rid' }));
    const initiates: Stanzas.Jingle[] = [];
    manager.on('send', (iq: Stanzas.IQ) => {
      if (iq.jingle?.action === 'session-initiate') initiates.push(iq.jingle);
    });
    let planned: Delivery[] = [];
    const follow = following(relay, () => planned);
    const created = () => connection.paramsOf<CreateConsumerParams>('CREATE_CONSUMER');
    await until(() => relay.canCarry(USER_STREAM_KEY), 'the relay carries the microphone');
    expect(created()).toEqual([]);

    await clock.advance(CONSUMER_AHEAD_AFTER_MS);
    await until(() => created().length === 1, 'the consumer made ahead');
    const [ahead] = created();
    expect(ahead).toEqual({ id: expect.any(String), roomAddress: ROOM, roomId: 'room-rid', source: expect.any(String), audio: true, video: false });

    // Bob comes: his offer is the one made ahead, and the relay is asked for nothing but its receiver's name.
    const before = connection.requests.length;
    planned = [toBob];
    follow();
    await until(() => initiates.length === 1, 'the offer to Bob');
    expect(initiates[0]!.sid).toBe(ahead!.id);
    expect(initiates[0]!.contents?.map((content) => content.name)).toEqual(['audio']);
    expect(connection.requests.slice(before)).toEqual([{ method: 'CLAIM_CONSUMER', params: { id: ahead!.id, peerId: 'bob-sid' } }]);

    // Settled again, the person after Bob gets one of their own.
    await clock.advance(CONSUMER_AHEAD_AFTER_MS);
    await until(() => created().length === 2, 'the next consumer made ahead');
    expect(created()[1]!.id).not.toBe(ahead!.id);
    expect(created()[1]).not.toHaveProperty('peerId');
    expect(errors).toEqual([]);
  });

  it('one made for the stream’s earlier media is not taken: a microphone shared anew is offered from a CREATE_CONSUMER of its own, and the old one goes', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => new FakeIngest() as unknown as RelayIngest);
    const { relay, errors, clock } = relayPathIn(room({}));
    const otherMicrophone: ShareableMedia = { ...microphone, id: 'mic-2' };
    let shared = [microphone];
    let planned: Delivery[] = [];
    const follow = following(relay, () => planned, () => shared);
    const created = () => connection.paramsOf<CreateConsumerParams>('CREATE_CONSUMER');
    await until(() => relay.canCarry(USER_STREAM_KEY), 'the relay carries the microphone');
    await clock.advance(CONSUMER_AHEAD_AFTER_MS);
    await until(() => created().length === 1, 'the consumer made ahead');
    const [ahead] = created();

    shared = [otherMicrophone];
    planned = [{ ...toBob, media: [otherMicrophone] }];
    follow();
    await until(() => created().length === 2, 'the consumer made for Bob');
    expect(created()[1]).toMatchObject({ peerId: 'bob-sid' });
    expect(created()[1]!.id).not.toBe(ahead!.id);
    expect(connection.paramsOf('CLAIM_CONSUMER')).toEqual([]);
    await clock.advance(CONSUMER_AHEAD_AFTER_MS);
    await until(() => connection.paramsOf('REMOVE_CONSUMER').length > 0, 'the old one removed');
    expect(connection.paramsOf('REMOVE_CONSUMER')).toEqual([{ id: ahead!.id }]);
    expect(errors).toEqual([]);
  });
});

describe('The relay path offers only to people signalling reaches, and offers anew what an outage left unanswered (issue 13)', () => {
  /** A relay path carrying the microphone, following `planned`, with the Jingle actions its sessions send. */
  async function carryingTheMicrophone(planned: () => Delivery[]) {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => new FakeIngest() as unknown as RelayIngest);
    const { relay, errors, manager } = relayPathIn(room({}));
    const sent: Stanzas.Jingle[] = [];
    manager.on('send', (iq: Stanzas.IQ) => {
      if (iq.jingle) sent.push(iq.jingle);
    });
    const follow = following(relay, planned);
    await until(() => relay.canCarry(USER_STREAM_KEY), 'the relay carries the microphone');
    return { connection, relay, errors, sent, follow, actions: () => sent.map((jingle) => `${jingle.action} ${jingle.sid}`) };
  }

  it('no consumer is made for someone the room does not list now (the chat server down, or not back yet); one is once they are', async () => {
    let planned: Delivery[] = [{ ...toBob, startable: false }];
    const { connection, errors, sent, follow } = await carryingTheMicrophone(() => planned);
    follow();
    await flushMicrotasks();
    expect(connection.paramsOf('CREATE_CONSUMER')).toEqual([]);
    expect(sent).toEqual([]);

    planned = [toBob];
    follow();
    await until(() => sent.some((jingle) => jingle.action === 'session-initiate'), 'the offer to Bob');
    expect(connection.paramsOf<CreateConsumerParams>('CREATE_CONSUMER')).toMatchObject([{ peerId: 'bob-sid' }]);
    expect(errors).toEqual([]);
  });

  it('an offer Bob never answered is withdrawn once he is back, its consumer removed, and a new one offered', async () => {
    const { connection, relay, errors, sent, actions } = await carryingTheMicrophone(() => [toBob]);
    await until(() => sent.some((jingle) => jingle.action === 'session-initiate'), 'the offer to Bob');
    const first = sent.find((jingle) => jingle.action === 'session-initiate')!.sid;

    relay.catchUp(new Set([BOB]));
    await until(() => sent.filter((jingle) => jingle.action === 'session-initiate').length === 2, 'offered anew');
    const second = sent.filter((jingle) => jingle.action === 'session-initiate')[1]!.sid;
    expect(second).not.toBe(first);
    expect(actions()).toContain(`session-terminate ${first}`);
    await until(() => connection.paramsOf('REMOVE_CONSUMER').length > 0, 'the old consumer removed');
    expect(connection.paramsOf('REMOVE_CONSUMER')).toEqual([{ id: first }]);
    expect(errors).toEqual([]);
  });
});

/** A relay path publishing the microphone (republished on every change, while `wanted`); resolves once the ingest is asked for. */
async function publishingTheMicrophone(connection: FakeRelayConnection, shared: () => ShareableMedia[] = () => [microphone], wanted: () => boolean = () => true) {
  vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
  const path = relayPathIn(room({}));
  path.relay.on('changed', () => path.relay.publish(groupIntoStreams(shared()), wanted()));
  path.relay.publish(groupIntoStreams(shared()), wanted());
  await until(() => vi.mocked(RelayIngest.create).mock.calls.length > 0, 'the ingest');
  return path;
}

describe(`A brief stall of the upload keeps its stream on the relay: SPEC §4 ends a disconnected session only after ${SESSION_TERMINATION.interruptedTimeoutMs} ms`, () => {
  it('a disconnected ingest still carries its stream until the interrupted timeout; reconnected within it, nothing moved', async () => {
    const ingest = new FakeIngest(false);
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => ingest as unknown as RelayIngest);
    const { relay, errors, clock } = await publishingTheMicrophone(new FakeRelayConnection());
    ingest.connect();
    await until(() => relay.canCarry(USER_STREAM_KEY), 'ready');

    ingest.disconnect();
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(true);
    expect(relay.inUse).toBe(true);
    await clock.advance(SESSION_TERMINATION.interruptedTimeoutMs - 1);
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(true);
    ingest.connect();
    await clock.advance(SESSION_TERMINATION.interruptedTimeoutMs);
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(true);

    // Still disconnected at the timeout: the mesh carries the stream (not pending: no wait for the relay).
    ingest.disconnect();
    await clock.advance(SESSION_TERMINATION.interruptedTimeoutMs);
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(false);
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);
    ingest.connect();
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('An upload abandoned while it was being made, or failing partway, is closed here and DISPOSEd on the relay', () => {
  /** An ingest whose CREATE_INGEST_TRANSPORT answers only when the test says. */
  function slowIngest(): { ingest: FakeIngest; finish: () => void } {
    const ingest = new FakeIngest(false);
    let finish: (() => void) | undefined;
    vi.spyOn(RelayIngest, 'create').mockImplementation(() => new Promise((resolve) => (finish = () => resolve(ingest as unknown as RelayIngest))));
    return { ingest, finish: () => finish!() };
  }

  it('a stream unshared while its ingest was being made: the ingest is closed and DISPOSEd once made', async () => {
    const { ingest, finish } = slowIngest();
    const connection = new FakeRelayConnection();
    let shared = [microphone];
    const { relay, errors } = await publishingTheMicrophone(connection, () => shared);
    shared = [];
    relay.publish(new Map(), true);
    relay.deliver([]);
    expect(connection.paramsOf('DISPOSE')).toEqual([]);
    finish();
    await until(() => connection.paramsOf('DISPOSE').length > 0, 'the DISPOSE');
    expect(connection.paramsOf('DISPOSE')).toEqual([{ id: microphone.streamId }]);
    expect(ingest.closed).toBe(true);
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(false);
    expect(errors).toEqual([]);
  });

  it('the relay no longer wanted while the ingest was being made: the ingest is closed (the connection, gone, took the relay’s side)', async () => {
    const { ingest, finish } = slowIngest();
    const connection = new FakeRelayConnection();
    let wanted = true;
    const { relay, errors } = await publishingTheMicrophone(connection, undefined, () => wanted);
    wanted = false;
    relay.publish(groupIntoStreams([microphone]), false);
    relay.deliver([]);
    expect(connection.isOpen).toBe(false);
    finish();
    await until(() => ingest.closed, 'the ingest closed');
    expect(errors).toEqual([]);
  });

  it('a sync that fails partway: what it produced is closed and DISPOSEd, and the stream is neither carried nor awaited', async () => {
    const ingest = new FakeIngest(false);
    let syncs = 0;
    ingest.sync = async () => {
      syncs += 1;
      if (syncs > 1) throw new Error('PRODUCE refused');
    };
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => ingest as unknown as RelayIngest);
    const connection = new FakeRelayConnection();
    const camera: ShareableMedia = { id: 'cam', kind: 'video', streamId: 'stream-1', screenCapture: false };
    let shared = [microphone];
    const { relay, errors } = await publishingTheMicrophone(connection, () => shared);
    ingest.connect();
    await until(() => relay.canCarry(USER_STREAM_KEY), 'ready');
    shared = [microphone, camera];
    relay.publish(groupIntoStreams(shared), true);
    await until(() => errors.length > 0, 'the failed sync');
    await until(() => connection.paramsOf('DISPOSE').length > 0, 'the DISPOSE');
    expect(connection.paramsOf('DISPOSE')).toEqual([{ id: 'stream-1' }]);
    expect(ingest.closed).toBe(true);
    expect(relay.canCarry(USER_STREAM_KEY)).toBe(false);
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);
  });
});

describe('A failed ingest is tried again after RELAY_RECONNECT’s backoff; meanwhile the mesh carries its stream and “Call details” says the relay is unavailable, not connecting', () => {
  it('CREATE_INGEST_TRANSPORT refused: DISPOSEd by id (the relay may hold it against the user’s ingests), unavailable, tried again later each time, and carried once an ingest connects', async () => {
    const ingest = new FakeIngest(false);
    let refusals = 2;
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => {
      if (refusals === 0) return ingest as unknown as RelayIngest;
      refusals -= 1;
      throw new RelayRpcError(RELAY_ERROR.rateLimited, 'CREATE_INGEST_TRANSPORT: too many requests');
    });
    const connection = new FakeRelayConnection();
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    const { relay, clock, store } = relayPathIn(room({}));
    clock.randomValue = 0;
    following(relay, () => [toBob]);
    const tries = () => vi.mocked(RelayIngest.create).mock.calls.length;
    const state = () => store.get(relayStatusAtom)[ROOM]?.state;
    await until(() => connection.paramsOf('DISPOSE').length === 1, 'the DISPOSE');
    expect(connection.paramsOf('DISPOSE')).toEqual([{ id: microphone.streamId }]);
    expect(state()).toBe('unavailable');
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);

    await clock.advance(RELAY_RECONNECT.firstDelayMs - 1);
    expect(tries()).toBe(1);
    await clock.advance(1);
    await until(() => tries() === 2 && state() === 'unavailable', 'tried again, refused again');
    // Tried again after failing, the relay is not waited for: the mesh starts what it must meanwhile.
    expect(relay.pending(USER_STREAM_KEY)).toBe(false);
    await clock.advance(RELAY_RECONNECT.firstDelayMs * 2);
    await until(() => tries() === 3, 'tried a third time');
    ingest.connect();
    await until(() => relay.canCarry(USER_STREAM_KEY) && state() === 'relay', 'carried');
  });
});

describe(`A relay whose signalling works but whose media never connects backs off to ${RELAY_RECONNECT.maxDelayMs} ms (RELAY_RECONNECT)`, () => {
  it('each connection whose upload never connected waits twice as long; one whose upload connected starts the backoff over', async () => {
    const connections: FakeRelayConnection[] = [];
    vi.spyOn(RelayRpcClient, 'connect').mockImplementation(async () => {
      const connection = new FakeRelayConnection();
      connections.push(connection);
      return connection as unknown as RelayRpcClient;
    });
    const ingests: FakeIngest[] = [];
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => {
      const ingest = new FakeIngest(false);
      ingests.push(ingest);
      return ingest as unknown as RelayIngest;
    });
    const { relay, clock } = relayPathIn(room({}));
    clock.randomValue = 0;
    const streams = groupIntoStreams([microphone]);
    relay.on('changed', () => relay.publish(streams, true));
    relay.publish(streams, true);

    /** The connection dies once its ingest is made; resolves with how long until the next connection. */
    async function delayAfterLoss(connectOnce: boolean): Promise<number> {
      const count = connections.length;
      await until(() => ingests.length === count, 'the ingest');
      if (connectOnce) ingests.at(-1)!.connect();
      connections.at(-1)!.die('media never connected');
      let waited = 0;
      while (connections.length === count) {
        expect(waited).toBeLessThanOrEqual(RELAY_RECONNECT.maxDelayMs);
        await clock.advance(250);
        waited += 250;
        await flushMicrotasks();
      }
      return waited;
    }

    await until(() => connections.length === 1, 'the first connection');
    const delays: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) delays.push(await delayAfterLoss(false));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(await delayAfterLoss(true)).toBe(1_000);
  });
});

describe('A failing relay session is reported (sessionFailed: the Call flags its receiver, SessionFailures) and its receiver offered again: after SPEC §4’s recompute delay, or at once after ICE failed (PROTOCOL.md)', () => {
  async function offeringToBob() {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => new FakeIngest() as unknown as RelayIngest);
    // The restart after ICE `failed` terminates the old session itself before offering anew.
    const path = relayPathIn(room({}), { send: async () => undefined } as unknown as CallSignaling);
    const initiates: string[] = [];
    path.manager.on('send', (iq: Stanzas.IQ) => {
      if (iq.jingle?.action === 'session-initiate') initiates.push(iq.jingle.sid);
    });
    const failures: SessionFailedError[] = [];
    path.relay.on('sessionFailed', (error) => failures.push(error));
    following(path.relay, () => [toBob]);
    await until(() => initiates.length === 1, 'the offer to Bob');
    return { ...path, connection, initiates, failures };
  }

  it('the receiver ends it with an error condition: sessionFailed says so, and Bob is offered again once the recompute delay is over', async () => {
    const { manager, clock, initiates, failures } = await offeringToBob();
    manager.process({ type: 'set', from: BOB, to: 'alice@example.test/tab', id: 'terminate-1', jingle: { action: 'session-terminate', sid: initiates[0]!, reason: { condition: 'failed-application' } } });
    await until(() => failures.length === 1, 'reported');
    expect(failures.map((error) => [error.peerAddress, error.condition])).toEqual([[BOB, 'failed-application']]);
    await clock.advance(SESSION_TERMINATION.recomputeAfterOtherErrorMs - 1);
    expect(initiates).toHaveLength(1);
    await clock.advance(1);
    await until(() => initiates.length === 2, 'offered again');
  });

  it('its ICE fails on the relay: sessionFailed says so, and the consumer is made again at once under the same id', async () => {
    const { connection, initiates, failures } = await offeringToBob();
    connection.iceState(initiates[0]!, 'failed');
    expect(failures.map((error) => [error.peerAddress, error.condition])).toEqual([[BOB, 'failed-transport']]);
    await until(() => initiates.length === 2, 'offered again');
    expect(initiates[1]).toBe(initiates[0]);
  });
});

describe('A camera turned off on the relay path stops its video at the ingest (RelayIngest.setVideoOff): its receivers see it stop though its mute cannot reach them (issue 13)', () => {
  it('the camera off, then on: the ingest that sends the stream is told each', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
    const ingest = new FakeIngest();
    vi.spyOn(RelayIngest, 'create').mockImplementation(async () => ingest as unknown as RelayIngest);
    const { relay } = relayPathIn(room({}));
    following(relay, () => [toBob]);
    await until(() => relay.canCarry(USER_STREAM_KEY), 'ingested');
    const camera = { id: 'camera', kind: 'video' } as MediaItem;
    relay.mute(camera, true);
    relay.mute(camera, false);
    await until(() => ingest.videoOff.length === 2, 'told');
    expect(ingest.videoOff).toEqual([
      ['camera', true],
      ['camera', false],
    ]);
  });
});

/** A relay path offering the microphone to Bob (the relay answering `connection`'s way), with the Jingle actions its sessions send and its plans. */
async function offeringTheMicrophone(connection: FakeRelayConnection, planned: () => Delivery[] = () => [toBob]) {
  vi.spyOn(RelayRpcClient, 'connect').mockResolvedValue(connection as unknown as RelayRpcClient);
  vi.spyOn(RelayIngest, 'create').mockImplementation(async () => new FakeIngest() as unknown as RelayIngest);
  // The restart after ICE `failed` terminates the old session itself before offering anew.
  const path = relayPathIn(room({}), { send: async () => undefined } as unknown as CallSignaling);
  path.clock.randomValue = 0;
  const sent: Stanzas.Jingle[] = [];
  path.manager.on('send', (iq: Stanzas.IQ) => {
    if (iq.jingle) sent.push(iq.jingle);
  });
  const plans: PathPlan[] = [];
  const follow = following(path.relay, planned, undefined, plans);
  const initiates = () => sent.filter((jingle) => jingle.action === 'session-initiate').map((jingle) => jingle.sid);
  const terminates = () => sent.filter((jingle) => jingle.action === 'session-terminate').map((jingle) => jingle.sid);
  return { ...path, sent, plans, follow, initiates, terminates };
}

/** Bob's Jingle request to the session `sid` of ours, as StanzaJS hands it over. */
function fromBob(manager: SessionManager, jingle: Stanzas.Jingle): void {
  manager.process({ type: 'set', from: BOB, to: 'alice@example.test/tab', id: crypto.randomUUID(), jingle });
}

/** A request the test answers when it likes. */
function heldAnswer(): { answer: () => Promise<unknown>; release: () => void } {
  let release = (): void => {};
  return { answer: () => new Promise((resolve) => (release = () => resolve({ profile: 'low' }))), release: () => release() };
}

describe('A consumer dropped while its offer is on its way sends its receiver nothing more: it is looked up again after every request the offer waits for', () => {
  it('dropped while the restart’s SET_CONSUMER_PROFILE is on its way: no second session-initiate goes out, and no session is left', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    let planned = [toBob];
    const { manager, errors, follow, initiates } = await offeringTheMicrophone(connection, () => planned);
    await until(() => initiates().length === 1, 'the offer to Bob');
    const [sid] = initiates();
    fromBob(manager, { action: 'description-info', sid: sid!, contents: describeProfile('low') });
    await until(() => connection.paramsOf('SET_CONSUMER_PROFILE').length === 1, 'Bob’s quality request');

    const profile = heldAnswer();
    connection.answers.set('SET_CONSUMER_PROFILE', profile.answer);
    connection.iceState(sid!, 'failed');
    await until(() => connection.paramsOf('SET_CONSUMER_PROFILE').length === 2, 'the restart’s profile');
    planned = [];
    follow();
    await until(() => connection.paramsOf('REMOVE_CONSUMER').length > 0, 'the consumer removed');
    profile.release();
    await flushMicrotasks();
    expect(initiates()).toEqual([sid]);
    expect(manager.sessions[sid!]).toBeUndefined();
    expect(errors).toEqual([]);
  });
});

describe('A profile or mute step the relay does not do just then leaves its consumer working: it is asked again after RELAY_RECONNECT’s backoff; only notFound or a closed connection ends the consumer', () => {
  it('SET_CONSUMER_PROFILE answered rateLimited: the session goes on, and the receiver’s last request is asked again, later each time, until done', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    const { manager, relay, clock, errors, initiates, terminates } = await offeringTheMicrophone(connection);
    await until(() => initiates().length === 1, 'the offer to Bob');
    let refusals = 2;
    connection.answers.set('SET_CONSUMER_PROFILE', async () => {
      if (refusals === 0) return { profile: 'medium' };
      refusals -= 1;
      throw new RelayRpcError(RELAY_ERROR.rateLimited, 'too many requests');
    });
    fromBob(manager, { action: 'description-info', sid: initiates()[0]!, contents: describeProfile('low') });
    await until(() => connection.paramsOf('SET_CONSUMER_PROFILE').length === 1, 'Bob’s quality request');
    // Asked for anew meanwhile: the retry asks for the latest.
    fromBob(manager, { action: 'description-info', sid: initiates()[0]!, contents: describeProfile('medium') });
    await until(() => connection.paramsOf('SET_CONSUMER_PROFILE').length === 2, 'the new request');
    await clock.advance(RELAY_RECONNECT.firstDelayMs * 2 - 1);
    expect(connection.paramsOf('SET_CONSUMER_PROFILE')).toHaveLength(2);
    await clock.advance(1);
    await until(() => connection.paramsOf('SET_CONSUMER_PROFILE').length === 3, 'asked again');
    expect(connection.paramsOf('SET_CONSUMER_PROFILE').at(-1)).toEqual({ id: initiates()[0], profile: 'medium' });
    await clock.advance(RELAY_RECONNECT.maxDelayMs * 2);
    expect(connection.paramsOf('SET_CONSUMER_PROFILE')).toHaveLength(3);
    expect(terminates()).toEqual([]);
    expect(relay.carries(toBob.key)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('SET_CONSUMER_PROFILE answered notFound: the relay has no such consumer any more, and its session ends', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    const { manager, initiates, terminates } = await offeringTheMicrophone(connection);
    await until(() => initiates().length === 1, 'the offer to Bob');
    connection.answers.set('SET_CONSUMER_PROFILE', () => Promise.reject(new RelayRpcError(RELAY_ERROR.notFound, 'no such consumer')));
    fromBob(manager, { action: 'description-info', sid: initiates()[0]!, contents: describeProfile('low') });
    await until(() => terminates().length === 1, 'the session ended');
  });
});

describe('What a consumer left behind is not taken for the next one’s: a consumer not made ahead, the receiver’s word that it decoded, a claim that failed', () => {
  it('a consumer the relay did not make ahead is let go: once the plan settles again another is made, and the next receiver takes that one', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    let refuse = true;
    connection.answers.set('CREATE_CONSUMER', async () => {
      if (!refuse) return { sdp: MICROPHONE_CONSUMER_OFFER };
      refuse = false;
      throw new RelayRpcError(RELAY_ERROR.rateLimited, 'too many requests');
    });
    let planned: Delivery[] = [];
    const { clock, relay, errors, follow, initiates } = await offeringTheMicrophone(connection, () => planned);
    const created = () => connection.paramsOf<CreateConsumerParams>('CREATE_CONSUMER');
    await until(() => relay.canCarry(USER_STREAM_KEY), 'the relay carries the microphone');
    await clock.advance(CONSUMER_AHEAD_AFTER_MS);
    await until(() => created().length === 1, 'the consumer not made ahead');
    await flushMicrotasks();

    follow();
    await clock.advance(CONSUMER_AHEAD_AFTER_MS);
    await until(() => created().length === 2, 'another made ahead');
    planned = [toBob];
    follow();
    await until(() => initiates().length === 1, 'the offer to Bob');
    expect(initiates()[0]).toBe(created()[1]!.id);
    expect(created()).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it('Bob said he decodes a consumer dropped before it connected: the next one of that delivery waits for his word of its own', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    let planned = [toBob];
    const { manager, relay, clock, follow, initiates } = await offeringTheMicrophone(connection, () => planned);
    await until(() => initiates().length === 1, 'the offer to Bob');
    fromBob(manager, { action: 'session-info', sid: initiates()[0]!, info: { infoType: JINGLE_INFO_ACTIVE } });
    await flushMicrotasks();
    planned = [];
    follow();
    planned = [toBob];
    follow();
    await until(() => initiates().length === 2, 'the next offer to Bob');
    connection.iceState(initiates()[1]!, 'connected');
    await clock.advance(PATH_CHANGE.graceMs);
    expect(relay.established(toBob.key)).toBe(false);
    await clock.advance(PATH_CHANGE.decodeWaitMs - PATH_CHANGE.graceMs);
    expect(relay.established(toBob.key)).toBe(true);
  });

  it('a claim refused while the offer to its receiver failed: both are read, nothing is left unhandled', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
      connection.answers.set('CLAIM_CONSUMER', () => Promise.reject(new RelayRpcError(RELAY_ERROR.notFound, 'no such consumer')));
      vi.spyOn(RelayJingleSession.prototype, 'offer').mockRejectedValue(new Error('not sent'));
      let planned: Delivery[] = [];
      const { clock, relay, errors, follow } = await offeringTheMicrophone(connection, () => planned);
      await until(() => relay.canCarry(USER_STREAM_KEY), 'the relay carries the microphone');
      await clock.advance(CONSUMER_AHEAD_AFTER_MS);
      await until(() => connection.paramsOf('CREATE_CONSUMER').length === 1, 'the consumer made ahead');
      planned = [toBob];
      follow();
      await until(() => errors.length > 0, 'the offer failed');
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(errors).toEqual([expect.stringContaining('not sent')]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});

describe(`A receiver the relay refuses (limitExceeded) or fails ${RELAY_RECEIVER_FALLBACK.failures} times in a row gets the delivery over the mesh; the relay is tried for it again after RELAY_RECONNECT’s backoff, and takes it back once a consumer connects`, () => {
  const onMeshOnly = (plan: PathPlan | undefined): boolean => plan !== undefined && plan.mesh.has(toBob.key) && !plan.relay.has(toBob.key);

  it('CREATE_CONSUMER refused for the relay’s bound on consumers: the mesh carries Bob’s delivery at once, the relay is asked again later each time, and once it makes a consumer that connects the relay takes the delivery back', async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    let refusing = true;
    connection.answers.set('CREATE_CONSUMER', async () => {
      if (refusing) throw new RelayRpcError(RELAY_ERROR.limitExceeded, 'a connection has at most 64 consumers');
      return { sdp: MICROPHONE_CONSUMER_OFFER };
    });
    const { relay, clock, plans, initiates } = await offeringTheMicrophone(connection);
    // Bob's, not those made ahead for the next receiver.
    const created = () => connection.paramsOf<CreateConsumerParams>('CREATE_CONSUMER').filter((params) => params.peerId !== undefined).length;
    await until(() => created() === 1 && onMeshOnly(plans.at(-1)), 'the mesh carries it');
    expect(relay.failedReceiver(toBob.key)).toBe(true);

    await clock.advance(RELAY_RECONNECT.firstDelayMs - 1);
    expect(created()).toBe(1);
    await clock.advance(1);
    await until(() => created() === 2 && onMeshOnly(plans.at(-1)), 'tried again, refused again');
    await clock.advance(RELAY_RECONNECT.firstDelayMs * 2 - 1);
    expect(created()).toBe(2);

    refusing = false;
    await clock.advance(1);
    await until(() => initiates().length === 1, 'the offer to Bob');
    // Made before broken: the mesh stays until the consumer is established.
    expect(plans.at(-1)!.relay.has(toBob.key) && plans.at(-1)!.mesh.has(toBob.key)).toBe(true);
    connection.iceState(initiates()[0]!, 'connected');
    expect(relay.failedReceiver(toBob.key)).toBe(false);
    await clock.advance(PATH_CHANGE.decodeWaitMs);
    expect(relay.established(toBob.key)).toBe(true);
    expect(clock.pendingDelays().every((delay) => delay > RELAY_RECONNECT.maxDelayMs)).toBe(true);
  });

  it(`a consumer whose ICE fails ${RELAY_RECEIVER_FALLBACK.failures} times in a row goes, and the mesh carries Bob’s delivery`, async () => {
    const connection = new FakeRelayConnection(MICROPHONE_CONSUMER_OFFER);
    const { relay, plans, initiates, terminates } = await offeringTheMicrophone(connection);
    await until(() => initiates().length === 1, 'the offer to Bob');
    connection.iceState(initiates()[0]!, 'failed');
    await until(() => initiates().length === 2, 'made again');
    expect(relay.failedReceiver(toBob.key)).toBe(false);
    connection.iceState(initiates()[1]!, 'failed');
    await until(() => onMeshOnly(plans.at(-1)), 'the mesh carries it');
    expect(relay.failedReceiver(toBob.key)).toBe(true);
    expect(relay.carries(toBob.key)).toBe(false);
    expect(initiates()).toHaveLength(2);
    expect(terminates()).toEqual([initiates()[1]]);
  });
});
