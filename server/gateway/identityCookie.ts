import { GATEWAY_PATHS, type PublicOrigin } from '../../src/protocol/endpoints';

/**
 * The guest identity a browser cannot keep itself. Parley's session stores its identity credential
 * and presents it in the config request's body; SimpleWebRTC 1.30.3 stores none, so every load of
 * it was a new guest and a reload undid its ban. The gateway therefore also hands the credential
 * back in a cookie that only the config request carries (HttpOnly: no page script reads it;
 * SameSite=Strict: no other site's request carries it), and a config request whose body presents
 * no credential presents the cookie's.
 */
export const IDENTITY_COOKIE = 'parley_identity';

/** The cookie's value in a request's Cookie header; undefined when it has none. The value is checked where it is used (guestLocalpartOf). */
export function identityFromCookies(header: string | undefined): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === IDENTITY_COOKIE) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value keeping `credential` for as long as it is good, sent back only to the config API. */
export function identityCookie(credential: string, ttlSeconds: number, origin: PublicOrigin): string {
  const secure = origin.http.startsWith('https:') ? '; Secure' : '';
  return `${IDENTITY_COOKIE}=${credential}; Path=${GATEWAY_PATHS.config}; Max-Age=${ttlSeconds}; HttpOnly; SameSite=Strict${secure}`;
}
