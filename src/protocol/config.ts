import { LIMITS, VIDEO_RESOLUTION_TIERS, type VideoResolutionTier } from './constants';
import {
  expectRecord,
  expectString,
  optionalNumber,
  optionalRecord,
  optionalString,
} from './validate';
import { ValidationError } from './errors';

/** SPEC §3 "Config from the provider"; PROTOCOL.md "HTTP". */
export interface SfuServerConfig {
  url: string;
  password: string;
  minimumPeers: number;
}

export interface ProviderConfig {
  apiVersion: string;
  credential: string;
  customerData: Record<string, unknown> | undefined;
  iceServers: RTCIceServer[];
  id: string;
  orgId: string;
  roomConfigUrl: string;
  screensharingExtensions: { chrome?: string };
  signalingUrl: string;
  telemetryUrl: string;
  userId: string;
  sfuServer: SfuServerConfig | undefined;
  displayName: string | undefined;
  videoResolutionTiers: Record<number, VideoResolutionTier>;
  /** Parley's addition: the browser's guest identity credential, renewed; absent for a user with a product token. */
  identity: string | undefined;
  /**
   * Parley's addition: the identity credential presented was refused (expired, another secret) and a
   * new guest made, so rooms this browser created no longer know it. Absent on the wire means false.
   */
  identityReplaced: boolean;
}

/**
 * SPEC §7 config request body, and Parley's `identity` (the guest identity credential the browser
 * keeps) and `resume` (issue 13: a reconnecting session's previous credential, which names its config
 * id; the config service gives the same id back to the same user, so the person returns at the same
 * occupant address and the sessions of their call stay addressed to them).
 */
export interface ConfigRequestBody {
  clientVersion: string;
  token?: string;
  identity?: string;
  resume?: string;
}

/** PROTOCOL.md room config: request and response. */
export interface RoomConfigRequestBody {
  name: string;
}
export interface RoomConfigResponse {
  roomAddress: string;
}

const URL_MAX = 2048;
const ID_MAX = 256;

/** PROTOCOL.md: RTCIceServer objects, or the provider's {type, host, port, …} form. */
export function parseIceServer(value: unknown): RTCIceServer {
  const server = expectRecord(value, 'iceServers entry');
  if (server.urls !== undefined) {
    const urls = Array.isArray(server.urls)
      ? server.urls.map((url) => expectString(url, 'iceServers url', URL_MAX))
      : expectString(server.urls, 'iceServers url', URL_MAX);
    const username = optionalString(server.username, 'iceServers username', ID_MAX);
    const credential = optionalString(server.credential, 'iceServers credential', ID_MAX);
    return { urls, ...(username ? { username } : {}), ...(credential ? { credential } : {}) };
  }
  const type = expectString(server.type, 'iceServers type', 8);
  if (type !== 'stun' && type !== 'turn' && type !== 'turns') throw new ValidationError(`unknown ICE server type ${type}`);
  const host = expectString(server.host, 'iceServers host', URL_MAX);
  const port = optionalNumber(server.port, 'iceServers port');
  const transport = optionalString(server.transport, 'iceServers transport', 8);
  const username = optionalString(server.username, 'iceServers username', ID_MAX);
  const credential = optionalString(server.password, 'iceServers password', ID_MAX);
  const url = `${type}:${host}${port ? `:${port}` : ''}${transport && type !== 'stun' ? `?transport=${transport}` : ''}`;
  return { urls: url, ...(username ? { username } : {}), ...(credential ? { credential } : {}) };
}

/** Tiers keyed by peer-count threshold: `{ "0": { width, height, frameRate }, … }`; absent means SPEC §9's. */
export function parseVideoResolutionTiers(value: unknown): Record<number, VideoResolutionTier> {
  if (value === undefined || value === null) return { ...VIDEO_RESOLUTION_TIERS };
  const tiers: Record<number, VideoResolutionTier> = {};
  for (const [threshold, raw] of Object.entries(expectRecord(value, 'videoResolutionTiers'))) {
    const tier = expectRecord(raw, 'video resolution tier');
    const peers = Number(threshold);
    const width = optionalNumber(tier.width, 'tier width');
    const height = optionalNumber(tier.height, 'tier height');
    const frameRate = optionalNumber(tier.frameRate, 'tier frameRate');
    if (!Number.isInteger(peers) || peers < 0 || width === undefined || height === undefined || frameRate === undefined) {
      throw new ValidationError('video resolution tier needs a peer-count key, width, height and frameRate');
    }
    tiers[peers] = { width, height, frameRate };
  }
  return tiers;
}

function optionalBoolean(value: unknown, what: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ValidationError(`${what} must be a boolean`);
  return value;
}

function parseSfuServer(value: unknown): SfuServerConfig | undefined {
  const sfu = optionalRecord(value, 'sfuServer');
  if (!sfu) return undefined;
  return {
    url: expectString(sfu.url, 'sfuServer.url', URL_MAX),
    password: expectString(sfu.password, 'sfuServer.password', 8192),
    minimumPeers: optionalNumber(sfu.minimumPeers, 'sfuServer.minimumPeers') ?? 2,
  };
}

/** Validates a config response (SPEC §7 fields). Throws ValidationError on anything malformed. */
export function parseProviderConfig(value: unknown): ProviderConfig {
  const config = expectRecord(value, 'config response');
  const screensharing = optionalRecord(config.screensharingExtensions, 'screensharingExtensions') ?? {};
  const chrome = optionalString(screensharing.chrome, 'screensharingExtensions.chrome', URL_MAX);
  const iceServers = config.iceServers === undefined || config.iceServers === null ? [] : config.iceServers;
  if (!Array.isArray(iceServers)) throw new ValidationError('iceServers must be an array');
  return {
    apiVersion: optionalString(config.apiVersion, 'apiVersion', 32) ?? '',
    credential: expectString(config.credential, 'credential', 8192),
    customerData: optionalRecord(config.customerData, 'customerData'),
    iceServers: iceServers.map(parseIceServer),
    id: expectString(config.id, 'id', ID_MAX),
    orgId: optionalString(config.orgId, 'orgId', ID_MAX) ?? '',
    roomConfigUrl: expectString(config.roomConfigUrl, 'roomConfigUrl', URL_MAX),
    screensharingExtensions: chrome ? { chrome } : {},
    signalingUrl: expectString(config.signalingUrl, 'signalingUrl', URL_MAX),
    telemetryUrl: optionalString(config.telemetryUrl, 'telemetryUrl', URL_MAX) ?? '',
    userId: expectString(config.userId, 'userId', ID_MAX),
    sfuServer: parseSfuServer(config.sfuServer),
    displayName: optionalString(config.displayName, 'displayName', ID_MAX),
    videoResolutionTiers: parseVideoResolutionTiers(config.videoResolutionTiers),
    identity: optionalString(config.identity, 'identity', LIMITS.identityCredentialLength),
    identityReplaced: optionalBoolean(config.identityReplaced, 'identityReplaced') ?? false,
  };
}

export function parseRoomConfigResponse(value: unknown): RoomConfigResponse {
  const response = expectRecord(value, 'room config response');
  return { roomAddress: expectString(response.roomAddress, 'roomAddress', 3071) };
}

/**
 * How long a token of the config stays valid, from its own claims: a JWT's `exp` less its `iat`
 * (both in seconds; read, not verified: the issuer verifies). Relative to its issue, so this
 * machine's clock need not agree with the issuer's. Undefined for a token that is no such JWT
 * (another provider's opaque credential): its lifetime is not known.
 */
export function tokenLifetimeMs(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || payload.length > 8192) return undefined;
  let claims: unknown;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))));
  } catch {
    return undefined;
  }
  if (typeof claims !== 'object' || claims === null) return undefined;
  const { iat, exp } = claims as { iat?: unknown; exp?: unknown };
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(exp - iat) || exp <= iat) return undefined;
  return (exp - iat) * 1000;
}

/** The shortest lifetime of the config's credential and relay token (tokenLifetimeMs); undefined when neither says. */
export function configLifetimeMs(config: Pick<ProviderConfig, 'credential' | 'sfuServer'>): number | undefined {
  const lifetimes = [config.credential, config.sfuServer?.password].flatMap((token) => {
    const lifetime = token === undefined ? undefined : tokenLifetimeMs(token);
    return lifetime === undefined ? [] : [lifetime];
  });
  return lifetimes.length > 0 ? Math.min(...lifetimes) : undefined;
}
