import { createHmac, randomUUID } from 'node:crypto';
import { LIMITS } from '../../src/protocol/constants';
import { signToken, verifyToken } from './jwt';

/**
 * A browser's guest identity credential: names the browser's own XMPP user (`sub`), so that the same
 * browser logs in as the same user tomorrow and a ban holds against it. Its audience makes it good for
 * nothing else: Prosody refuses any token with an `aud` as a login, the room config API likewise.
 */
export const IDENTITY_AUDIENCE = 'parley-identity';
const IDENTITY_TYPE = 'guest-identity';
/** Guest localparts are v4 UUIDs: lowercase, and valid XMPP localparts as they are. */
const GUEST_LOCALPART = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Hex characters of a user's keyed hash (160 bits): collisions are out of reach. */
const USER_HASH_LENGTH = 40;

/** Why a presented identity credential is no good; the config service then issues a new identity. */
export class IdentityCredentialError extends Error {
  override readonly name = 'IdentityCredentialError';
}

export function newGuestLocalpart(): string {
  return randomUUID();
}

export function issueGuestIdentity(secret: string, localpart: string, nowSeconds: number, ttlSeconds: number): string {
  return signToken(secret, { sub: localpart, aud: IDENTITY_AUDIENCE, type: IDENTITY_TYPE, iat: nowSeconds, exp: nowSeconds + ttlSeconds });
}

/** The guest localpart that a presented credential names; throws IdentityCredentialError saying why not. */
export function guestLocalpartOf(secret: string, credential: unknown, nowSeconds: number): string {
  if (typeof credential !== 'string') throw new IdentityCredentialError('it is not a string');
  if (credential.length > LIMITS.identityCredentialLength) {
    throw new IdentityCredentialError(`it is longer than ${LIMITS.identityCredentialLength} characters`);
  }
  let claims;
  try {
    claims = verifyToken(secret, credential, nowSeconds);
  } catch (error) {
    throw new IdentityCredentialError((error as Error).message);
  }
  if (claims.aud !== IDENTITY_AUDIENCE || claims.type !== IDENTITY_TYPE) throw new IdentityCredentialError('it is not a guest identity credential');
  if (typeof claims.sub !== 'string' || !GUEST_LOCALPART.test(claims.sub)) throw new IdentityCredentialError('it names no guest');
  return claims.sub;
}

/**
 * The localpart of the user a product token names: a keyed hash of its subject, so the same user is
 * always the same XMPP user (lowercase hex, a valid localpart) and their product id is not shown to
 * the moderators who see real addresses.
 */
export function userLocalpart(secret: string, subject: string): string {
  const hash = createHmac('sha256', secret).update(`parley user\0${subject}`).digest('hex');
  return `u-${hash.slice(0, USER_HASH_LENGTH)}`;
}
