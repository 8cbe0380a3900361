import { describe, expect, it } from 'vitest';
import { RelayClosedError, RelayConnectError, RelayProtocolError, RelayTimeoutError } from '../../src/main-thread/call/relay/errors';
import { RelayRpcClient, type RelaySocket } from '../../src/main-thread/call/relay/RelayRpcClient';
import WebSocket from 'ws';
import { RELAY_REQUEST_TIMEOUT_MS, RELAY_RESUME } from '../../src/protocol/clientDefaults';
import { RELAY_ERROR, RelayRpcError, relayErrorFrom, type ConsumerIceStateParams, type LayersWantedParams } from '../../src/protocol/relay';
import { flushMicrotasks, ManualClock } from '../support/ManualClock';
import { providerConfig, useParley } from '../support/parley';
import { until } from '../support/until';
import { connectClient, ingestCameraAndMicrophone } from './relay-ingest';

/**
 * The relay's JSON-RPC client (src/main-thread/call/relay/RelayRpcClient) against the real relay of a
 * real Parley: AUTH first, request ids, validated results, JSON-RPC errors, CONSUMER_ICE_STATE
 * notifications, and the relay dying under it. Time is fake (the client's timeouts never fire
 * unless a test advances the clock); the relay's I/O is real.
 */

const parley = useParley();

async function relayConfig() {
  const config = await providerConfig(parley());
  if (!config.sfuServer) throw new Error('the test Parley runs no relay');
  return config.sfuServer;
}

function roomAddress(name: string): string {
  return `${name}@${parley().settings.mucDomain}`;
}

/** A Chromium-like answer to a consumer offer: it accepts every media section, DTLS client. */
function answerTo(offer: string): string {
  const mids = [...offer.matchAll(/^a=mid:(\S+)$/gm)].map((match) => match[1]);
  const lines = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', `a=group:BUNDLE ${mids.join(' ')}`];
  for (const mid of mids) {
    lines.push(
      `m=${mid} 9 UDP/TLS/RTP/SAVPF ${mid === 'audio' ? 100 : 101}`,
      'c=IN IP4 0.0.0.0',
      `a=mid:${mid}`,
      'a=recvonly',
      'a=ice-ufrag:abcd',
      'a=ice-pwd:abcdefghijklmnopqrstuvwx',
      'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
      'a=setup:active',
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe('RelayRpcClient against the real relay', () => {
  it('authenticates first, then requests get their own ids and checked results', async () => {
    const sfu = await relayConfig();
    const client = await connectClient(sfu.url, sfu.password, new ManualClock());
    expect(client.user.length).toBeGreaterThan(0);
    // Several requests in flight at once are told apart by their ids.
    const [capabilities, removed, disposed] = await Promise.all([
      client.request('GET_ROUTER_CAPABILITIES', { roomAddress: roomAddress('rpc-ids') }),
      client.request('REMOVE_CONSUMER', { id: 'nothing-here' }),
      client.request('DISPOSE', { id: 'no-stream' }),
    ]);
    expect(capabilities.rtpCapabilities.codecs?.map((codec) => codec.mimeType)).toContain('video/VP8');
    expect(removed).toEqual({ closed: false });
    expect(disposed).toEqual({ closed: false });
    client.close();
  });

  it('a wrong token is refused with the relay\'s reason, as a RelayConnectError', async () => {
    const sfu = await relayConfig();
    const refused = connectClient(sfu.url, `${sfu.password}x`, new ManualClock());
    await expect(refused).rejects.toBeInstanceOf(RelayConnectError);
    await expect(refused).rejects.toThrow(/AUTH refused/);
  });

  it('JSON-RPC errors reject with RelayRpcError carrying the relay\'s code', async () => {
    const sfu = await relayConfig();
    const client = await connectClient(sfu.url, sfu.password, new ManualClock());
    const error = await client.request('START_CONSUMER', { id: 'missing', sdp: 'v=0\r\n' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RelayRpcError);
    expect((error as RelayRpcError).rpcCode).toBe(RELAY_ERROR.notFound);
    // The connection goes on serving.
    expect(await client.request('DISPOSE', { id: 'x' })).toEqual({ closed: false });
    client.close();
  });

  it('CREATE_CONSUMER gives the relay\'s offer; START_CONSUMER with the receiver\'s answer brings CONSUMER_ICE_STATE', async () => {
    const sfu = await relayConfig();
    const client = await connectClient(sfu.url, sfu.password, new ManualClock());
    const notifications: ConsumerIceStateParams[] = [];
    client.on('consumerIceState', (params) => notifications.push(params));
    const room = roomAddress('rpc-consumer');
    await ingestCameraAndMicrophone(client, 'stream-1', room);
    const { sdp } = await client.request('CREATE_CONSUMER', { id: 'sid-1', peerId: 'bob', roomAddress: room, roomId: room, source: 'stream-1', audio: true, video: true });
    expect(sdp).toMatch(/^a=ice-lite$/m);
    expect(await client.request('SET_CONSUMER_PROFILE', { id: 'sid-1', profile: 'low' })).toEqual({ profile: 'low' });
    expect(await client.request('START_CONSUMER', { id: 'sid-1', sdp: answerTo(sdp) })).toEqual({});
    await until(() => notifications.length > 0, 'CONSUMER_ICE_STATE');
    expect(notifications[0]).toEqual({ id: 'sid-1', iceConnectionState: 'checking' });
    // The relay's own view: the consumer's layer follows the profile.
    const video = parley().relay?.stats().consumerDetails.find((consumer) => consumer.id === 'sid-1' && consumer.kind === 'video');
    expect(video).toMatchObject({ peerId: 'bob', source: 'stream-1', profile: 'low', preferredSpatialLayer: 0 });
    expect(await client.request('REMOVE_CONSUMER', { id: 'sid-1' })).toEqual({ closed: true });
    expect(await client.request('DISPOSE', { id: 'stream-1' })).toEqual({ closed: true });
    client.close();
  });

  it('LAYERS_WANTED for its own simulcast camera arrives as typed events: the layer its receiver asks for', async () => {
    const sfu = await relayConfig();
    const client = await connectClient(sfu.url, sfu.password, new ManualClock());
    const wanted: LayersWantedParams[] = [];
    client.on('layersWanted', (params) => wanted.push(params));
    const room = roomAddress('rpc-layers');
    await ingestCameraAndMicrophone(client, 'stream-2', room);
    await client.request('CREATE_CONSUMER', { id: 'sid-2', peerId: 'bob', roomAddress: room, roomId: room, source: 'stream-2', audio: false, video: true });
    await client.request('SET_CONSUMER_PROFILE', { id: 'sid-2', profile: 'medium' });
    expect(wanted).toEqual([{ id: 'stream-2', spatialLayer: 1 }]);
    client.close();
  });

  it('the relay killed: pending requests fail with RelayClosedError; the relay that answers in its place says it is unavailable, so no resume is waited for: `closed` fires once; a new connection works after the restart', async () => {
    const sfu = await relayConfig();
    const client = await connectClient(sfu.url, sfu.password, new ManualClock());
    const closures: RelayClosedError[] = [];
    client.on('closed', (error) => closures.push(error));
    await ingestCameraAndMicrophone(client, 'stream-kill', roomAddress('rpc-kill'));
    // The request is sent and the relay (in this process) killed in the same turn of the event loop,
    // its sockets cut before it could read the request: the request is surely pending when it dies.
    const pending = client.request('GET_ROUTER_CAPABILITIES', { roomAddress: roomAddress('rpc-kill') }).catch((error: unknown) => error);
    await parley().killRelay();
    expect(await pending).toBeInstanceOf(RelayClosedError);
    await until(() => closures.length > 0, 'closed');
    expect(closures[0]?.closeCode).toBe(1006);
    expect(client.isOpen).toBe(false);
    await expect(client.request('DISPOSE', { id: 'stream-kill' })).rejects.toBeInstanceOf(RelayClosedError);

    // While it is down a new connection is refused.
    await expect(connectClient(sfu.url, sfu.password, new ManualClock())).rejects.toBeInstanceOf(RelayConnectError);
    await parley().restartRelay();
    const again = await connectClient(sfu.url, sfu.password, new ManualClock());
    expect(await again.request('DISPOSE', { id: 'stream-kill' })).toEqual({ closed: false });
    again.close();
    expect(closures).toHaveLength(1);
  });
});

/** A socket that opens and then says nothing unless told: for what the real relay never does. */
class SilentSocket extends EventTarget {
  readyState = 0;
  readonly sent: string[] = [];
  constructor() {
    super();
    queueMicrotask(() => {
      this.readyState = 1;
      this.dispatchEvent(new Event('open'));
    });
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(code = 1000, reason = ''): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason }));
  }
  deliver(data: unknown): void {
    this.dispatchEvent(Object.assign(new Event('message'), { data }));
  }
  /** Answers the last request with a result. */
  answer(result: unknown): void {
    const { id } = JSON.parse(this.sent.at(-1) ?? '{}') as { id: string };
    this.deliver(JSON.stringify({ jsonrpc: '2.0', id, result }));
  }
}

/**
 * Node sockets to the real relay, kept so that a case can end one under the client. `silenced` is
 * a named fake of a network that goes silent for one socket alone (what this process cannot make a
 * real network do): what either end sends on it is lost, a close frame too, and nothing fails.
 * `deafened`, the same fake for what the relay sends alone: its answers are lost on the way.
 */
class RelaySockets {
  readonly made: WebSocket[] = [];
  /** Sockets made while set are silenced from the start. */
  networkDown = false;
  private readonly silenced = new Set<WebSocket>();
  private readonly deafened = new Set<WebSocket>();
  private readonly sends = new Map<WebSocket, number>();

  readonly create = (url: string): RelaySocket => {
    const socket = new WebSocket(url);
    this.made.push(socket);
    if (this.networkDown) this.silenced.add(socket);
    const silent = (): boolean => this.silenced.has(socket);
    return {
      get readyState() {
        return socket.readyState;
      },
      send: (data) => {
        this.sends.set(socket, this.sentOn(socket) + 1);
        if (!silent()) socket.send(data);
      },
      close: (code, reason) => {
        if (!silent()) socket.close(code, reason);
      },
      addEventListener: ((type: 'open' | 'message' | 'close' | 'error', listener: (event: never) => void) => {
        socket.addEventListener(type, (event) => {
          if (type !== 'message' || !(silent() || this.deafened.has(socket))) listener(event as never);
        });
      }) as RelaySocket['addEventListener'],
    };
  };

  silence(socket: WebSocket): void {
    this.silenced.add(socket);
  }

  deafen(socket: WebSocket): void {
    this.deafened.add(socket);
  }

  /** Messages the client sent on `socket`, silenced or not. */
  sentOn(socket: WebSocket): number {
    return this.sends.get(socket) ?? 0;
  }
}

describe('RelayRpcClient: a connection that outlives its socket (the relay keeps a resumable session; src/protocol/relay.ts)', () => {
  async function resumableClient(clock: ManualClock): Promise<{ client: RelayRpcClient; sockets: RelaySockets; events: string[] }> {
    const sfu = await relayConfig();
    const sockets = new RelaySockets();
    const client = await RelayRpcClient.connect({ url: sfu.url, token: sfu.password, clock, createSocket: sockets.create });
    const events: string[] = [];
    client.on('interrupted', (error) => events.push(`interrupted ${error.closeCode}`));
    client.on('resumed', () => events.push('resumed'));
    client.on('closed', (error) => events.push(`closed ${error.closeCode}`));
    client.on('messageDropped', (error) => events.push(`dropped ${error.message}`));
    return { client, sockets, events };
  }

  it('a socket the network drops (1006): a request in flight and one sent meanwhile wait, and are answered over a new socket; the session goes on with what it made', async () => {
    const { client, sockets, events } = await resumableClient(new ManualClock());
    const room = roomAddress('rpc-resume');
    await ingestCameraAndMicrophone(client, 'stream-resumed', room);
    const inFlight = client.request('GET_ROUTER_CAPABILITIES', { roomAddress: room });
    sockets.made[0]!.terminate();
    const meanwhile = client.request('GET_ROUTER_CAPABILITIES', { roomAddress: room });
    await until(() => events.includes('resumed'), 'resumed');
    expect(await inFlight).toHaveProperty('rtpCapabilities');
    expect(await meanwhile).toHaveProperty('rtpCapabilities');
    expect(events).toEqual(['interrupted 1006', 'resumed']);
    expect(sockets.made).toHaveLength(2);
    // What the relay made for the session is still there.
    expect(await client.request('DISPOSE', { id: 'stream-resumed' })).toEqual({ closed: true });
    client.close();
  });

  it('an answer lost with the socket: the request asked again on the new one gets the answer the relay kept, and is not run twice', async () => {
    const { client, sockets, events } = await resumableClient(new ManualClock());
    const room = roomAddress('rpc-kept');
    await client.request('GET_ROUTER_CAPABILITIES', { roomAddress: room });
    sockets.deafen(sockets.made[0]!);
    // Run twice, the second would be refused: the stream is ingested already.
    const made = client.request('CREATE_INGEST_TRANSPORT', { id: 'stream-kept', roomAddress: room });
    await until(() => parley().relay!.stats().ingestDetails.some((ingest) => ingest.id === 'stream-kept'), 'the ingest made');
    sockets.made[0]!.terminate();
    await until(() => events.includes('resumed'), 'resumed');
    expect(await made).toHaveProperty('dtlsParameters');
    expect(parley().relay!.stats().ingestDetails.filter((ingest) => ingest.id === 'stream-kept')).toHaveLength(1);
    expect(events).toEqual(['interrupted 1006', 'resumed']);
    expect(await client.request('DISPOSE', { id: 'stream-kept' })).toEqual({ closed: true });
    client.close();
  });

  it('a socket that goes silent: its PING goes unanswered; a new socket is tried until the network is back, and the session resumed on it while the relay drops the old one', async () => {
    const clock = new ManualClock();
    const { client, sockets, events } = await resumableClient(clock);
    await ingestCameraAndMicrophone(client, 'stream-silent', roomAddress('rpc-silent'));
    const first = sockets.made[0]!;
    sockets.silence(first);
    sockets.networkDown = true;
    await clock.advance(RELAY_RESUME.heartbeatMs);
    expect(events).toEqual([]);
    await clock.advance(RELAY_REQUEST_TIMEOUT_MS);
    expect(events).toEqual(['interrupted 1006']);
    // The first try's socket is lost in the dead network: its AUTH goes unanswered.
    await until(() => sockets.made.length === 2 && sockets.sentOn(sockets.made[1]!) === 1, 'a first try');
    await clock.advance(RELAY_RESUME.attemptTimeoutMs);
    sockets.networkDown = false;
    await clock.advance(RELAY_RESUME.retryDelayMs);
    await until(() => events.includes('resumed'), 'resumed');
    expect(events).toEqual(['interrupted 1006', 'resumed']);
    expect(sockets.made).toHaveLength(3);
    // The relay took the session from the old socket, still open on its side, and dropped that socket.
    await until(() => first.readyState === WebSocket.CLOSED, 'the old socket closed');
    expect(await client.request('DISPOSE', { id: 'stream-silent' })).toEqual({ closed: true });
    client.close();
  });

  it('a request asked again after a resume and answered twice (the relay finished it just as the new socket came, then answered it again from the answers it kept: a timing the real relay cannot be made to hit) settles once, and the second answer is no fault', async () => {
    const clock = new ManualClock();
    const [first, second] = [new SilentSocket(), new SilentSocket()];
    const unopened = [first, second];
    const connecting = RelayRpcClient.connect({ url: 'ws://relay.test/relay', token: 't', clock, createSocket: () => unopened.shift() as unknown as RelaySocket });
    await until(() => first.sent.length > 0, 'AUTH');
    first.answer({ user: 'alice', session: 'kept' });
    const client = await connecting;
    const dropped: RelayProtocolError[] = [];
    client.on('messageDropped', (error) => dropped.push(error));
    const request = client.request('DISPOSE', { id: 'x' });
    const asked = first.sent.at(-1)!;
    first.close(1006, '');
    await until(() => second.sent.length > 0, 'AUTH resume');
    expect(JSON.parse(second.sent[0]!)).toMatchObject({ method: 'AUTH', params: { token: 't', resume: 'kept' } });
    second.answer({ user: 'alice', session: 'kept' });
    await until(() => second.sent.length === 2, 'the request asked again');
    expect(second.sent[1]).toBe(asked);
    second.answer({ closed: true });
    second.answer({ closed: true });
    expect(await request).toEqual({ closed: true });
    expect(dropped).toEqual([]);
    client.close();
  });

  it('a socket closed by the relay with a close frame is no network fault: the connection ends, nothing is resumed', async () => {
    const clock = new ManualClock();
    const { client, events } = await resumableClient(clock);
    await parley().relay!.close();
    await until(() => events.length > 0, 'closed');
    expect(events).toEqual(['closed 1001']);
    expect(client.isOpen).toBe(false);
    await parley().restartRelay();
  });
});

describe('RelayRpcClient where the relay misbehaves', () => {
  async function connected(clock: ManualClock): Promise<{ client: RelayRpcClient; socket: SilentSocket }> {
    const socket = new SilentSocket();
    const connecting = RelayRpcClient.connect({ url: 'ws://relay.test/relay', token: 't', clock, createSocket: () => socket as unknown as RelaySocket });
    await until(() => socket.sent.length > 0, 'AUTH');
    expect(JSON.parse(socket.sent[0]!)).toMatchObject({ jsonrpc: '2.0', method: 'AUTH', params: { token: 't' } });
    socket.answer({ user: 'alice' });
    return { client: await connecting, socket };
  }

  it('a request without a reply times out on the injected clock', async () => {
    const clock = new ManualClock();
    const { client } = await connected(clock);
    const request = client.request('DISPOSE', { id: 'x' }).catch((error: unknown) => error);
    await clock.advance(15_000 - 1);
    await clock.advance(1);
    expect(await request).toBeInstanceOf(RelayTimeoutError);
    client.close();
  });

  it('unreadable messages and unreadable results are dropped without ending the connection', async () => {
    const clock = new ManualClock();
    const { client, socket } = await connected(clock);
    const dropped: RelayProtocolError[] = [];
    client.on('messageDropped', (error) => dropped.push(error));
    socket.deliver('not json');
    socket.deliver(JSON.stringify({ jsonrpc: '2.0', id: 'unknown', result: {} }));
    socket.deliver(JSON.stringify({ jsonrpc: '2.0', method: 'CONSUMER_ICE_STATE', params: { id: 's', iceConnectionState: 'exploded' } }));
    socket.deliver(JSON.stringify({ jsonrpc: '2.0', method: 'LAYERS_WANTED', params: { id: 's', spatialLayer: 7 } }));
    expect(dropped.map((error) => error.message)).toEqual([
      expect.stringContaining('not JSON'),
      expect.stringContaining('no request of ours'),
      expect.stringContaining('iceConnectionState'),
      expect.stringContaining('spatialLayer must be an integer from 0 to 2'),
    ]);
    const request = client.request('CREATE_CONSUMER', { id: 's', peerId: 'p', roomAddress: 'r@m', roomId: 'r', source: 'x', audio: true, video: false });
    socket.answer({ sdp: 42 });
    await expect(request).rejects.toBeInstanceOf(RelayProtocolError);
    expect(client.isOpen).toBe(true);
    client.close();
  });

  it('a reply whose error is no object (null, a string) still rejects its request, and the next request goes on', async () => {
    const clock = new ManualClock();
    const { client, socket } = await connected(clock);
    const dropped: RelayProtocolError[] = [];
    client.on('messageDropped', (error) => dropped.push(error));
    const failWith = (error: unknown): void => {
      const { id } = JSON.parse(socket.sent.at(-1) ?? '{}') as { id: string };
      socket.deliver(JSON.stringify({ jsonrpc: '2.0', id, error }));
    };
    for (const error of [null, 'boom', 42]) {
      const request = client.request('DISPOSE', { id: 'x' }).catch((caught: unknown) => caught);
      failWith(error);
      const settled = await Promise.race([request, flushMicrotasks().then(() => 'unsettled')]);
      expect(settled).toBeInstanceOf(RelayProtocolError);
      expect((settled as Error).message).toMatch(/DISPOSE error unreadable/);
    }
    expect(dropped).toEqual([]);
    const next = client.request('DISPOSE', { id: 'y' });
    socket.answer({ closed: false });
    expect(await next).toEqual({ closed: false });
    client.close();
  });
});

describe('RelayRpcClient: a request unanswered in time on a resumable connection is a question about its socket: the socket is checked with a PING before the request fails', () => {
  /** A client whose relay keeps a resumable session, over sockets the test opens one after another. */
  async function resumable(clock: ManualClock): Promise<{ client: RelayRpcClient; sockets: SilentSocket[]; events: string[] }> {
    const sockets = [new SilentSocket(), new SilentSocket()];
    const unopened = [...sockets];
    const connecting = RelayRpcClient.connect({ url: 'ws://relay.test/relay', token: 't', clock, createSocket: () => unopened.shift() as unknown as RelaySocket });
    await until(() => sockets[0]!.sent.length > 0, 'AUTH');
    sockets[0]!.answer({ user: 'alice', session: 'kept' });
    const client = await connecting;
    const events: string[] = [];
    client.on('interrupted', (error) => events.push(`interrupted ${error.closeCode}`));
    client.on('resumed', () => events.push('resumed'));
    return { client, sockets, events };
  }

  it('the network silent: the request waits past its own timeout, the unanswered PING starts the resume, and the request is asked again on the new socket', async () => {
    const clock = new ManualClock();
    const { client, sockets, events } = await resumable(clock);
    const [silent, next] = sockets;
    let settled: unknown = 'unsettled';
    const request = client.request('DISPOSE', { id: 'x' });
    request.then(
      (result) => (settled = result),
      (error: unknown) => (settled = error),
    );
    const asked = silent!.sent.at(-1)!;
    await clock.advance(RELAY_REQUEST_TIMEOUT_MS);
    expect(settled).toBe('unsettled');
    expect(events).toEqual([]);
    // The heartbeat's PING went at 10 s: unanswered by 25 s, the socket is taken for dropped.
    await clock.advance(RELAY_RESUME.heartbeatMs);
    expect(events).toEqual(['interrupted 1006']);
    await until(() => next!.sent.length > 0, 'AUTH resume');
    next!.answer({ user: 'alice', session: 'kept' });
    await until(() => next!.sent.length === 2, 'the request asked again');
    expect(next!.sent[1]).toBe(asked);
    next!.answer({ closed: true });
    expect(await request).toEqual({ closed: true });
    expect(events).toEqual(['interrupted 1006', 'resumed']);
    client.close();
  });

  it('the socket answering its PING: the relay is there and did not answer the request, which fails', async () => {
    const clock = new ManualClock();
    const { client, sockets } = await resumable(clock);
    const request = client.request('DISPOSE', { id: 'x' }).catch((error: unknown) => error);
    await clock.advance(RELAY_REQUEST_TIMEOUT_MS);
    const ping = JSON.parse(sockets[0]!.sent.at(-1)!) as { method: string };
    expect(ping.method).toBe('PING');
    sockets[0]!.answer({});
    expect(await request).toBeInstanceOf(RelayTimeoutError);
    expect(client.isOpen).toBe(true);
    client.close();
  });
});

describe('relayErrorFrom', () => {
  it('never throws: an error that is no object reads as an unreadable one', () => {
    expect(relayErrorFrom({ code: RELAY_ERROR.notFound, message: 'no such stream' })).toMatchObject({ rpcCode: RELAY_ERROR.notFound, message: 'no such stream' });
    for (const value of [null, 'boom', 7, undefined]) {
      const error = relayErrorFrom(value);
      expect(error).toBeInstanceOf(RelayRpcError);
      expect(error.message).toMatch(/unreadable error/);
    }
  });
});
