import type { Stanzas } from 'stanza';
import type { JingleIq } from '../../src/protocol/commands';
import { NotConnectedError } from '../../src/protocol/errors';
import type { CallSignaling } from '../../src/main-thread/call/CallSignaling';
import type { CallLocks } from '../../src/main-thread/call/CallOwnership';
import type { SizedEncoding } from '../../src/main-thread/call/mesh/meshVideoSize';
import { FakeStream, FakeTrack } from './track-fakes';

/**
 * Node has no WebRTC. These fakes stand in for the browser so that the Call's own logic (which
 * sessions exist, what they say on the Jingle wire, the SPEC §4 timers) runs under fake time; the
 * media itself is proven in Chromium by tests/e2e/call-mesh.spec.ts.
 */

class FakeSender {
  readonly encodings: RTCRtpEncodingParameters[];
  constructor(
    public track: FakeTrack | null,
    sendEncodings: readonly RTCRtpEncodingParameters[] = [{}],
  ) {
    this.encodings = sendEncodings.map((encoding) => ({ active: true, ...encoding }));
  }
  getParameters(): RTCRtpSendParameters {
    return { encodings: this.encodings.map((encoding) => ({ ...encoding })), transactionId: 't', codecs: [], headerExtensions: [], rtcp: {} };
  }
  async setParameters(parameters: RTCRtpSendParameters): Promise<void> {
    this.encodings.splice(0, this.encodings.length, ...parameters.encodings);
  }
  async replaceTrack(track: FakeTrack | null): Promise<void> {
    this.track = track;
  }
  async getStats(): Promise<Map<string, unknown>> {
    return new Map();
  }
}

/**
 * What receives one m-line: its track, when its newest frame arrived (the synchronization source's
 * time) and, for a video, how many frames it has decoded (its statistics).
 */
export class FakeReceiver {
  /** undefined until a frame has arrived. */
  frameAt: number | undefined;
  private framesDecoded = 0;
  constructor(readonly track: FakeTrack) {}
  frameArrives(at: number): void {
    this.frameAt = at;
    this.framesDecoded += 1;
  }
  getSynchronizationSources(): RTCRtpSynchronizationSource[] {
    return this.frameAt === undefined ? [] : [{ source: 1000, timestamp: this.frameAt, rtpTimestamp: 0 }];
  }
  async getStats(): Promise<Map<string, unknown>> {
    return new Map(this.track.kind === 'video' ? [['inbound', { id: 'inbound', type: 'inbound-rtp', kind: 'video', framesDecoded: this.framesDecoded }]] : []);
  }
}

interface FakeTransceiver {
  mid: string;
  kind: 'audio' | 'video';
  direction: RTCRtpTransceiverDirection;
  sender: FakeSender;
  receiver: FakeReceiver;
  stream: FakeStream | undefined;
}

/** A Chrome-like SDP: BUNDLE, one m-line per transceiver, msid for what we send. */
function sdpOf(transceivers: readonly FakeTransceiver[], direction: (transceiver: FakeTransceiver) => string, setup: string): string {
  const lines = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', `a=group:BUNDLE ${transceivers.map((t) => t.mid).join(' ')}`, 'a=msid-semantic: WMS'];
  for (const transceiver of transceivers) {
    const audio = transceiver.kind === 'audio';
    const payload = audio ? '111' : '96';
    lines.push(
      `m=${transceiver.kind} 9 UDP/TLS/RTP/SAVPF ${payload}`,
      'c=IN IP4 0.0.0.0',
      'a=rtcp:9 IN IP4 0.0.0.0',
      'a=ice-ufrag:abcd',
      'a=ice-pwd:abcdefghijklmnopqrstuvwx',
      'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
      `a=setup:${setup}`,
      `a=mid:${transceiver.mid}`,
      `a=${direction(transceiver)}`,
      'a=rtcp-mux',
      audio ? 'a=rtpmap:111 opus/48000/2' : 'a=rtpmap:96 VP8/90000',
    );
    if (direction(transceiver) === 'sendonly' && transceiver.sender.track && transceiver.stream) {
      lines.push(`a=msid:${transceiver.stream.id} ${transceiver.sender.track.id}`, `a=ssrc:${1000 + Number(transceiver.mid)} cname:fake`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

function parseMedia(sdp: string): Array<{ kind: 'audio' | 'video'; mid: string }> {
  return sdp
    .split(/\r\nm=/)
    .slice(1)
    .map((section) => ({
      kind: section.startsWith('audio') ? ('audio' as const) : ('video' as const),
      mid: /a=mid:(\S+)/.exec(section)?.[1] ?? '',
    }));
}

/** Enough of RTCPeerConnection for StanzaJS's ICESession / MediaSession and the engine. */
export class FakePeerConnection extends EventTarget {
  static readonly all: FakePeerConnection[] = [];
  iceConnectionState: RTCIceConnectionState = 'new';
  iceGatheringState: RTCIceGatheringState = 'new';
  signalingState: RTCSignalingState = 'stable';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  oniceconnectionstatechange: (() => void) | null = null;
  onicecandidate: ((event: { candidate: null }) => void) | null = null;
  private readonly transceivers: FakeTransceiver[] = [];

  constructor() {
    super();
    FakePeerConnection.all.push(this);
  }

  addTransceiver(track: FakeTrack, init: { direction: RTCRtpTransceiverDirection; streams: FakeStream[]; sendEncodings?: RTCRtpEncodingParameters[] }): FakeTransceiver {
    const transceiver: FakeTransceiver = {
      mid: String(this.transceivers.length),
      kind: track.kind,
      direction: init.direction,
      sender: new FakeSender(track, init.sendEncodings),
      receiver: new FakeReceiver(new FakeTrack(track.kind)),
      stream: init.streams[0],
    };
    this.transceivers.push(transceiver);
    return transceiver;
  }

  getTransceivers(): FakeTransceiver[] {
    return this.transceivers;
  }
  getSenders(): FakeSender[] {
    return this.transceivers.map((transceiver) => transceiver.sender);
  }
  getReceivers(): FakeReceiver[] {
    return this.transceivers.map((transceiver) => transceiver.receiver);
  }

  async createOffer(): Promise<RTCSessionDescriptionInit> {
    return { type: 'offer', sdp: sdpOf(this.transceivers, (transceiver) => transceiver.direction, 'actpass') };
  }
  async createAnswer(): Promise<RTCSessionDescriptionInit> {
    return { type: 'answer', sdp: sdpOf(this.transceivers, () => 'recvonly', 'active') };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.localDescription = description;
    this.signalingState = description.type === 'offer' ? 'have-local-offer' : 'stable';
    // Loopback only: every candidate is there at once.
    this.iceGatheringState = 'complete';
    this.dispatchEvent(new Event('icegatheringstatechange'));
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.remoteDescription = description;
    if (description.type === 'answer') {
      this.signalingState = 'stable';
      return;
    }
    this.signalingState = 'have-remote-offer';
    // A sendonly offer: each m-line becomes a receiving transceiver whose track arrives now.
    const stream = new FakeStream([]);
    for (const media of parseMedia(description.sdp ?? '')) {
      const track = new FakeTrack(media.kind);
      this.transceivers.push({ mid: media.mid, kind: media.kind, direction: 'recvonly', sender: new FakeSender(null), receiver: new FakeReceiver(track), stream: undefined });
      stream.getTracks().push(track);
      const event = Object.assign(new Event('track'), { track, streams: [stream] });
      this.dispatchEvent(event);
    }
  }
  async addIceCandidate(): Promise<void> {}
  async getStats(): Promise<Map<string, unknown>> {
    return new Map();
  }
  close(): void {
    this.signalingState = 'closed';
  }

  /** ICE moves on, as the browser would report it. */
  setIceState(state: RTCIceConnectionState): void {
    this.iceConnectionState = state;
    this.oniceconnectionstatechange?.();
    this.dispatchEvent(new Event('iceconnectionstatechange'));
  }

  sentKinds(): string[] {
    return this.transceivers.filter((transceiver) => transceiver.direction === 'sendonly').map((transceiver) => transceiver.kind);
  }

  videoEncodingActive(): boolean | undefined {
    return this.videoEncoding()?.active;
  }

  /** The encoding our video goes out with (its size cap: `scaleResolutionDownTo`). */
  videoEncoding(): SizedEncoding | undefined {
    return this.transceivers.find((transceiver) => transceiver.direction === 'sendonly' && transceiver.kind === 'video')?.sender.encodings[0];
  }
}

type Handler = (iq: JingleIq) => void;

/**
 * The shared worker and the MUC in one: routes each engine's Jingle requests to the engine of the
 * addressed occupant (stamping `from`), and its answers back to the waiting request. Every request
 * is logged for assertions.
 */
export class FakeJingleNetwork {
  readonly log: Array<{ from: string; to: string; jingle: Stanzas.Jingle }> = [];
  /** Each release of a call's claim, with how many requests had been logged before it. */
  readonly releases: Array<{ address: string; afterRequests: number }> = [];
  private readonly handlers = new Map<string, Handler>();
  private readonly waiting = new Map<string, { resolve: (iq: Stanzas.IQ) => void; reject: (iq: Stanzas.IQ) => void }>();
  /** Requests held back from delivery (a slow path for them), until released. */
  private holding: ((from: string, jingle: Stanzas.Jingle) => boolean) | undefined;
  private readonly held: Array<() => void> = [];
  /** The next request that matches is not delivered but answered by the session worker (`refuse`). */
  private refusal: { matches: (from: string, jingle: Stanzas.Jingle) => boolean; answer: Stanzas.StanzaError | 'timeout' } | undefined;
  /** Occupants whose signalling is down (their shared worker has no connection). */
  private readonly down = new Set<string>();
  private resent = 0;

  /** From now on, requests that `matches` are delivered only on release(): what arrives after what. */
  holdBack(matches: (from: string, jingle: Stanzas.Jingle) => boolean): void {
    this.holding = matches;
  }

  release(): void {
    this.holding = undefined;
    for (const deliver of this.held.splice(0)) deliver();
  }

  /**
   * The next request that `matches` never reaches its addressee: the session worker answers it with
   * `answer` (JingleRouter's refusal past a sender's limit), or — 'timeout' — the request is lost on
   * its way and the sender's worker gives up on it, as StanzaJS's sendIQ does after its timeout.
   */
  refuse(matches: (from: string, jingle: Stanzas.Jingle) => boolean, answer: Stanzas.StanzaError | 'timeout'): void {
    this.refusal = { matches, answer };
  }

  /** `from` sends `jingle` again as a new request (a relay consumer made anew under its id, a request the worker routes again). */
  sendAgain(from: string, to: string, jingle: Stanzas.Jingle): Promise<Stanzas.IQ | undefined> {
    this.resent += 1;
    return this.send(from, { type: 'set', id: `again-${this.resent}`, to, jingle });
  }

  /** Signalling is down for these occupants: what they send fails as the worker's NotConnectedError does, what is sent to them bounces. */
  cut(...addresses: string[]): void {
    for (const address of addresses) this.down.add(address);
  }

  restore(...addresses: string[]): void {
    for (const address of addresses) this.down.delete(address);
  }

  signalingFor(address: string): CallSignaling {
    return {
      send: (iq) => this.send(address, iq),
      claimCall: async (_room, handler) => {
        this.handlers.set(address, handler);
      },
      releaseCall: async () => {
        this.handlers.delete(address);
        this.releases.push({ address, afterRequests: this.log.length });
      },
    };
  }

  actions(from?: string, to?: string): string[] {
    return this.log.filter((entry) => (!from || entry.from === from) && (!to || entry.to === to)).map((entry) => entry.jingle.action ?? '');
  }

  private send(from: string, iq: Stanzas.IQ & { jingle?: Stanzas.Jingle }): Promise<Stanzas.IQ | undefined> {
    const to = iq.to ?? '';
    if (iq.type === 'result' || iq.type === 'error') {
      const key = `${to}\n${iq.id ?? ''}`;
      const waiter = this.waiting.get(key);
      this.waiting.delete(key);
      const answer = { ...iq, from, to };
      if (iq.type === 'result') waiter?.resolve(answer);
      else waiter?.reject(answer);
      return Promise.resolve(undefined);
    }
    if (!iq.jingle) return Promise.reject(new Error('not a jingle request'));
    if (this.down.has(from)) return Promise.reject(new NotConnectedError());
    this.log.push({ from, to, jingle: iq.jingle });
    const refusal = this.refusal?.matches(from, iq.jingle) ? this.refusal.answer : undefined;
    if (refusal) {
      this.refusal = undefined;
      const error = refusal === 'timeout' ? { condition: 'timeout' as const, text: 'Request timed out after 15 seconds.' } : refusal;
      return Promise.reject({ type: 'error', id: iq.id, ...(refusal === 'timeout' ? {} : { from: to }), error });
    }
    const handler = this.down.has(to) ? undefined : this.handlers.get(to);
    if (!handler) return Promise.reject({ type: 'error', id: iq.id, from: to, error: { type: 'cancel', condition: 'service-unavailable' } });
    return new Promise((resolve, reject) => {
      this.waiting.set(`${from}\n${iq.id ?? ''}`, { resolve, reject });
      const deliver = (): void => handler({ ...iq, from, jingle: iq.jingle } as JingleIq);
      if (this.holding?.(from, iq.jingle as Stanzas.Jingle)) this.held.push(deliver);
      // Delivered on a later task, as a message through the worker would be.
      else queueMicrotask(deliver);
    });
  }
}

/** Web Locks that always grant at once (one tab per person here). */
export const grantingLocks: CallLocks = {
  request: async (name, _options, granted) => {
    void granted({ name });
  },
};
