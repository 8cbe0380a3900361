import { randomBytes } from 'node:crypto';

/** Every setting of the servers, read from the environment in one place (README "Configuration"). */
export interface ParleySettings {
  /** Gateway listen address and port. */
  host: string;
  port: number;
  /** Public origin the browser uses, when not the request's own Host (e.g. behind a TLS proxy). */
  publicUrl: string | undefined;
  /** HS256 secret for the credentials the config service issues (XMPP login, room config, relay). */
  tokenSecret: string;
  /** HS256 secret that verifies users' own tokens (customerData, displayName); unset means tokens are ignored. */
  userTokenSecret: string | undefined;
  /** How long an issued credential stays valid. */
  credentialTtlSeconds: number;
  xmppDomain: string;
  mucDomain: string;
  /** RTCIceServer list (JSON) handed to clients; empty on loopback. */
  iceServers: unknown[];
  /** Default room occupant limit; undefined means unlimited. */
  maxOccupants: number | undefined;
  /** Where the built app lives. */
  staticRoot: string;
}

function integer(name: string, value: string | undefined, fallback: number | undefined): number | undefined {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
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

export function readSettings(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ParleySettings> = {}): ParleySettings {
  const xmppDomain = env.PARLEY_XMPP_DOMAIN || 'parley.localhost';
  return {
    host: env.HOST || '127.0.0.1',
    port: integer('PORT', env.PORT, 8080) ?? 8080,
    publicUrl: env.PARLEY_PUBLIC_URL || undefined,
    // Generated per run when not given: credentials then simply do not outlive the servers.
    tokenSecret: env.PARLEY_TOKEN_SECRET || randomBytes(32).toString('base64url'),
    userTokenSecret: env.PARLEY_USER_TOKEN_SECRET || undefined,
    credentialTtlSeconds: integer('PARLEY_CREDENTIAL_TTL_SECONDS', env.PARLEY_CREDENTIAL_TTL_SECONDS, 12 * 3600) ?? 12 * 3600,
    xmppDomain,
    mucDomain: env.PARLEY_MUC_DOMAIN || `rooms.${xmppDomain}`,
    iceServers: jsonArray('PARLEY_ICE_SERVERS', env.PARLEY_ICE_SERVERS),
    maxOccupants: integer('PARLEY_MAX_OCCUPANTS', env.PARLEY_MAX_OCCUPANTS, undefined),
    staticRoot: env.PARLEY_STATIC_ROOT || new URL('../dist/', import.meta.url).pathname,
    ...overrides,
  };
}
