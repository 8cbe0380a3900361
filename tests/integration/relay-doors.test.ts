import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';
import type { ProviderConfig } from '../../src/protocol/config';
import { RELAY_ERROR, RELAY_LIMITS } from '../../src/protocol/relay';
import { until } from '../support/until';
import { connectRelay, fetchConfig, type RelayTestClient } from './relay-client';

/**
 * Bounded doors of the media relay (issue 12, item 5): a socket that does not authenticate is
 * closed, and connections, ingests and media transports are capped per user and per address, each cap answered with
 * a clear JSON-RPC error. Small limits so that a test reaches them; real mediasoup worker.
 */

const LIMITS = { ...RELAY_LIMITS, authTimeoutMs: 300, connectionsPerUser: 2, connectionsPerAddress: 5, ingestsPerUser: 2, transportsPerAddress: 4, resumeGraceMs: 1_000 };
let parley: RunningParley;
let relayUrl: string;
const open: RelayTestClient[] = [];

beforeAll(async () => {
  parley = await startTestParley({ relayWorkers: 1, relayLimits: LIMITS });
  relayUrl = (await fetchConfig(parley.url)).sfuServer!.url;
}, 60_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  await relayLetGo();
});

/** The client sees its close before the relay may have handled it: wait until the relay has. */
async function relayLetGo(): Promise<void> {
  const stillOpen = open.length;
  await until(() => parley.relay!.stats().connections === stillOpen, 'the relay to see the sockets closed');
}

afterAll(async () => {
  await parley?.stop();
});

async function connect(): Promise<RelayTestClient> {
  const client = await connectRelay(relayUrl);
  open.push(client);
  return client;
}

async function authenticatedAs(config: ProviderConfig): Promise<RelayTestClient> {
  const client = await connect();
  await client.ok('AUTH', { token: config.sfuServer!.password });
  return client;
}

describe('The relay closes a socket that does not authenticate within authTimeoutMs', () => {
  it('closes a silent socket with 1008 and says why, and keeps an authenticated one', async () => {
    const authenticated = await authenticatedAs(await fetchConfig(parley.url));
    const silent = await connect();
    expect(await silent.closed).toEqual({ code: 1008, reason: `no successful AUTH within ${LIMITS.authTimeoutMs} ms` });
    // Opened earlier, so past its own deadline too: authenticated, it stays.
    expect(await authenticated.ok('DISPOSE', { id: 'nothing' })).toEqual({ closed: false });
  });

  it('closes a socket whose AUTH was refused: it is still not authenticated', async () => {
    const refused = await connect();
    expect((await refused.call('AUTH', { token: 'not-a-token' })).error?.code).toBe(RELAY_ERROR.notAuthenticated);
    expect((await refused.closed).code).toBe(1008);
  });
});

describe('The relay caps authenticated connections per user (connectionsPerUser)', () => {
  it('refuses AUTH beyond the cap with limitExceeded, and takes it again once one of them has closed', async () => {
    const alice = await fetchConfig(parley.url);
    const first = await authenticatedAs(alice);
    await authenticatedAs(alice);
    const third = await connect();
    expect((await third.call('AUTH', { token: alice.sfuServer!.password })).error).toEqual({
      code: RELAY_ERROR.limitExceeded,
      message: `too many relay connections for this user: at most ${LIMITS.connectionsPerUser}`,
    });
    // Another user is not affected.
    await authenticatedAs(await fetchConfig(parley.url));
    await first.close();
    open.splice(open.indexOf(first), 1);
    await relayLetGo();
    expect(await third.ok('AUTH', { token: alice.sfuServer!.password })).toEqual({ user: expect.any(String) });
  });
});

describe('A user’s relay connection slot is their session’s: a failed or repeated AUTH takes none, a resume none more, and a dropped session keeps its own until it ends', () => {
  it('a socket whose AUTH failed (no session to resume) holds no slot: after any number of failures it authenticates, once', async () => {
    const alice = await fetchConfig(parley.url);
    const token = alice.sfuServer!.password;
    const retrying = await connect();
    for (let attempt = 0; attempt <= LIMITS.connectionsPerUser; attempt++) {
      expect((await retrying.call('AUTH', { token, resume: 'no-such-session' })).error?.code).toBe(RELAY_ERROR.notFound);
    }
    await retrying.ok('AUTH', { token });
    expect((await retrying.call('AUTH', { token })).error?.code).toBe(RELAY_ERROR.conflict);
    // It holds one slot: the user's other one is free, and then none.
    await authenticatedAs(alice);
    expect((await (await connect()).call('AUTH', { token })).error?.code).toBe(RELAY_ERROR.limitExceeded);
  });

  it('a resumable session whose socket dropped keeps its slot while it waits, is resumed at the cap, and gives the slot back once it ends', async () => {
    const alice = await fetchConfig(parley.url);
    const token = alice.sfuServer!.password;
    const first = await connect();
    const { session } = (await first.ok('AUTH', { token, resumable: true })) as { session: string };
    await authenticatedAs(alice);
    open.splice(open.indexOf(first), 1);
    await first.drop();
    await relayLetGo();

    const returning = await connect();
    expect((await returning.call('AUTH', { token })).error?.code).toBe(RELAY_ERROR.limitExceeded);
    expect(await returning.ok('AUTH', { token, resume: session })).toMatchObject({ session });

    // Dropped again and not resumed: the relay's wait, begun before this one, is over first.
    open.splice(open.indexOf(returning), 1);
    await returning.drop();
    await relayLetGo();
    await new Promise((resolve) => setTimeout(resolve, LIMITS.resumeGraceMs));
    await authenticatedAs(alice);
  });
});

describe('The relay caps sockets per network address (connectionsPerAddress)', () => {
  it('answers the socket beyond the cap with a limitExceeded error (id null) and closes it', async () => {
    for (let index = 0; index < LIMITS.connectionsPerAddress; index++) await connect();
    const beyond = await connect();
    expect(await beyond.nextStrayReply()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: RELAY_ERROR.limitExceeded, message: `too many relay connections from this address: at most ${LIMITS.connectionsPerAddress}` },
    });
    expect((await beyond.closed).code).toBe(1008);
  });

  it('survives what a refused socket sends before it is closed (a frame past closeAboveBytes)', async () => {
    for (let index = 0; index < LIMITS.connectionsPerAddress; index++) await connect();
    // Sent as the socket opens, before its refusal is read: by then the relay has taken it.
    const beyond = new WebSocket(relayUrl);
    beyond.once('open', () => beyond.send(Buffer.alloc(LIMITS.closeAboveBytes + 1)));
    beyond.on('error', () => {});
    await new Promise((resolve) => beyond.once('close', resolve));
    await open.pop()!.close();
    await relayLetGo();
    expect(await (await authenticatedAs(await fetchConfig(parley.url))).ok('DISPOSE', { id: 'nothing' })).toEqual({ closed: false });
  });
});

describe('The relay caps streams ingested per user over all their connections (ingestsPerUser)', () => {
  it('refuses the ingest beyond the cap with limitExceeded, and takes it again after a DISPOSE or a closed connection', async () => {
    const alice = await fetchConfig(parley.url);
    const roomAddress = `doors-${Date.now()}@${parley.settings.mucDomain}`;
    const camera = await authenticatedAs(alice);
    const screen = await authenticatedAs(alice);
    await camera.ok('CREATE_INGEST_TRANSPORT', { id: 'camera', roomAddress });
    await screen.ok('CREATE_INGEST_TRANSPORT', { id: 'screen', roomAddress });
    expect((await camera.call('CREATE_INGEST_TRANSPORT', { id: 'more', roomAddress })).error).toEqual({
      code: RELAY_ERROR.limitExceeded,
      message: `too many streams ingested by this user: at most ${LIMITS.ingestsPerUser}`,
    });
    await screen.ok('DISPOSE', { id: 'screen' });
    await camera.ok('CREATE_INGEST_TRANSPORT', { id: 'more', roomAddress });
    expect(parley.relay!.stats().ingestDetails).toHaveLength(2);

    // Closing a connection gives back the slots of everything it ingested.
    await camera.close();
    open.splice(open.indexOf(camera), 1);
    await relayLetGo();
    await screen.ok('CREATE_INGEST_TRANSPORT', { id: 'again-1', roomAddress });
    await screen.ok('CREATE_INGEST_TRANSPORT', { id: 'again-2', roomAddress });
  });
});

/** A microphone as mediasoup-client's SendTransport produces it. */
const microphone = { mid: '0', codecs: [{ mimeType: 'audio/opus', payloadType: 111, clockRate: 48000, channels: 2 }], encodings: [{ ssrc: 1111 }] };

describe('The relay caps media transports per network address over all its connections and users (transportsPerAddress)', () => {
  it('refuses the transport beyond the cap, an ingest’s or a consumer’s, with limitExceeded, and makes one again once another has closed', async () => {
    const roomAddress = `transports-${Date.now()}@${parley.settings.mucDomain}`;
    const alice = await authenticatedAs(await fetchConfig(parley.url));
    const bob = await authenticatedAs(await fetchConfig(parley.url));
    await alice.ok('CREATE_INGEST_TRANSPORT', { id: 'camera', roomAddress });
    await alice.ok('PRODUCE', { id: 'camera', kind: 'audio', rtpParameters: microphone, appData: { trackId: 'microphone' } });
    await bob.ok('CREATE_INGEST_TRANSPORT', { id: 'camera', roomAddress });
    const consumerOfAlice = (id: string) => alice.call('CREATE_CONSUMER', { id, peerId: id, roomAddress, roomId: 'rid', source: 'camera', audio: true, video: false });
    expect((await consumerOfAlice('sid-1')).result).toHaveProperty('sdp');
    await bob.ok('CREATE_INGEST_TRANSPORT', { id: 'screen', roomAddress });
    expect(parley.relay!.stats().transports).toBe(LIMITS.transportsPerAddress);

    const refusal = { code: RELAY_ERROR.limitExceeded, message: `too many media transports from this address: at most ${LIMITS.transportsPerAddress}` };
    expect((await consumerOfAlice('sid-2')).error).toEqual(refusal);
    expect((await alice.call('CREATE_INGEST_TRANSPORT', { id: 'screen', roomAddress })).error).toEqual(refusal);
    // The same consumer id again replaces its consumer (the retry after `failed`): it takes no more.
    expect((await consumerOfAlice('sid-1')).result).toHaveProperty('sdp');
    expect(parley.relay!.stats().transports).toBe(LIMITS.transportsPerAddress);

    // A consumer removed, an ingest disposed, a connection closed: each gives its transports back.
    await alice.ok('REMOVE_CONSUMER', { id: 'sid-1' });
    expect((await consumerOfAlice('sid-2')).result).toHaveProperty('sdp');
    await bob.ok('DISPOSE', { id: 'screen' });
    await alice.ok('CREATE_INGEST_TRANSPORT', { id: 'screen', roomAddress });
    await bob.close();
    open.splice(open.indexOf(bob), 1);
    await relayLetGo();
    expect((await consumerOfAlice('sid-3')).result).toHaveProperty('sdp');
    expect(parley.relay!.stats().transports).toBe(LIMITS.transportsPerAddress);
  });
});
