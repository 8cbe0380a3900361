import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { types } from 'mediasoup';
import { signToken } from '../../server/auth/jwt';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';
import type { ConsumerStats } from '../../server/relay/ConsumerSession';
import type { RelayServer } from '../../server/relay/RelayServer';
import { MEDIA_RELAY } from '../../src/protocol/constants';
import type { ProviderConfig } from '../../src/protocol/config';
import { LAYERS_WANTED_GRACE_MS, RELAY_ERROR, RELAY_LIMITS, RELAY_TOKEN_AUDIENCE } from '../../src/protocol/relay';
import { launchRelayBrowser } from './relay-browser';
import { connectRelay, fetchConfig, type RelayReply, type RelayTestClient } from './relay-client';

/** Integration tests of the relay's JSON-RPC endpoint (issue 5 "What it must show"), on real mediasoup workers. */

const CONSUMER_LIMIT = 3;
/** How long a dropped resumable session waits here: short, so that a case can outwait it. */
const RESUME_GRACE_MS = 3_000;
let parley: RunningParley;
let relay: RelayServer;
let config: ProviderConfig;
/** A real Chromium offer: camera with simulcast rids low/medium/high, and microphone. */
let chromiumOffer: string;
const clients: RelayTestClient[] = [];

beforeAll(async () => {
  // Every connection here acts for one user and stays open until the end: the per-user caps
  // (relay-doors.test.ts) are lifted.
  const perUserUncapped = { connectionsPerUser: 1_000, ingestsPerUser: 1_000 };
  parley = await startTestParley({
    relayLimits: { ...RELAY_LIMITS, consumersPerConnection: CONSUMER_LIMIT, resumeGraceMs: RESUME_GRACE_MS, ...perUserUncapped },
  });
  relay = parley.relay!;
  config = await fetchConfig(parley.url);
  const browser = await launchRelayBrowser();
  try {
    chromiumOffer = await browser.senderOffer('capture');
  } finally {
    await browser.close();
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await parley?.stop();
});

async function connect(): Promise<RelayTestClient> {
  const client = await connectRelay(config.sfuServer!.url);
  clients.push(client);
  return client;
}

async function authenticated(): Promise<RelayTestClient> {
  const client = await connect();
  await client.ok('AUTH', { token: config.sfuServer!.password });
  return client;
}

/** Another connection authenticates and is answered: the relay still serves others. */
async function expectRelayServesOthers(): Promise<void> {
  const other = await authenticated();
  expect(await other.ok('GET_ROUTER_CAPABILITIES', { roomAddress: 'others@rooms.parley.localhost' })).toHaveProperty('rtpCapabilities');
  await other.close();
}

/** The relay's own figures of consumer `sid` (one per kind it carries). */
function consumerFigures(sid: string): ConsumerStats[] {
  return relay.stats().consumerDetails.filter((consumer) => consumer.id === sid);
}

/** Ids of every router, transport, producer and consumer in mediasoup's own dumps. */
async function mediasoupObjects(): Promise<Set<string>> {
  const dump = await relay.dump();
  const ids = new Set<string>();
  for (const worker of dump.workers) {
    for (const id of worker.dump.routerIds) ids.add(`router ${id}`);
    for (const router of worker.routers) {
      for (const id of router.transportIds) ids.add(`transport ${id}`);
      for (const { key } of router.mapProducerIdConsumerIds) ids.add(`producer ${key}`);
      for (const { key } of router.mapConsumerIdProducerId) ids.add(`consumer ${key}`);
    }
  }
  return ids;
}

function kindsOf(ids: Set<string>): string[] {
  return [...new Set([...ids].map((id) => id.split(' ')[0]!))].sort();
}

function difference(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a].filter((id) => !b.has(id)));
}

function room(name: string): string {
  return `${name}@${parley.settings.mucDomain}`;
}

/** INGEST of the Chromium offer and a consumer of both kinds: everything one sender makes. */
async function ingestAndConsume(client: RelayTestClient, stream: string, roomAddress: string, sid = `sid-${stream}`): Promise<{ answer: string; offer: string }> {
  const { sdp: answer } = (await client.ok('INGEST', { id: stream, sdp: chromiumOffer })) as { sdp: string };
  const { sdp: offer } = (await client.ok('CREATE_CONSUMER', {
    id: sid,
    peerId: 'receiver',
    roomAddress,
    roomId: 'room-rid',
    source: stream,
    audio: true,
    video: true,
  })) as { sdp: string };
  return { answer, offer };
}

describe('sfuServer in the config (PROTOCOL.md HTTP)', () => {
  it('points at the gateway\'s /relay with a relay token bound to the user and an expiry, and minimumPeers', () => {
    const sfu = config.sfuServer!;
    expect(sfu.url).toBe(`${parley.url.replace('http', 'ws')}relay`);
    expect(sfu.minimumPeers).toBe(MEDIA_RELAY.defaultMinimumPeers);
    const claims = JSON.parse(Buffer.from(sfu.password.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: config.userId.split('@')[0], aud: RELAY_TOKEN_AUDIENCE });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  });
});

describe('JSON-RPC errors: each is clear, and the relay keeps serving others', () => {
  it('answers malformed JSON with a parse error (id null)', async () => {
    const client = await connect();
    client.sendRaw('{"jsonrpc":"2.0","id":1,"method":');
    expect(await client.nextStrayReply()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: RELAY_ERROR.parseError, message: 'parse error: the message is not valid JSON' },
    });
    await expectRelayServesOthers();
  });

  it('answers envelopes that are not JSON-RPC 2.0 requests with invalid request', async () => {
    const client = await connect();
    for (const [raw, message] of [
      ['[1,2]', 'batch requests are not supported'],
      ['"AUTH"', 'a request must be a JSON object'],
      ['{"id":7,"method":"AUTH"}', 'jsonrpc must be "2.0"'],
      ['{"jsonrpc":"2.0","method":"AUTH"}', 'a request needs an id: the relay takes no notifications'],
      ['{"jsonrpc":"2.0","id":8,"method":42}', 'method must be a non-empty string'],
    ] as const) {
      client.sendRaw(raw);
      const reply = await client.nextStrayReply();
      expect(reply.error).toEqual({ code: RELAY_ERROR.invalidRequest, message });
    }
    await expectRelayServesOthers();
  });

  it('answers an unknown method with method not found, carrying the request id', async () => {
    const client = await authenticated();
    const reply = await client.call('SUBSCRIBE', { id: 'x' });
    expect(reply.error).toEqual({ code: RELAY_ERROR.methodNotFound, message: 'unknown method "SUBSCRIBE"' });
    expect(await client.ok('GET_ROUTER_CAPABILITIES', { roomAddress: room('unknown-method') })).toHaveProperty('rtpCapabilities');
    await expectRelayServesOthers();
  });

  it('refuses calls before AUTH and does not execute them', async () => {
    const client = await connect();
    const before = await mediasoupObjects();
    const reply = await client.call('INGEST', { id: 'early', sdp: chromiumOffer });
    expect(reply.error).toEqual({ code: RELAY_ERROR.notAuthenticated, message: 'not authenticated: send AUTH {token} before INGEST' });
    expect(await mediasoupObjects()).toEqual(before);
    await client.ok('AUTH', { token: config.sfuServer!.password });
    // Nothing was ingested under that id.
    expect(await client.ok('DISPOSE', { id: 'early' })).toEqual({ closed: false });
    await expectRelayServesOthers();
  });

  it('refuses a token signed with another secret, an expired one, and a non-relay credential', async () => {
    const sub = config.userId.split('@')[0]!;
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      [signToken('not-the-secret', { sub, aud: RELAY_TOKEN_AUDIENCE, exp: now + 60 }), 'AUTH refused: bad token signature'],
      [signToken(parley.settings.tokenSecret, { sub, aud: RELAY_TOKEN_AUDIENCE, exp: now - 10 }), 'AUTH refused: token expired'],
      [config.credential, 'AUTH refused: not a relay token'],
      ['not-a-token', 'AUTH refused: malformed token'],
    ] as const;
    for (const [token, message] of cases) {
      const client = await connect();
      expect((await client.call('AUTH', { token })).error).toEqual({ code: RELAY_ERROR.notAuthenticated, message });
      // Still not authenticated after the refusal.
      expect((await client.call('DISPOSE', { id: 'x' })).error?.code).toBe(RELAY_ERROR.notAuthenticated);
      await expectRelayServesOthers();
    }
  });

  it('answers invalid params with a message naming the field', async () => {
    const client = await authenticated();
    const missing = await client.call('CREATE_CONSUMER', { id: 'c', peerId: 'p', roomAddress: room('params'), roomId: 'r', source: 's', audio: true });
    expect(missing.error).toEqual({ code: RELAY_ERROR.invalidParams, message: 'video must be true or false' });
    const profile = await client.call('SET_CONSUMER_PROFILE', { id: 'c', profile: 'ultra' });
    expect(profile.error).toEqual({ code: RELAY_ERROR.invalidParams, message: 'profile must be one of high, medium, low, off' });
    const notSdp = await client.call('INGEST', { id: 'bad-sdp', sdp: 'hello' });
    expect(notSdp.error).toEqual({ code: RELAY_ERROR.invalidParams, message: 'sdp: an SDP starts with "v=0"' });
    await client.ok('CREATE_INGEST_TRANSPORT', { id: 'client-made', roomAddress: room('params') });
    const produce = await client.call('PRODUCE', { id: 'client-made', kind: 'video', rtpParameters: { codecs: 'VP8' }, appData: {} });
    expect(produce.error).toEqual({ code: RELAY_ERROR.invalidParams, message: 'video producer refused: missing params.codecs' });
    const noCodec = await client.call('PRODUCE', {
      id: 'client-made',
      kind: 'video',
      rtpParameters: { codecs: [{ mimeType: 'video/AV1', payloadType: 45, clockRate: 90000 }], encodings: [{ ssrc: 1 }] },
    });
    expect(noCodec.error).toEqual({ code: RELAY_ERROR.mediaError, message: 'video producer refused: unsupported codec [mimeType:video/AV1, payloadType:45]' });
    const unknown = await client.call('START_CONSUMER', { id: 'nobody', sdp: 'v=0' });
    expect(unknown.error).toEqual({ code: RELAY_ERROR.notFound, message: 'no consumer "nobody" on this connection' });
    await expectRelayServesOthers();
  });

  it('answers a message over the size limit with an error, and closes the socket on a far larger one', async () => {
    const client = await authenticated();
    const oversized = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'INGEST', params: { id: 'big', sdp: 'x'.repeat(RELAY_LIMITS.messageBytes) } });
    client.sendRaw(oversized);
    expect((await client.nextStrayReply()).error).toEqual({
      code: RELAY_ERROR.invalidRequest,
      message: `message of ${Buffer.byteLength(oversized)} bytes is over the ${RELAY_LIMITS.messageBytes}-byte limit`,
    });
    // The connection goes on.
    expect(await client.ok('GET_ROUTER_CAPABILITIES', { roomAddress: room('size') })).toHaveProperty('rtpCapabilities');

    const flooding = await authenticated();
    flooding.sendRaw(Buffer.alloc(RELAY_LIMITS.closeAboveBytes + 1, 0x20));
    expect((await flooding.closed).code).toBe(1009);
    await expectRelayServesOthers();
  });

  it('bounds the request rate per connection with a token bucket', async () => {
    const client = await authenticated();
    const replies = await Promise.all(Array.from({ length: RELAY_LIMITS.requestBurst * 2 }, () => client.call('DISPOSE', { id: 'nothing' })));
    const limited = replies.filter((reply) => reply.error?.code === RELAY_ERROR.rateLimited);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.error!.message).toBe(`too many requests: at most ${RELAY_LIMITS.requestBurst} at once and ${RELAY_LIMITS.requestsPerSecond} a second`);
    // AUTH took one token of the burst.
    expect(replies.filter((reply) => reply.result).length).toBeGreaterThanOrEqual(RELAY_LIMITS.requestBurst - 1);
    await expectRelayServesOthers();
  });

  it('bounds the consumers of one connection', async () => {
    const client = await authenticated();
    await client.ok('INGEST', { id: 'limited', sdp: chromiumOffer });
    const create = (sid: string) =>
      client.call('CREATE_CONSUMER', { id: sid, peerId: sid, roomAddress: room('limits'), roomId: 'r', source: 'limited', audio: true, video: false });
    for (let i = 0; i < CONSUMER_LIMIT; i += 1) expect((await create(`sid-${i}`)).result).toHaveProperty('sdp');
    expect((await create('one-too-many')).error).toEqual({ code: RELAY_ERROR.limitExceeded, message: `a connection has at most ${CONSUMER_LIMIT} consumers` });
    // Recreating an existing id replaces it (the retry after `failed`): not one more.
    expect((await create('sid-0')).result).toHaveProperty('sdp');
    await client.close();
    await expectRelayServesOthers();
  });

  it('keeps a connection to one room', async () => {
    const client = await authenticated();
    await client.ok('GET_ROUTER_CAPABILITIES', { roomAddress: room('first') });
    const other = await client.call('CREATE_INGEST_TRANSPORT', { id: 'cam', roomAddress: room('second') });
    expect(other.error).toEqual({
      code: RELAY_ERROR.conflict,
      message: `this connection serves room "${room('first')}"; use another connection for "${room('second')}"`,
    });
  });
});

describe('INGEST and CREATE_CONSUMER (PROTOCOL.md "Media relay")', () => {
  it('answers a Chromium simulcast offer as ice-lite, taking its three rids', async () => {
    const client = await authenticated();
    const { answer } = await ingestAndConsume(client, 'camera', room('ingest'));
    const lines = answer.split('\r\n');
    expect(lines).toContain('a=ice-lite');
    expect(lines).toContain('a=setup:passive');
    expect(lines.filter((line) => line === 'a=recvonly')).toHaveLength(2);
    expect(lines).toEqual(expect.arrayContaining(['a=rid:low recv', 'a=rid:medium recv', 'a=rid:high recv', 'a=simulcast:recv low;medium;high']));
    expect(lines).toContain('a=end-of-candidates');
    expect(lines.filter((line) => line.startsWith('a=candidate:')).every((line) => line.includes(' 127.0.0.1 '))).toBe(true);
    expect(answer).toMatch(/^m=audio \d+ UDP\/TLS\/RTP\/SAVPF 111$/m);
    expect(answer).toMatch(/^m=video \d+ UDP\/TLS\/RTP\/SAVPF 96 97$/m);
    expect(lines).toContain('a=rtpmap:96 VP8/90000');
    expect(lines).toContain('a=fmtp:97 apt=96');

    const stats = relay.stats();
    expect(stats.rooms.find((summary) => summary.key === `room:${room('ingest')}`)?.routerIds).toHaveLength(1);
    const consumers = stats.consumerDetails.filter((consumer) => consumer.source === 'camera');
    expect(consumers.map((consumer) => [consumer.kind, consumer.type])).toEqual([
      ['audio', 'simple'],
      ['video', 'simulcast'],
    ]);
    await client.close();
  });

  it('asks the worker for a consumer’s audio and video at once, not one after the other (issue 14: a newcomer waits for this offer)', async () => {
    let asking = 0;
    let mostAtOnce = 0;
    // Every transport made meanwhile counts the consumers it is asking the worker for.
    const countAsking = (transport: types.Transport) => {
      const consume = transport.consume.bind(transport);
      transport.consume = async (options) => {
        asking += 1;
        mostAtOnce = Math.max(mostAtOnce, asking);
        try {
          return await consume(options);
        } finally {
          asking -= 1;
        }
      };
    };
    const watchRouter = (router: types.Router) => router.observer.on('newtransport', countAsking);
    const routers = new Set(relay.routers());
    routers.forEach(watchRouter);
    const newRouter = (router: types.Router) => {
      routers.add(router);
      watchRouter(router);
    };
    for (const worker of relay.workers) worker.observer.on('newrouter', newRouter);
    try {
      const client = await authenticated();
      await ingestAndConsume(client, 'camera-at-once', room('consume-at-once'));
      expect(mostAtOnce).toBe(2);
      await client.close();
    } finally {
      for (const worker of relay.workers) worker.observer.off('newrouter', newRouter);
      for (const router of routers) router.observer.off('newtransport', countAsking);
    }
  });

  it('offers a consumer as ice-lite, ssrc-signalled, candidates inline, no rids, one m-line per kind', async () => {
    const client = await authenticated();
    const { offer } = await ingestAndConsume(client, 'camera-2', room('consume'));
    const lines = offer.split('\r\n');
    expect(lines).toContain('a=ice-lite');
    expect(lines).toContain('a=setup:actpass');
    expect(lines.filter((line) => line.startsWith('m='))).toEqual([
      expect.stringMatching(/^m=audio \d+ UDP\/TLS\/RTP\/SAVPF \d+$/),
      expect.stringMatching(/^m=video \d+ UDP\/TLS\/RTP\/SAVPF \d+ \d+$/),
    ]);
    expect(lines).toContain('a=group:BUNDLE audio video');
    expect(lines.filter((line) => line === 'a=sendonly')).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith('a=candidate:')).length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((line) => line === 'a=end-of-candidates')).toHaveLength(2);
    expect(lines.some((line) => line.startsWith('a=rid') || line.startsWith('a=simulcast'))).toBe(false);
    expect(lines.filter((line) => line.startsWith('a=ssrc-group:FID '))).toHaveLength(1);
    expect(lines.filter((line) => / cname:/.test(line))).toHaveLength(3);
    // The browser's stream and track ids travel on, as they would in a mesh session.
    const offeredMsids = chromiumOffer.split('\r\n').filter((line) => line.startsWith('a=msid:'));
    expect(lines.filter((line) => line.startsWith('a=msid:'))).toEqual(offeredMsids);
    await client.close();
  });

  it('takes a profile per consumer: spatial layer high/medium/low, off pauses', async () => {
    const client = await authenticated();
    await ingestAndConsume(client, 'camera-3', room('profiles'), 'sid-profiles');
    const video = () => consumerFigures('sid-profiles').find((consumer) => consumer.kind === 'video')!;
    expect(await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-profiles', profile: 'low' })).toEqual({ profile: 'low' });
    expect(video().preferredSpatialLayer).toBe(0);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-profiles', profile: 'medium' });
    expect(video().preferredSpatialLayer).toBe(1);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-profiles', profile: 'off' });
    expect(video()).toMatchObject({ paused: true, profile: 'off' });
    await client.close();
  });

  it('sends no CONSUMER_ICE_STATE for consumers the client closed itself', async () => {
    const client = await authenticated();
    await ingestAndConsume(client, 'short-lived', room('quiet'), 'sid-quiet');
    await client.ok('DISPOSE', { id: 'short-lived' });
    // A later reply proves earlier notifications would have arrived by now (one socket, in order).
    await client.ok('GET_ROUTER_CAPABILITIES', { roomAddress: room('quiet') });
    expect(client.notifications).toEqual([]);
    await client.close();
  });

  it('refuses a consumer of a stream the connection did not ingest', async () => {
    const client = await authenticated();
    const reply = await client.call('CREATE_CONSUMER', { id: 's', peerId: 'p', roomAddress: room('x'), roomId: 'r', source: 'nope', audio: true, video: true });
    expect(reply.error).toEqual({ code: RELAY_ERROR.notFound, message: 'no stream "nope" is ingested on this connection' });
  });
});

/** A camera in simulcast low / medium / high as mediasoup-client's SendTransport produces it (rids r0 … r2). */
const simulcastCamera = {
  mid: '0',
  codecs: [{ mimeType: 'video/VP8', payloadType: 96, clockRate: 90000, rtcpFeedback: [{ type: 'nack' }, { type: 'ccm', parameter: 'fir' }] }],
  headerExtensions: [
    { uri: 'urn:ietf:params:rtp-hdrext:sdes:mid', id: 1 },
    { uri: 'urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id', id: 2 },
  ],
  encodings: [{ rid: 'r0' }, { rid: 'r1' }, { rid: 'r2' }],
};
/** The spatial layers LAYERS_WANTED has said so far, in order. */
async function layersWantedOf(client: RelayTestClient, roomAddress: string): Promise<number[]> {
  // A later reply proves earlier notifications have arrived (one socket, in order).
  await client.ok('GET_ROUTER_CAPABILITIES', { roomAddress });
  return client.layersWanted.map((notification) => notification.spatialLayer);
}

/** The client ingests stream `id` as mediasoup-client does (CREATE_INGEST_TRANSPORT, PRODUCE) and produces the simulcast camera on it. */
async function produceCamera(client: RelayTestClient, id: string, roomAddress: string): Promise<void> {
  await client.ok('CREATE_INGEST_TRANSPORT', { id, roomAddress });
  await client.ok('PRODUCE', { id, kind: 'video', rtpParameters: simulcastCamera, appData: { trackId: 'camera' } });
}

/** A consumer of `source`'s video alone, for a receiver of its own. */
const consumerOf = (client: RelayTestClient, id: string, source: string, roomAddress: string) =>
  client.ok('CREATE_CONSUMER', { id, peerId: `peer-${id}`, roomAddress, roomId: 'rid', source, audio: false, video: true });

describe('LAYERS_WANTED: a sender of its own simulcast video (PRODUCE) is told the highest layer its consumers want, and need not encode the rest (issue 14, a steady call that costs little)', () => {
  it('each consumer counts with its profile, off and closed ones not at all, the low layer always; nothing is given up before every receiver has had the grace to say what it needs', async () => {
    const client = await authenticated();
    const roomAddress = room('layers-wanted');
    await produceCamera(client, 'watched', roomAddress);
    const wanted = () => layersWantedOf(client, roomAddress);
    // Nobody consumes it yet: it sends every layer, as it started.
    expect(await wanted()).toEqual([]);

    await consumerOf(client, 'sid-a', 'watched', roomAddress);
    expect(await wanted()).toEqual([]);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-a', profile: 'medium' });
    expect(await wanted()).toEqual([1]);
    await consumerOf(client, 'sid-b', 'watched', roomAddress);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-b', profile: 'high' });
    expect(await wanted()).toEqual([1, 2]);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-b', profile: 'off' });
    expect(await wanted()).toEqual([1, 2, 1]);
    await client.ok('REMOVE_CONSUMER', { id: 'sid-a' });
    expect(await wanted()).toEqual([1, 2, 1, 0]);

    // A receiver that never says which layer it needs (the 1.30.3 client) keeps its first profile: high.
    await consumerOf(client, 'sid-c', 'watched', roomAddress);
    expect(await wanted()).toEqual([1, 2, 1, 0]);
    await expect.poll(wanted, { timeout: LAYERS_WANTED_GRACE_MS + 5_000 }).toEqual([1, 2, 1, 0, 2]);

    // While a new receiver may still say what it needs, no layer is given up; asked for, one comes at once.
    await consumerOf(client, 'sid-d', 'watched', roomAddress);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-c', profile: 'low' });
    expect(await wanted()).toEqual([1, 2, 1, 0, 2]);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-d', profile: 'low' });
    expect(await wanted()).toEqual([1, 2, 1, 0, 2, 0]);
    expect(client.layersWanted.every((notification) => notification.id === 'watched')).toBe(true);
    await client.close();
  });

  it('a stream ingested from SDP (INGEST, the 1.30.3 client) is never told: that client does not know the notification', async () => {
    const client = await authenticated();
    await ingestAndConsume(client, 'camera-sdp', room('layers-sdp'), 'sid-sdp');
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-sdp', profile: 'low' });
    await client.ok('GET_ROUTER_CAPABILITIES', { roomAddress: room('layers-sdp') });
    expect(client.layersWanted).toEqual([]);
    await client.close();
  });
});

describe('A kind shared anew replaces its producer: PRODUCE of a kind the stream already produces (mediasoup-client closes the old one without telling the relay)', () => {
  it('a camera dropped and shared again is consumed from its new producer, the old one is closed, and re-sharing is not bounded by the old ones', async () => {
    const client = await authenticated();
    const roomAddress = room('reshared');
    await produceCamera(client, 'reshared', roomAddress);
    const producersOf = () => relay.stats().ingestDetails.find((ingest) => ingest.id === 'reshared')?.producers.map((producer) => producer.id) ?? [];
    const [first] = producersOf();
    // One more time than the stream's bound, each on a transceiver of its own, as mediasoup-client produces a track shared anew.
    let latest = '';
    for (let time = 1; time <= RELAY_LIMITS.producersPerIngest + 1; time += 1) {
      ({ producerId: latest } = (await client.ok('PRODUCE', { id: 'reshared', kind: 'video', rtpParameters: { ...simulcastCamera, mid: `${time}` }, appData: { trackId: `camera-${time}` } })) as {
        producerId: string;
      });
    }
    expect(producersOf()).toEqual([latest]);
    expect(latest).not.toBe(first);
    await consumerOf(client, 'sid-reshared', 'reshared', roomAddress);
    expect(consumerFigures('sid-reshared').map((consumer) => consumer.producerId)).toEqual([latest]);
    await client.close();
  });
});

describe('A consumer made ahead of its receiver: CREATE_CONSUMER without peerId, then CLAIM_CONSUMER (issue 14: a newcomer to a relay call waits for no CREATE_CONSUMER)', () => {
  it('is offered like any consumer, wants no layer and cannot start until claimed, and is claimed once; claimed, it is a new consumer of that receiver', async () => {
    const client = await authenticated();
    const roomAddress = room('ahead');
    await produceCamera(client, 'ahead-camera', roomAddress);
    const wanted = () => layersWantedOf(client, roomAddress);
    const { sdp } = (await client.ok('CREATE_CONSUMER', { id: 'sid-ahead', roomAddress, roomId: 'rid', source: 'ahead-camera', audio: false, video: true })) as { sdp: string };
    expect(sdp.split('\r\n')).toEqual(expect.arrayContaining(['a=ice-lite', 'a=sendonly', expect.stringMatching(/^a=msid:\S+ camera$/)]));
    expect(consumerFigures('sid-ahead')).toEqual([expect.objectContaining({ peerId: undefined, madeAhead: true, paused: true })]);

    // Nobody watches it: the one receiver's low layer is all the sender is told to send, at once.
    await consumerOf(client, 'sid-watching', 'ahead-camera', roomAddress);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-watching', profile: 'low' });
    expect(await wanted()).toEqual([0]);
    const early = await client.call('START_CONSUMER', { id: 'sid-ahead', sdp: 'v=0' });
    expect(early.error).toEqual({ code: RELAY_ERROR.conflict, message: 'consumer "sid-ahead" was made ahead and has no receiver yet (CLAIM_CONSUMER)' });

    expect(await client.ok('CLAIM_CONSUMER', { id: 'sid-ahead', peerId: 'newcomer' })).toEqual({});
    expect(consumerFigures('sid-ahead')).toEqual([expect.objectContaining({ peerId: 'newcomer', madeAhead: true })]);
    const again = await client.call('CLAIM_CONSUMER', { id: 'sid-ahead', peerId: 'someone-else' });
    expect(again.error).toEqual({ code: RELAY_ERROR.conflict, message: 'consumer "sid-ahead" already has its receiver' });
    const unknown = await client.call('CLAIM_CONSUMER', { id: 'nobody', peerId: 'newcomer' });
    expect(unknown.error).toEqual({ code: RELAY_ERROR.notFound, message: 'no consumer "nobody" on this connection' });
    // Claimed, its receiver has the grace to say what it needs, then counts: medium at once when asked.
    expect(await wanted()).toEqual([0]);
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-ahead', profile: 'medium' });
    expect(await wanted()).toEqual([0, 1]);
    await client.close();
  });
});

describe('Nothing a connection made outlives it (mediasoup\'s own dumps)', () => {
  it('DISPOSE closes the ingest\'s transport, producers and consumers, and leaves another sender\'s alone', async () => {
    const roomAddress = room('dispose');
    const stayer = await authenticated();
    await ingestAndConsume(stayer, 'stayer-camera', roomAddress);
    const beforeLeaver = await mediasoupObjects();

    const leaver = await authenticated();
    await ingestAndConsume(leaver, 'leaver-camera', roomAddress);
    const made = difference(await mediasoupObjects(), beforeLeaver);
    expect(kindsOf(made)).toEqual(['consumer', 'producer', 'router', 'transport']);

    expect(await leaver.ok('DISPOSE', { id: 'leaver-camera' })).toEqual({ closed: true });
    const after = await mediasoupObjects();
    expect([...made].filter((id) => after.has(id))).toEqual([]);
    expect([...beforeLeaver].filter((id) => !after.has(id))).toEqual([]);
    // The consumer went with its source.
    expect((await leaver.call('START_CONSUMER', { id: 'sid-leaver-camera', sdp: 'v=0' })).error?.code).toBe(RELAY_ERROR.notFound);
    expect(await leaver.ok('DISPOSE', { id: 'leaver-camera' })).toEqual({ closed: false });
    await stayer.close();
  });

  it('REMOVE_CONSUMER closes that consumer\'s transport and consumers only', async () => {
    const client = await authenticated();
    await ingestAndConsume(client, 'kept-camera', room('remove'), 'sid-removed');
    const withConsumer = await mediasoupObjects();
    await client.ok('REMOVE_CONSUMER', { id: 'sid-removed' });
    const gone = difference(withConsumer, await mediasoupObjects());
    expect(kindsOf(gone)).toEqual(['consumer', 'transport']);
    expect([...gone].filter((id) => id.startsWith('consumer'))).toHaveLength(2);
    expect(await client.ok('REMOVE_CONSUMER', { id: 'sid-removed' })).toEqual({ closed: false });
    await client.close();
  });

  it('a closed socket closes everything the connection made, while a second connection keeps its own', async () => {
    const roomAddress = room('socket-close');
    const stayer = await authenticated();
    await ingestAndConsume(stayer, 'stayer', roomAddress);
    const beforeLeaver = await mediasoupObjects();

    const leaver = await authenticated();
    await ingestAndConsume(leaver, 'leaver', roomAddress);
    await leaver.ok('CREATE_INGEST_TRANSPORT', { id: 'leaver-screen', roomAddress });
    const made = difference(await mediasoupObjects(), beforeLeaver);
    expect(kindsOf(made)).toEqual(['consumer', 'producer', 'router', 'transport']);

    await leaver.close();
    // The server sees the close a moment after the client does.
    await expect.poll(async () => {
      const now = await mediasoupObjects();
      return [...made].filter((id) => now.has(id));
    }).toEqual([]);
    const after = await mediasoupObjects();
    expect([...beforeLeaver].filter((id) => !after.has(id))).toEqual([]);
    expect(relay.stats().consumerDetails.filter((consumer) => consumer.source === 'leaver')).toEqual([]);
    await stayer.close();
  });
});

describe('A connection that outlives its socket: a resumable session whose socket drops waits for its client, who takes it over on a new socket (AUTH resume)', () => {
  /** A Parley client's connection: AUTH resumable, and the session's id. */
  async function resumable(): Promise<{ client: RelayTestClient; session: string }> {
    const client = await connect();
    const { session } = (await client.ok('AUTH', { token: config.sfuServer!.password, resumable: true })) as { session: string };
    expect(session).toMatch(/^[\w-]{20,}$/);
    return { client, session };
  }

  async function resumeOn(session: string, token = config.sfuServer!.password): Promise<{ client: RelayTestClient; reply: RelayReply }> {
    const client = await connect();
    return { client, reply: await client.call('AUTH', { token, resume: session }) };
  }

  it('a dropped socket leaves everything the session made; the same user resumes it, gets the notifications sent meanwhile, and goes on', async () => {
    const roomAddress = room('resume');
    const { client, session } = await resumable();
    await produceCamera(client, 'kept-camera', roomAddress);
    await consumerOf(client, 'sid-kept', 'kept-camera', roomAddress);
    const before = await mediasoupObjects();
    await client.drop();
    // The consumer's receiver says nothing: once its grace is over, LAYERS_WANTED goes out, to no socket.
    await new Promise((resolve) => setTimeout(resolve, LAYERS_WANTED_GRACE_MS + 500));
    expect(difference(before, await mediasoupObjects())).toEqual(new Set());

    const { client: again, reply } = await resumeOn(session);
    expect(reply.result).toMatchObject({ session });
    expect(await layersWantedOf(again, roomAddress)).toEqual([2]);
    expect(await again.ok('PING', {})).toEqual({});
    expect(await again.ok('DISPOSE', { id: 'kept-camera' })).toEqual({ closed: true });
    await again.close();
  });

  it('a socket closed with a close frame ends its session at once: nothing it made is left, and a resume is refused as not found', async () => {
    const { client, session } = await resumable();
    const before = await mediasoupObjects();
    await produceCamera(client, 'closed-camera', room('resume-closed'));
    await consumerOf(client, 'sid-closed', 'closed-camera', room('resume-closed'));
    const made = difference(await mediasoupObjects(), before);
    await client.close();
    await expect.poll(() => stillThere(made)).toEqual([]);
    await expectNoResume(session);
  });

  it('nobody resumes it within resumeGraceMs: it closes with everything it made', async () => {
    const { client, session } = await resumable();
    const before = await mediasoupObjects();
    await produceCamera(client, 'left-camera', room('resume-late'));
    const made = difference(await mediasoupObjects(), before);
    await client.drop();
    await new Promise((resolve) => setTimeout(resolve, RESUME_GRACE_MS / 2));
    expect(await stillThere(made)).toHaveLength(made.size);
    await expect.poll(() => stillThere(made), { timeout: RESUME_GRACE_MS + 5_000 }).toEqual([]);
    await expectNoResume(session);
  });

  it('another user cannot take it over; a 1.30.3 connection (AUTH without resumable) has no session to resume, and its dropped socket closes everything', async () => {
    const { client, session } = await resumable();
    await produceCamera(client, 'owned-camera', room('resume-owner'));
    await client.drop();
    const now = Math.floor(Date.now() / 1000);
    const otherUser = signToken(parley.settings.tokenSecret, { sub: 'someone-else', aud: RELAY_TOKEN_AUDIENCE, exp: now + 60 });
    const { client: intruder, reply } = await resumeOn(session, otherUser);
    expect(reply.error?.code).toBe(RELAY_ERROR.notFound);
    await intruder.close();
    // Its owner still can.
    const { client: owner, reply: resumed } = await resumeOn(session);
    expect(resumed.result).toMatchObject({ session });
    await owner.close();

    const before = await mediasoupObjects();
    const reference = await connect();
    expect(await reference.ok('AUTH', { token: config.sfuServer!.password })).not.toHaveProperty('session');
    await produceCamera(reference, 'reference-camera', room('resume-reference'));
    const made = difference(await mediasoupObjects(), before);
    await reference.drop();
    await expect.poll(() => stillThere(made)).toEqual([]);
  });

  it('a request asked again on the socket that resumed the session, by its id, gets the answer the relay kept and is not run again; a 1.30.3 connection runs every request it gets', async () => {
    const roomAddress = room('resume-asked-again');
    const request = JSON.stringify({ jsonrpc: '2.0', id: 'asked-twice', method: 'CREATE_INGEST_TRANSPORT', params: { id: 'asked-camera', roomAddress } });
    const { client, session } = await resumable();
    client.sendRaw(request);
    const first = await client.nextStrayReply();
    expect(first.result).toHaveProperty('dtlsParameters');
    await client.drop();
    const { client: again } = await resumeOn(session);
    again.sendRaw(request);
    expect(await again.nextStrayReply()).toEqual(first);
    expect(await again.ok('DISPOSE', { id: 'asked-camera' })).toEqual({ closed: true });
    await again.close();

    const reference = await connect();
    await reference.ok('AUTH', { token: config.sfuServer!.password });
    reference.sendRaw(request);
    expect((await reference.nextStrayReply()).result).toHaveProperty('dtlsParameters');
    reference.sendRaw(request);
    expect((await reference.nextStrayReply()).error).toEqual({ code: RELAY_ERROR.conflict, message: 'stream "asked-camera" is already ingested; DISPOSE it first' });
    await reference.close();
  });

  it('resumed while its old socket is still open on the relay (the client noticed the fault first): the old socket is dropped, the session goes on', async () => {
    const { client: old, session } = await resumable();
    await produceCamera(old, 'moved-camera', room('resume-takeover'));
    const { client: current, reply } = await resumeOn(session);
    expect(reply.result).toMatchObject({ session });
    expect((await old.closed).code).toBe(1006);
    expect(await current.ok('DISPOSE', { id: 'moved-camera' })).toEqual({ closed: true });
    await current.close();
  });
});

/** Which of `made` mediasoup still has. */
async function stillThere(made: Set<string>): Promise<string[]> {
  const now = await mediasoupObjects();
  return [...made].filter((id) => now.has(id));
}

async function expectNoResume(session: string): Promise<void> {
  const client = await connect();
  const reply = await client.call('AUTH', { token: config.sfuServer!.password, resume: session });
  expect(reply.error?.code).toBe(RELAY_ERROR.notFound);
  expect(reply.error?.message).toMatch(/no relay session to resume/);
  await client.close();
}
