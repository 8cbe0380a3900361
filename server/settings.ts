import { availableParallelism } from 'node:os';
import { parseIceServer, parseVideoResolutionTiers } from '../src/protocol/config';
import { MEDIA_RELAY, type VideoResolutionTier } from '../src/protocol/constants';
import { RELAY_LIMITS, type RelayLimits } from '../src/protocol/relay';
import { XMPP_SERVERS, type XmppClusterOptions, type XmppServerName } from './xmpp/XmppServer';
import { XMPP_READINESS_DEFAULTS } from './supervision/XmppReadiness';
import { defaultDataDir, MIN_SECRET_LENGTH, storedTokenSecret } from './dataDir';
import { errorMessage } from '../src/common/errorMessage';

/** Every setting of the servers, read from the environment in one place (README "Configuration"). */
export interface ParleySettings {
  /** Gateway listen address and port. */
  host: string;
  port: number;
  /** Public origin the browser uses, when not the request's own Host (e.g. behind a TLS proxy). */
  publicUrl: string | undefined;
  /** HS256 secret for the credentials the config service issues (XMPP login, room config, relay, guest identity). */
  tokenSecret: string;
  /** HS256 secret that verifies users' own tokens (customerData, displayName); unset means tokens are ignored. */
  userTokenSecret: string | undefined;
  /** How long an issued credential stays valid. */
  credentialTtlSeconds: number;
  /** Which XMPP server runs the signalling: Prosody (one machine) or ejabberd (clusters). */
  xmppServer: XmppServerName;
  /** ejabberd: this node's Erlang distribution address and port, and the nodes it joins; undefined: a node on its own. */
  xmppCluster: XmppClusterOptions | undefined;
  /** How long a browser's guest identity credential stays valid; each config request renews it. */
  identityTtlSeconds: number;
  /** Where the servers keep what outlives them: rooms (with owners, locks, bans) and the generated token secret. */
  dataDir: string;
  /** A room nobody is in is destroyed after this many seconds, and its bans with it. */
  roomIdleExpirySeconds: number;
  xmppDomain: string;
  mucDomain: string;
  /** RTCIceServer list (JSON) handed to clients; empty on loopback. */
  iceServers: unknown[];
  /** Camera resolution by how many peers receive it (SPEC §9 tiers by default), handed to clients in their config. */
  videoResolutionTiers: Record<number, VideoResolutionTier>;
  /** Default room occupant limit; undefined means unlimited. */
  maxOccupants: number | undefined;
  /** Only users with a product token may start a room; guests see "not started" until then. */
  roomsNeedHost: boolean;
  /** Where the built app lives. */
  staticRoot: string;
  /** Media relay: mediasoup workers (one per CPU core by default); 0 turns the relay off (configs carry no sfuServer, calls stay mesh). */
  relayWorkers: number;
  /** `sfuServer.minimumPeers` (SPEC §4): remote peers at which a call moves to the relay. */
  relayMinimumPeers: number;
  /** Address the relay's WebRtcTransports listen on. */
  relayListenIp: string;
  /** Address their ICE candidates announce instead, when clients reach the relay by another (NAT, container). */
  relayAnnouncedIp: string | undefined;
  /** UDP port range for the relay's media. */
  relayRtcMinPort: number;
  relayRtcMaxPort: number;
  /** A room grows onto another worker once its workers each carry this many mediasoup objects. */
  relaySpillLoad: number;
  /** Gateway: relay hosts announce themselves to it (POST /api/relays) and it forwards each room's relay connections to the host carrying the room; configs carry sfuServer even with relayWorkers 0. */
  remoteRelays: boolean;
  /** Relay host (server/relay/host/main.ts): the gateways it announces itself to. */
  relayGateways: string[];
  /** Relay host: the port its websocket endpoint listens on (on relayListenIp); 0 picks a free one. */
  relayHostPort: number;
  /** Relay host: how gateways reach its endpoint, when not ws://<relayListenIp>:<relayHostPort>/relay. */
  relayPublicUrl: string | undefined;
  /** Relay host: how often it announces itself; a gateway takes it for dead after three missed. */
  relayHeartbeatMs: number;
  /** Clients waiting for a restarted XMPP server that the gateway tells per second it is back (GET /api/xmpp-ready): their logins spread over time. */
  xmppReconnectsPerSecond: number;
  /** GET /api/xmpp-ready questions held at once from one client address (PARLEY_XMPP_READY_WAITERS_PER_ADDRESS). */
  xmppReadyWaitersPerAddress: number;
  /** XMPP websockets the gateway carries at once from one client address (PARLEY_XMPP_CONNECTIONS_PER_ADDRESS). */
  xmppConnectionsPerAddress: number;
  /** Bytes the gateway's websocket proxy holds per connection and direction; a client that lets more pile up has stopped reading and is closed. */
  gatewayBufferBytes: number;
  /** Bounds of the relay's JSON-RPC endpoint (src/protocol/relay.ts): per connection, and per user and address (env-settable). */
  relayLimits: RelayLimits;
}

function integer(name: string, value: string | undefined, fallback: number | undefined): number | undefined {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

/** An integer of at least 1 (a cap or a timeout that 0 would turn into "refuse everything"). */
function atLeastOne(name: string, value: string | undefined, fallback: number): number {
  const parsed = integer(name, value, fallback) ?? fallback;
  if (parsed < 1) throw new Error(`${name} must be at least 1, got "${value}"`);
  return parsed;
}

function port(name: string, value: string | undefined, fallback: number): number {
  const parsed = integer(name, value, fallback) ?? fallback;
  if (parsed < 1 || parsed > 65535) throw new Error(`${name} must be a port number (1-65535), got "${value}"`);
  return parsed;
}

export function xmppServerName(value: string | undefined): XmppServerName {
  if (value === undefined || value === '') return 'prosody';
  const known = XMPP_SERVERS.find((name) => name === value);
  if (known === undefined) throw new Error(`PARLEY_XMPP_SERVER must be one of ${XMPP_SERVERS.join(', ')}, got "${value}"`);
  return known;
}

function xmppCluster(env: NodeJS.ProcessEnv, server: XmppServerName): XmppClusterOptions | undefined {
  const join = (env.PARLEY_XMPP_CLUSTER ?? '').split(',').map((node) => node.trim()).filter((node) => node !== '');
  const distributionPort = env.PARLEY_XMPP_DISTRIBUTION_PORT;
  if (distributionPort === undefined || distributionPort === '') {
    if (join.length > 0) throw new Error('PARLEY_XMPP_CLUSTER needs PARLEY_XMPP_DISTRIBUTION_PORT: every node of a cluster listens on that port');
    return undefined;
  }
  if (server !== 'ejabberd') throw new Error('PARLEY_XMPP_DISTRIBUTION_PORT and PARLEY_XMPP_CLUSTER need PARLEY_XMPP_SERVER=ejabberd');
  return { address: env.PARLEY_XMPP_NODE_ADDRESS || '127.0.0.1', distributionPort: port('PARLEY_XMPP_DISTRIBUTION_PORT', distributionPort, 0), join };
}

function jsonArray(name: string, value: string | undefined): unknown[] {
  if (value === undefined || value === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`${name} must be a JSON array`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${name} must be a JSON array`);
  return parsed;
}

/** Checked with the clients' own parser: a mistake fails startup instead of every client's config. */
function iceServers(name: string, value: string | undefined): unknown[] {
  const servers = jsonArray(name, value);
  servers.forEach((server, index) => {
    try {
      parseIceServer(server);
    } catch (error) {
      throw new Error(`${name}[${index}]: ${errorMessage(error)} (e.g. [{"urls":"stun:stun.example.org:3478"}])`);
    }
  });
  return servers;
}

/** The config's addresses are made from this URL's origin: without a scheme, every config request would fail. */
function httpUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`${name} must be an http:// or https:// URL, got "${value}"`);
  return value;
}

function resolutionTiers(name: string, value: string | undefined): Record<number, VideoResolutionTier> {
  let parsed: unknown;
  try {
    parsed = value === undefined || value === '' ? undefined : JSON.parse(value);
  } catch {
    throw new Error(`${name} must be a JSON object of tiers`);
  }
  try {
    const tiers = parseVideoResolutionTiers(parsed);
    if (Object.keys(tiers).length === 0) throw new Error('no tier given');
    return tiers;
  } catch (error) {
    throw new Error(`${name}: ${errorMessage(error)} (e.g. {"0":{"width":1280,"height":720,"frameRate":30}})`);
  }
}

/** A port to listen on: 0 picks a free one. */
function listeningPort(name: string, value: string | undefined, fallback: number): number {
  return value === '0' ? 0 : port(name, value, fallback);
}

/** PARLEY_TOKEN_SECRET signs every credential Parley issues: none weaker than the one it makes for itself. */
function givenTokenSecret(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < MIN_SECRET_LENGTH) {
    throw new Error(`PARLEY_TOKEN_SECRET must be at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -base64 32), got ${value.length}`);
  }
  return value;
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  const parsed = integer(name, value, fallback) ?? fallback;
  if (parsed < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return parsed;
}

/** The settings as the environment gives them: without PARLEY_TOKEN_SECRET the secret comes from the data folder (resolveSettings). */
export type ConfiguredSettings = Omit<ParleySettings, 'tokenSecret'> & { tokenSecret: string | undefined };

const DAY_SECONDS = 24 * 3600;

/**
 * The environment without Parley's own settings, PARLEY_TOKEN_SECRET and PARLEY_USER_TOKEN_SECRET
 * among them: what a child process gets, since its environment is readable by whatever it runs
 * (/proc/<pid>/environ, a crash dump).
 */
export function withoutParleySettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('PARLEY_')));
}

/** The settings that are secrets: what no child process may inherit. */
const SECRET_SETTINGS = ['PARLEY_TOKEN_SECRET', 'PARLEY_USER_TOKEN_SECRET'] as const;

/**
 * A server entry's first step: returns the whole environment to read the settings from and takes
 * the secrets out of `env` itself, because mediasoup spawns its workers with this process's
 * environment and has no option to give them another.
 */
export function takeParleySecrets(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const whole = { ...env };
  for (const name of SECRET_SETTINGS) delete env[name];
  return whole;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ParleySettings> = {}): ConfiguredSettings {
  const xmppDomain = env.PARLEY_XMPP_DOMAIN || 'parley.localhost';
  const xmppServer = xmppServerName(env.PARLEY_XMPP_SERVER);
  const relayRtcMinPort = port('PARLEY_RELAY_RTC_MIN_PORT', env.PARLEY_RELAY_RTC_MIN_PORT, 40000);
  const relayRtcMaxPort = port('PARLEY_RELAY_RTC_MAX_PORT', env.PARLEY_RELAY_RTC_MAX_PORT, 49999);
  if (relayRtcMinPort > relayRtcMaxPort) throw new Error('PARLEY_RELAY_RTC_MIN_PORT must not be above PARLEY_RELAY_RTC_MAX_PORT');
  return {
    host: env.HOST || '127.0.0.1',
    port: listeningPort('PORT', env.PORT, 8080),
    publicUrl: httpUrl('PARLEY_PUBLIC_URL', env.PARLEY_PUBLIC_URL),
    tokenSecret: givenTokenSecret(env.PARLEY_TOKEN_SECRET),
    userTokenSecret: env.PARLEY_USER_TOKEN_SECRET || undefined,
    // 0 would issue credentials already expired.
    credentialTtlSeconds: positiveInteger('PARLEY_CREDENTIAL_TTL_SECONDS', env.PARLEY_CREDENTIAL_TTL_SECONDS, 12 * 3600),
    xmppServer,
    xmppCluster: xmppCluster(env, xmppServer),
    identityTtlSeconds: positiveInteger('PARLEY_IDENTITY_TTL_SECONDS', env.PARLEY_IDENTITY_TTL_SECONDS, 90 * DAY_SECONDS),
    dataDir: env.PARLEY_DATA_DIR || defaultDataDir(env),
    roomIdleExpirySeconds: positiveInteger('PARLEY_ROOM_IDLE_EXPIRY_SECONDS', env.PARLEY_ROOM_IDLE_EXPIRY_SECONDS, 30 * DAY_SECONDS),
    xmppDomain,
    mucDomain: env.PARLEY_MUC_DOMAIN || `rooms.${xmppDomain}`,
    iceServers: iceServers('PARLEY_ICE_SERVERS', env.PARLEY_ICE_SERVERS),
    videoResolutionTiers: resolutionTiers('PARLEY_VIDEO_RESOLUTION_TIERS', env.PARLEY_VIDEO_RESOLUTION_TIERS),
    // 0 would refuse every join.
    maxOccupants: env.PARLEY_MAX_OCCUPANTS ? atLeastOne('PARLEY_MAX_OCCUPANTS', env.PARLEY_MAX_OCCUPANTS, 1) : undefined,
    roomsNeedHost: env.PARLEY_ROOMS_NEED_HOST === 'true',
    staticRoot: env.PARLEY_STATIC_ROOT || new URL('../dist/', import.meta.url).pathname,
    relayWorkers: integer('PARLEY_RELAY_WORKERS', env.PARLEY_RELAY_WORKERS, availableParallelism()) ?? availableParallelism(),
    relayMinimumPeers:
      integer('PARLEY_RELAY_MINIMUM_PEERS', env.PARLEY_RELAY_MINIMUM_PEERS, MEDIA_RELAY.defaultMinimumPeers) ?? MEDIA_RELAY.defaultMinimumPeers,
    relayListenIp: env.PARLEY_RELAY_LISTEN_IP || '127.0.0.1',
    relayAnnouncedIp: env.PARLEY_RELAY_ANNOUNCED_IP || undefined,
    relayRtcMinPort,
    relayRtcMaxPort,
    relaySpillLoad: integer('PARLEY_RELAY_SPILL_LOAD', env.PARLEY_RELAY_SPILL_LOAD, 500) ?? 500,
    remoteRelays: env.PARLEY_REMOTE_RELAYS === 'true',
    relayGateways: (env.PARLEY_RELAY_GATEWAYS ?? '').split(',').map((gateway) => gateway.trim()).filter((gateway) => gateway !== ''),
    relayHostPort: listeningPort('PARLEY_RELAY_PORT', env.PARLEY_RELAY_PORT, 8090),
    relayPublicUrl: env.PARLEY_RELAY_PUBLIC_URL || undefined,
    relayHeartbeatMs: atLeastOne('PARLEY_RELAY_HEARTBEAT_MS', env.PARLEY_RELAY_HEARTBEAT_MS, 2_000),
    xmppReconnectsPerSecond: atLeastOne('PARLEY_XMPP_RECONNECTS_PER_SECOND', env.PARLEY_XMPP_RECONNECTS_PER_SECOND, XMPP_READINESS_DEFAULTS.releasesPerSecond),
    xmppReadyWaitersPerAddress: atLeastOne('PARLEY_XMPP_READY_WAITERS_PER_ADDRESS', env.PARLEY_XMPP_READY_WAITERS_PER_ADDRESS, XMPP_READINESS_DEFAULTS.maxWaitersPerAddress),
    xmppConnectionsPerAddress: atLeastOne('PARLEY_XMPP_CONNECTIONS_PER_ADDRESS', env.PARLEY_XMPP_CONNECTIONS_PER_ADDRESS, 64),
    gatewayBufferBytes: atLeastOne('PARLEY_GATEWAY_BUFFER_BYTES', env.PARLEY_GATEWAY_BUFFER_BYTES, 1024 * 1024),
    relayLimits: {
      ...RELAY_LIMITS,
      authTimeoutMs: atLeastOne('PARLEY_RELAY_AUTH_TIMEOUT_MS', env.PARLEY_RELAY_AUTH_TIMEOUT_MS, RELAY_LIMITS.authTimeoutMs),
      connectionsPerUser: atLeastOne('PARLEY_RELAY_CONNECTIONS_PER_USER', env.PARLEY_RELAY_CONNECTIONS_PER_USER, RELAY_LIMITS.connectionsPerUser),
      connectionsPerAddress: atLeastOne('PARLEY_RELAY_CONNECTIONS_PER_ADDRESS', env.PARLEY_RELAY_CONNECTIONS_PER_ADDRESS, RELAY_LIMITS.connectionsPerAddress),
      ingestsPerUser: atLeastOne('PARLEY_RELAY_INGESTS_PER_USER', env.PARLEY_RELAY_INGESTS_PER_USER, RELAY_LIMITS.ingestsPerUser),
      transportsPerAddress: atLeastOne('PARLEY_RELAY_TRANSPORTS_PER_ADDRESS', env.PARLEY_RELAY_TRANSPORTS_PER_ADDRESS, RELAY_LIMITS.transportsPerAddress),
    },
    ...overrides,
  };
}

/** The settings with their token secret: PARLEY_TOKEN_SECRET's, else the one kept in the data folder (made on first start). */
export async function resolveSettings(configured: ConfiguredSettings): Promise<ParleySettings> {
  const tokenSecret = configured.tokenSecret ?? (await storedTokenSecret(configured.dataDir));
  // The product's tokens are checked with this one: Parley's own credentials must not pass as theirs.
  if (configured.userTokenSecret === tokenSecret) {
    throw new Error('PARLEY_USER_TOKEN_SECRET must differ from the token secret (PARLEY_TOKEN_SECRET, or the one in the data folder): Parley’s own credentials would pass as product users’ tokens');
  }
  return { ...configured, tokenSecret };
}
