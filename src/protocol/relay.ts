import type { DtlsParameters, IceCandidate, IceParameters, RtpCapabilities, RtpParameters } from 'mediasoup-client/types';
import { ParleyError, ValidationError } from './errors';
import { expectRecord, expectString, isRecord, optionalRecord } from './validate';

/**
 * The media relay's wire: JSON-RPC 2.0 over one websocket to `sfuServer.url` (PROTOCOL.md "Media
 * relay", SPEC §7). The first seven methods and CONSUMER_ICE_STATE are SimpleWebRTC 1.30.3's;
 * Parley adds four methods so that mediasoup-client's Device/SendTransport can ingest without SDP
 * munging (DESIGN.md "Media paths"):
 *
 *   GET_ROUTER_CAPABILITIES {roomAddress}            → {rtpCapabilities}   (Device.load)
 *   CREATE_INGEST_TRANSPORT {id: stream id, roomAddress}
 *                                                    → {id, iceParameters, iceCandidates, dtlsParameters}
 *   CONNECT_INGEST_TRANSPORT {id, dtlsParameters}    → {}                  (transport 'connect')
 *   PRODUCE {id, kind, rtpParameters, appData}       → {producerId}        (transport 'produce')
 *
 * and one so that a newcomer to a call on the relay waits for no CREATE_CONSUMER (issue 14, the
 * join path): a sender makes the next receiver's consumer ahead, a CREATE_CONSUMER without
 * `peerId`, and names the receiver once one comes:
 *
 *   CLAIM_CONSUMER {id, peerId}                      → {}
 *
 * A consumer made ahead wants no layer (LAYERS_WANTED) and cannot be started until it is claimed;
 * claimed, it is like any new consumer (its first profile's grace starts then). It is claimed once.
 *
 * And a connection that outlives its socket: a network fault that drops the websocket need not
 * take the media with it, since the media flows beside it.
 *
 *   AUTH {token, resumable: true}                    → {user, session}
 *   AUTH {token, resume: session}                    → {user, session}
 *   PING {}                                          → {}   (the client's heartbeat: a browser
 *                                                            cannot ping, and a socket the network
 *                                                            silently dropped says nothing)
 *
 * A resumable session whose socket drops without a close frame (1006: the network, not either
 * end, ended it), or that its client closes as abandoned (4000: no answer in time), keeps
 * everything it made for `resumeGraceMs`; an AUTH naming it on a new socket,
 * by the same user, takes it over — an old socket of its still open on the relay's side is dropped
 * — and gets the notifications sent meanwhile (at most `notificationsKept`, else the session
 * ends). Requests unanswered when the socket dropped are asked again on the new socket, with
 * the same ids, and each is answered once: with the answer the relay kept (the latest
 * `answersKept`), or the one still coming when it is still running; one it never got runs then.
 * A resume of a session that is gone, or another user's, is refused as not found; a socket closed
 * with a close frame ends its session at once, as does every 1.30.3 connection (it never asks to
 * be resumable).
 *
 * An ingest made either way (INGEST's SDP or these) is one stream id: CREATE_CONSUMER's `source`
 * names it and DISPOSE closes it. `appData.trackId` on PRODUCE is the browser track id that
 * consumer offers carry in `a=msid`, as INGEST's offer carries it (a receiver matches
 * `<screen id>` against it).
 *
 * Semantics the 1.30.3 wire leaves open, as Parley's relay implements them:
 * - Every result is an object, never falsy (the 1.30.3 client waits forever on a falsy result).
 * - Requests of one connection run one at a time in arrival order, so a call sent right after
 *   AUTH (without waiting) runs once AUTH has succeeded.
 * - A connection serves one room: the first roomAddress it names binds it; another is refused.
 *   INGEST names no room, so its stream joins the room of the connection's first CREATE_CONSUMER.
 * - CREATE_CONSUMER's `source` is a stream this connection ingested (the sender asks for its own
 *   stream's consumers). Its offer's mids are `audio` / `video`; the a=msid lines carry the
 *   ingested stream and track ids. CREATE_CONSUMER with an id that exists replaces that consumer
 *   (the retry after `failed`).
 * - CONSUMER_ICE_STATE: `checking` once START_CONSUMER has the answer, then `connected` /
 *   `completed` when ICE and DTLS are up, `disconnected` when consent checks stop, `failed` on a
 *   DTLS failure or when no connection comes within `consumerConnectTimeoutMs` (ice-lite has no
 *   failure of its own), `closed` when a consumer goes without being asked (its source's media
 *   went away). What the client closes itself (REMOVE_CONSUMER, DISPOSE) is not notified.
 * - SET_CONSUMER_PROFILE affects the video consumer; set before START_CONSUMER it applies from the start.
 * - REMOVE_CONSUMER and DISPOSE of an id that is not there succeed with `{closed: false}`.
 * - A request without an id (a JSON-RPC notification) is answered with an invalid-request error:
 *   the relay takes no notifications.
 *
 * Parley's own notification, sent only for a simulcast video produced with PRODUCE (never to an
 * INGEST's sender, which would not know it):
 * - LAYERS_WANTED {id: stream id, spatialLayer}: the highest spatial layer of the stream's video
 *   that any of its consumers wants now (their profiles), never below 0: the sender need not
 *   encode the layers above it. Until the first one the sender sends every layer. Sent when it
 *   changes: a higher layer at once; a lower one only once every consumer's receiver has said
 *   what it needs or had LAYERS_WANTED_GRACE_MS to (a consumer's first profile, high, counts after that).
 */

export type ConsumerProfile = 'high' | 'medium' | 'low' | 'off';
export const CONSUMER_PROFILES: readonly ConsumerProfile[] = ['high', 'medium', 'low', 'off'];
/** SPEC §9 layers low / medium / high are spatial layers 0 / 1 / 2; `off` pauses the video. */
export const PROFILE_SPATIAL_LAYER: Readonly<Record<Exclude<ConsumerProfile, 'off'>, number>> = { low: 0, medium: 1, high: 2 };

/** The ICE states CONSUMER_ICE_STATE reports (RTCIceConnectionState's names). */
export type ConsumerIceState = 'checking' | 'connected' | 'completed' | 'disconnected' | 'failed' | 'closed';
const CONSUMER_ICE_STATES: readonly ConsumerIceState[] = ['checking', 'connected', 'completed', 'disconnected', 'failed', 'closed'];

/**
 * A consumer's media can flow: the relay reports its ice-lite transport's own word once DTLS is up
 * too, and that can be `completed` with no `connected` before it.
 */
export function isConsumerIceUp(state: ConsumerIceState): boolean {
  return state === 'connected' || state === 'completed';
}

/** A websocket's close code when it closed without a close frame: the network (or a missed pong) ended it, not either end. */
export const SOCKET_DROPPED = 1006;
/**
 * The close code of a socket the relay cannot serve (1013, "try again later"): it is stopped or
 * dead. Said on the websocket rather than as a refused upgrade, which a browser cannot tell from
 * a network fault: a session being resumed is gone with that relay, and the client stops asking.
 */
export const RELAY_UNAVAILABLE = 1013;
/** The close code of a socket its client gave up on (no answer in time) to resume its session on another: the session stays. */
export const SOCKET_ABANDONED = 4000;

/** `aud` of the HS256 token the config service puts in `sfuServer.password`. */
export const RELAY_TOKEN_AUDIENCE = 'parley-relay';

/** The query parameter of `sfuServer.url` that names the room a relay connection is for. */
export const RELAY_ROOM_PARAMETER = 'room';

/**
 * Where a connection for one room goes: `sfuServer.url` with `?room=<room address>` (Parley's
 * addition to the 1.30.3 wire). Where relays run on several hosts, the gateway sends a connection
 * that names its room to the host that carries the room's media (README "How it scales out");
 * a connection without it (the 1.30.3 client's) goes to the least loaded host, which forwards that
 * sender's streams just as well, since a sender's consumers live on its own connection.
 */
export function relayUrlForRoom(sfuServerUrl: string, roomAddress: string): string {
  const url = new URL(sfuServerUrl);
  url.searchParams.set(RELAY_ROOM_PARAMETER, roomAddress);
  return url.toString();
}

/** JSON-RPC error codes: the standard ones, then the relay's own (server range -32000…-32099). */
export const RELAY_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** AUTH refused, or a call before a successful AUTH. */
  notAuthenticated: -32001,
  /** No stream, consumer or transport with that id on this connection. */
  notFound: -32002,
  /** The id is in use, or the connection is bound to another room. */
  conflict: -32003,
  /** A bound (per connection: consumers, ingests, media sections; per user or address: connections, ingests, transports; per relay: rooms) would be exceeded. */
  limitExceeded: -32004,
  /** The connection's request rate is above its token bucket. */
  rateLimited: -32005,
  /** The media server refused the operation (e.g. an offer with no codec it can forward). */
  mediaError: -32010,
} as const;

/** Every bound on what one relay connection may send or make (Parley's own, not the spec's). */
export const RELAY_LIMITS = {
  /** A message above this many bytes is answered with an invalid-request error and not parsed. */
  messageBytes: 64 * 1024,
  /** A message above this many bytes closes the socket (1009) instead: it is not even buffered whole. */
  closeAboveBytes: 1024 * 1024,
  /** Token bucket: this many requests at once, refilled at `requestsPerSecond`. */
  requestBurst: 60,
  requestsPerSecond: 20,
  /** CREATE_CONSUMER ids alive at once (each holds one transport and up to two consumers). */
  consumersPerConnection: 64,
  /** Streams ingested at once (INGEST or CREATE_INGEST_TRANSPORT). */
  ingestsPerConnection: 8,
  /** Media sections (m-lines) in an INGEST offer, and PRODUCE calls per ingest. */
  producersPerIngest: 4,
  /**
   * `a=` lines in one section of an SDP (and at session level): room for every one of RTP's 128
   * payload types with its rtpmap, fmtp and six rtcp-fb lines; Chromium's camera section has ~120.
   */
  sdpAttributesPerSection: 1_024,
  /** Ids, room addresses, peer ids. */
  idLength: 256,
  /** PRODUCE appData, as JSON. */
  appDataBytes: 1024,
  /** A started consumer that reaches no ICE+DTLS connection in this time is reported `failed`. */
  consumerConnectTimeoutMs: 15_000,
  /** Websocket ping; a socket that misses one pong is closed. */
  pingIntervalMs: 30_000,
  /**
   * A resumable session whose socket dropped waits this long for its client: as long as the relay
   * waits for a pong, so that a fault it noticed can last about as long again and still resume.
   */
  resumeGraceMs: 30_000,
  /** Notifications kept for a session whose socket dropped; one more ends it (its client could not catch up). */
  notificationsKept: 256,
  /** Answers a resumable session keeps, for requests its client asks again after a resume (ids must then be unique to the session). */
  answersKept: 32,
  /** A socket that has not authenticated (AUTH succeeded) within this time is closed (1008). */
  authTimeoutMs: 5_000,
  /** Sessions of one user (the token's `sub`) at once, a dropped one waiting to be resumed included; AUTH beyond is refused. */
  connectionsPerUser: 4,
  /** Sockets from one network address at once (behind a proxy, every client shares its address). */
  connectionsPerAddress: 64,
  /** Streams one user ingests at once, over all of their connections (each ingest holds a UDP port). */
  ingestsPerUser: 4,
  /**
   * Media transports (ingests and consumers: each holds a UDP port of the relay's range) held at
   * once from one network address, over all of its connections: guest identities cost nothing, so
   * without it one address could hold connectionsPerAddress × (ingests + consumers) ports.
   */
  transportsPerAddress: 1_024,
  /**
   * Distinct rooms the relay's connections are bound to at once; a connection naming one more is
   * refused. A relay host announces its rooms to the gateways, which take at most this many
   * (RELAY_ANNOUNCEMENT_LIMITS.rooms is this bound): past it, no announcement would pass.
   */
  roomsPerRelay: 10_000,
} as const;
export type RelayLimits = { readonly [K in keyof typeof RELAY_LIMITS]: number };

/**
 * Any JSON-RPC error; `rpcCode` is what goes on the wire. `requestId` is set only where the
 * request's own id is not known to the one replying (an envelope that could not be read).
 */
export class RelayRpcError extends ParleyError {
  override readonly name: string = 'RelayRpcError';
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly requestId?: RelayRequestId | null,
  ) {
    super(message);
  }
}

// ---- Methods: params and results ----

export interface AuthParams {
  token: string;
  /** Keep the session through a dropped socket (Parley's client; the 1.30.3 client never asks). */
  resumable?: boolean;
  /** Take over this session, whose socket dropped (its `session` from an earlier AUTH). */
  resume?: string;
}
export interface AuthResult {
  /** The token's subject: the user the connection acts for. */
  user: string;
  /** A resumable session's id: what `resume` names. */
  session?: string;
}
export interface IngestParams {
  /** The local stream id. */
  id: string;
  /** An SDP offer: sendonly/sendrecv audio and video, BUNDLEd, video optionally with rids (simulcast). */
  sdp: string;
}
export interface SdpResult {
  sdp: string;
}
export interface CreateConsumerParams {
  /** The Jingle session id the consumer's offer will be delivered in. */
  id: string;
  /** The receiver's sid; none for a consumer made ahead of its receiver (CLAIM_CONSUMER names it). */
  peerId?: string;
  roomAddress: string;
  /** The room's `<user rid>`. */
  roomId: string;
  /** The ingested stream id to consume. */
  source: string;
  audio: boolean;
  video: boolean;
}
export interface ClaimConsumerParams {
  id: string;
  /** The receiver's sid. */
  peerId: string;
}
export interface StartConsumerParams {
  id: string;
  /** The receiver's answer to the consumer's offer. */
  sdp: string;
}
export interface IdParams {
  id: string;
}
export interface ClosedResult {
  /** False when there was nothing with that id (already closed). */
  closed: boolean;
}
export interface SetConsumerProfileParams {
  id: string;
  profile: ConsumerProfile;
}
export interface ProfileResult {
  profile: ConsumerProfile;
}
export type EmptyResult = Record<string, never>;
export interface RoomParams {
  roomAddress: string;
}
export interface RouterCapabilitiesResult {
  rtpCapabilities: RtpCapabilities;
}
export interface CreateIngestTransportParams {
  /** The local stream id: later PRODUCE, CREATE_CONSUMER `source` and DISPOSE name it. */
  id: string;
  roomAddress: string;
}
export interface IngestTransportResult {
  id: string;
  iceParameters: IceParameters;
  iceCandidates: IceCandidate[];
  dtlsParameters: DtlsParameters;
}
export interface ConnectIngestTransportParams {
  id: string;
  dtlsParameters: DtlsParameters;
}
export interface ProduceParams {
  id: string;
  kind: 'audio' | 'video';
  rtpParameters: RtpParameters;
  appData: Record<string, unknown>;
}
export interface ProduceResult {
  producerId: string;
}

/** Method name → params and result. */
export interface RelayMethods {
  AUTH: { params: AuthParams; result: AuthResult };
  INGEST: { params: IngestParams; result: SdpResult };
  CREATE_CONSUMER: { params: CreateConsumerParams; result: SdpResult };
  CLAIM_CONSUMER: { params: ClaimConsumerParams; result: EmptyResult };
  START_CONSUMER: { params: StartConsumerParams; result: EmptyResult };
  REMOVE_CONSUMER: { params: IdParams; result: ClosedResult };
  SET_CONSUMER_PROFILE: { params: SetConsumerProfileParams; result: ProfileResult };
  DISPOSE: { params: IdParams; result: ClosedResult };
  GET_ROUTER_CAPABILITIES: { params: RoomParams; result: RouterCapabilitiesResult };
  CREATE_INGEST_TRANSPORT: { params: CreateIngestTransportParams; result: IngestTransportResult };
  CONNECT_INGEST_TRANSPORT: { params: ConnectIngestTransportParams; result: EmptyResult };
  PRODUCE: { params: ProduceParams; result: ProduceResult };
  PING: { params: Record<string, never>; result: EmptyResult };
}
export type RelayMethod = keyof RelayMethods;
export type RelayParams<M extends RelayMethod> = RelayMethods[M]['params'];
export type RelayResult<M extends RelayMethod> = RelayMethods[M]['result'];

/** The relay's notifications: the 1.30.3 wire's, and Parley's own. */
export interface ConsumerIceStateParams {
  id: string;
  iceConnectionState: ConsumerIceState;
}
export const CONSUMER_ICE_STATE = 'CONSUMER_ICE_STATE';
export interface LayersWantedParams {
  /** The stream id (PRODUCE's ingest). */
  id: string;
  /** PROFILE_SPATIAL_LAYER's numbers: 0 (low) … 2 (high). */
  spatialLayer: number;
}
export const LAYERS_WANTED = 'LAYERS_WANTED';
/**
 * How long a new consumer's first profile (high) is not counted in LAYERS_WANTED: its receiver
 * says which layer its tile needs within this, so a join does not switch the sender's top layer
 * on and straight off again. A receiver that says nothing (the 1.30.3 client) wants high.
 */
export const LAYERS_WANTED_GRACE_MS = 2_000;

// ---- Envelopes ----

export type RelayRequestId = string | number;
export interface RelayRequest<M extends RelayMethod = RelayMethod> {
  jsonrpc: '2.0';
  id: RelayRequestId;
  method: M;
  params: RelayParams<M>;
}
export interface RelayErrorObject {
  code: number;
  message: string;
}
export type RelayResponse =
  | { jsonrpc: '2.0'; id: RelayRequestId; result: object }
  | { jsonrpc: '2.0'; id: RelayRequestId | null; error: RelayErrorObject };
export type RelayNotification =
  | { jsonrpc: '2.0'; method: typeof CONSUMER_ICE_STATE; params: ConsumerIceStateParams }
  | { jsonrpc: '2.0'; method: typeof LAYERS_WANTED; params: LayersWantedParams };

const SDP_LENGTH = RELAY_LIMITS.messageBytes;
const TOKEN_LENGTH = 8192;

function invalidParams(message: string): RelayRpcError {
  return new RelayRpcError(RELAY_ERROR.invalidParams, message);
}

/** Runs a validator and turns its ValidationError into an invalid-params error. */
function asParams<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ValidationError) throw invalidParams(error.message);
    throw error;
  }
}

function id(value: unknown, what = 'id'): string {
  const text = expectString(value, what, RELAY_LIMITS.idLength);
  if (text.length === 0) throw new ValidationError(`${what} must not be empty`);
  return text;
}

function bool(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') throw new ValidationError(`${what} must be true or false`);
  return value;
}

function oneOf<T extends string>(value: unknown, what: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ValidationError(`${what} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/**
 * mediasoup's parameter objects are checked in depth by mediasoup itself on the server; here
 * they need only be objects of bounded size (the message already is).
 */
function mediaObject<T>(value: unknown, what: string): T {
  return expectRecord(value, what) as T;
}

const PARAM_READERS: { [M in RelayMethod]: (params: Record<string, unknown>) => RelayParams<M> } = {
  AUTH: (p) => {
    const params: AuthParams = { token: expectString(p.token, 'token', TOKEN_LENGTH) };
    if (p.resumable !== undefined) params.resumable = bool(p.resumable, 'resumable');
    if (p.resume !== undefined) params.resume = id(p.resume, 'resume');
    return params;
  },
  INGEST: (p) => ({ id: id(p.id), sdp: expectString(p.sdp, 'sdp', SDP_LENGTH) }),
  CREATE_CONSUMER: (p) => {
    const params = {
      id: id(p.id),
      ...(p.peerId === undefined ? {} : { peerId: id(p.peerId, 'peerId') }),
      roomAddress: id(p.roomAddress, 'roomAddress'),
      roomId: expectString(p.roomId, 'roomId', RELAY_LIMITS.idLength),
      source: id(p.source, 'source'),
      audio: bool(p.audio, 'audio'),
      video: bool(p.video, 'video'),
    };
    if (!params.audio && !params.video) throw new ValidationError('audio or video must be true');
    return params;
  },
  CLAIM_CONSUMER: (p) => ({ id: id(p.id), peerId: id(p.peerId, 'peerId') }),
  START_CONSUMER: (p) => ({ id: id(p.id), sdp: expectString(p.sdp, 'sdp', SDP_LENGTH) }),
  REMOVE_CONSUMER: (p) => ({ id: id(p.id) }),
  SET_CONSUMER_PROFILE: (p) => ({ id: id(p.id), profile: oneOf(p.profile, 'profile', CONSUMER_PROFILES) }),
  DISPOSE: (p) => ({ id: id(p.id) }),
  GET_ROUTER_CAPABILITIES: (p) => ({ roomAddress: id(p.roomAddress, 'roomAddress') }),
  CREATE_INGEST_TRANSPORT: (p) => ({ id: id(p.id), roomAddress: id(p.roomAddress, 'roomAddress') }),
  CONNECT_INGEST_TRANSPORT: (p) => ({ id: id(p.id), dtlsParameters: mediaObject<DtlsParameters>(p.dtlsParameters, 'dtlsParameters') }),
  PRODUCE: (p) => {
    const appData = optionalRecord(p.appData, 'appData') ?? {};
    if (JSON.stringify(appData).length > RELAY_LIMITS.appDataBytes) {
      throw new ValidationError(`appData is larger than ${RELAY_LIMITS.appDataBytes} bytes`);
    }
    return {
      id: id(p.id),
      kind: oneOf(p.kind, 'kind', ['audio', 'video'] as const),
      rtpParameters: mediaObject<RtpParameters>(p.rtpParameters, 'rtpParameters'),
      appData,
    };
  },
  PING: () => ({}),
};

export function isRelayMethod(method: string): method is RelayMethod {
  return Object.hasOwn(PARAM_READERS, method);
}

/** Validates a method's params; throws RelayRpcError (invalid params) with a message naming the field. */
export function parseRelayParams<M extends RelayMethod>(method: M, params: unknown): RelayParams<M> {
  if (params !== undefined && !isRecord(params)) throw invalidParams(`${method} params must be an object`);
  return asParams(() => PARAM_READERS[method](params ?? {}));
}

export interface ParsedRelayRequest {
  id: RelayRequestId;
  method: string;
  params: unknown;
}

/**
 * Validates a JSON-RPC 2.0 request envelope (not its method or params). Throws RelayRpcError
 * (invalid request) carrying the request id when one could be read.
 */
export function parseRelayEnvelope(value: unknown): ParsedRelayRequest {
  const invalid = (message: string, requestId: RelayRequestId | null): RelayRpcError =>
    new RelayRpcError(RELAY_ERROR.invalidRequest, message, requestId);
  if (Array.isArray(value)) throw invalid('batch requests are not supported', null);
  if (!isRecord(value)) throw invalid('a request must be a JSON object', null);
  const requestId = value.id;
  const validId =
    (typeof requestId === 'string' && requestId.length <= RELAY_LIMITS.idLength) ||
    (typeof requestId === 'number' && Number.isSafeInteger(requestId));
  if (value.jsonrpc !== '2.0') throw invalid('jsonrpc must be "2.0"', validId ? (requestId as RelayRequestId) : null);
  if (requestId === undefined) throw invalid('a request needs an id: the relay takes no notifications', null);
  if (!validId) throw invalid(`id must be a string of at most ${RELAY_LIMITS.idLength} characters or an integer`, null);
  if (typeof value.method !== 'string' || value.method.length === 0 || value.method.length > 64) {
    throw invalid('method must be a non-empty string', requestId as RelayRequestId);
  }
  return { id: requestId as RelayRequestId, method: value.method, params: value.params };
}

// ---- Client-side readers of results and the notification ----

export function parseSdpResult(value: unknown): SdpResult {
  return { sdp: expectString(expectRecord(value, 'relay result').sdp, 'sdp', SDP_LENGTH) };
}

export function parseClosedResult(value: unknown): ClosedResult {
  return { closed: bool(expectRecord(value, 'relay result').closed, 'closed') };
}

export function parseProduceResult(value: unknown): ProduceResult {
  return { producerId: id(expectRecord(value, 'relay result').producerId, 'producerId') };
}

export function parseRouterCapabilitiesResult(value: unknown): RouterCapabilitiesResult {
  return { rtpCapabilities: mediaObject<RtpCapabilities>(expectRecord(value, 'relay result').rtpCapabilities, 'rtpCapabilities') };
}

export function parseIngestTransportResult(value: unknown): IngestTransportResult {
  const result = expectRecord(value, 'relay result');
  if (!Array.isArray(result.iceCandidates)) throw new ValidationError('iceCandidates must be an array');
  return {
    id: id(result.id),
    iceParameters: mediaObject<IceParameters>(result.iceParameters, 'iceParameters'),
    iceCandidates: result.iceCandidates.map((candidate) => mediaObject<IceCandidate>(candidate, 'iceCandidates entry')),
    dtlsParameters: mediaObject<DtlsParameters>(result.dtlsParameters, 'dtlsParameters'),
  };
}

export function parseConsumerIceState(params: unknown): ConsumerIceStateParams {
  const record = expectRecord(params, 'CONSUMER_ICE_STATE params');
  return { id: id(record.id), iceConnectionState: oneOf(record.iceConnectionState, 'iceConnectionState', CONSUMER_ICE_STATES) };
}

export function parseLayersWanted(params: unknown): LayersWantedParams {
  const record = expectRecord(params, 'LAYERS_WANTED params');
  const spatialLayer = record.spatialLayer;
  const highest = Math.max(...Object.values(PROFILE_SPATIAL_LAYER));
  if (typeof spatialLayer !== 'number' || !Number.isInteger(spatialLayer) || spatialLayer < 0 || spatialLayer > highest) {
    throw new ValidationError(`spatialLayer must be an integer from 0 to ${highest}`);
  }
  return { id: id(record.id), spatialLayer };
}

/**
 * Reads a JSON-RPC error object from a reply into a RelayRpcError. Never throws: the reply's request
 * must still be rejected, so an `error` that is no object (null, a string) reads as an unreadable one.
 */
export function relayErrorFrom(value: unknown): RelayRpcError {
  if (!isRecord(value)) return new RelayRpcError(RELAY_ERROR.invalidRequest, `relay sent an unreadable error (${value === null ? 'null' : typeof value})`);
  const error = value;
  const code = typeof error.code === 'number' ? error.code : RELAY_ERROR.internalError;
  const message = typeof error.message === 'string' ? error.message.slice(0, 1024) : 'relay error';
  return new RelayRpcError(code, message);
}
