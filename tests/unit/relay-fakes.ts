// Fakes of the relay's end for the relay path's unit tests: its connection (JSON-RPC requests
// recorded, CONSUMER_ICE_STATE sent), an ingest, and a consumer offer as the relay writes one.
// The browser-only parts (mediasoup-client's Device, the ingest's send transport) are stood in for.
import { TypedEmitter } from '../../src/common/TypedEmitter';
import { RelayClosedError } from '../../src/main-thread/call/relay/errors';
import type { RelayRpcClientEvents } from '../../src/main-thread/call/relay/RelayRpcClient';
import type { ConsumerIceStateParams } from '../../src/protocol/relay';

/**
 * A consumer offer of the microphone as the relay writes one (ice-lite, candidates inline, ssrc
 * signalled; tests/integration/relay.test.ts holds the real relay's).
 */
export const MICROPHONE_CONSUMER_OFFER = [
  'v=0',
  'o=- 1 1 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=ice-lite',
  'a=group:BUNDLE audio',
  'a=msid-semantic: WMS *',
  'm=audio 9 UDP/TLS/RTP/SAVPF 100',
  'c=IN IP4 127.0.0.1',
  'a=mid:audio',
  'a=sendonly',
  'a=ice-ufrag:relayufrag',
  'a=ice-pwd:relaypassword0123456789',
  'a=fingerprint:sha-256 CB:AD:89:75:8B:F1:4D:6A:B9:99:D1:55:12:00:7F:3B:DD:62:31:D2:5D:A9:BA:40:4D:01:02:3F:AC:91:FE:7B',
  'a=setup:actpass',
  'a=rtcp-mux',
  'a=rtpmap:100 opus/48000/2',
  'a=ssrc:1111 cname:relay',
  'a=ssrc:1111 msid:stream-1 mic',
  'a=candidate:udpcandidate 1 udp 1076302079 127.0.0.1 44020 typ host',
  '',
].join('\r\n');

/**
 * The relay's end of the connection: records requests. CREATE_CONSUMER stays unanswered (the offer
 * is not under test) unless it is given the offer to answer with; a test answers a method its own
 * way (a refusal, an answer held back) through `answers`.
 */
export class FakeRelayConnection extends TypedEmitter<RelayRpcClientEvents> {
  readonly requests: Array<{ method: string; params: unknown }> = [];
  /** Per method, the test's answer, in place of the fake's. */
  readonly answers = new Map<string, (params: unknown) => Promise<unknown>>();
  isOpen = true;

  constructor(private readonly consumerOffer?: string) {
    super();
  }

  request(method: string, params: unknown): Promise<unknown> {
    this.requests.push({ method, params });
    const answer = this.answers.get(method);
    if (answer) return answer(params);
    if (method === 'GET_ROUTER_CAPABILITIES') return Promise.resolve({ rtpCapabilities: { codecs: [], headerExtensions: [] } });
    if (method === 'CREATE_CONSUMER') return this.consumerOffer === undefined ? new Promise(() => {}) : Promise.resolve({ sdp: this.consumerOffer });
    return Promise.resolve({});
  }

  /** The params of each request of `method`, in order. */
  paramsOf<T>(method: string): T[] {
    return this.requests.filter((request) => request.method === method).map((request) => request.params as T);
  }

  close(): void {
    this.isOpen = false;
  }

  /** The relay's CONSUMER_ICE_STATE for a consumer. */
  iceState(id: string, iceConnectionState: ConsumerIceStateParams['iceConnectionState']): void {
    this.emit('consumerIceState', { id, iceConnectionState });
  }

  /** The socket closed under us. */
  die(reason: string): void {
    this.isOpen = false;
    this.emit('closed', new RelayClosedError(1006, reason));
  }
}

/** An ingest that produces the microphone; its transport has connected unless told otherwise. */
export class FakeIngest extends TypedEmitter<{ connectionState: [state: string] }> {
  readonly kinds = ['audio'];
  closed = false;

  constructor(public connected = true) {
    super();
  }

  /** Each camera turned off or on, as told (RelayIngest.setVideoOff). */
  readonly videoOff: Array<[itemId: string, off: boolean]> = [];

  async sync(): Promise<void> {}
  async setMaxBitrate(): Promise<void> {}
  async setVideoOff(itemId: string, off: boolean): Promise<void> {
    this.videoOff.push([itemId, off]);
  }
  close(): void {
    this.closed = true;
  }

  /** Its transport connects (as mediasoup-client's `connectionstatechange` says). */
  connect(): void {
    this.connected = true;
    this.emit('connectionState', 'connected');
  }

  /** Its upload stalls: Chromium's ICE says `disconnected` after ~2.5 s without packets. */
  disconnect(): void {
    this.connected = false;
    this.emit('connectionState', 'disconnected');
  }
}
