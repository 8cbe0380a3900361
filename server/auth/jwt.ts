import { createHmac, timingSafeEqual } from 'node:crypto';

/** Claims Parley puts in its HS256 tokens; `sub`/`exp` for Prosody, `jid` for ejabberd's native JWT auth. */
export interface TokenClaims {
  readonly [claim: string]: unknown;
  exp?: number;
  iat?: number;
  sub?: string;
  jid?: string;
}

export class TokenError extends Error {
  override readonly name = 'TokenError';
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
/** Tokens are carried in SASL PLAIN and HTTP headers: anything longer is not ours. */
const MAX_TOKEN_LENGTH = 8192;

function base64url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

function signature(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

export function signToken(secret: string, claims: TokenClaims): string {
  const signingInput = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${signature(secret, signingInput).toString('base64url')}`;
}

/** Verifies signature, algorithm and expiry; returns the claims or throws TokenError. */
export function verifyToken(secret: string, token: string, nowSeconds = Date.now() / 1000): TokenClaims {
  if (token.length > MAX_TOKEN_LENGTH) throw new TokenError('token too long');
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenError('malformed token');
  const [header, payload, sig] = parts as [string, string, string];
  let parsedHeader: unknown;
  let claims: unknown;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new TokenError('malformed token');
  }
  if (!isRecord(parsedHeader) || parsedHeader.alg !== 'HS256') throw new TokenError('unsupported token algorithm');
  const expected = signature(secret, `${header}.${payload}`);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new TokenError('bad token signature');
  if (!isRecord(claims)) throw new TokenError('malformed token claims');
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) throw new TokenError('token expired');
  return claims as TokenClaims;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
