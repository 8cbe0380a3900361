import type { IncomingMessage } from 'node:http';
import { signToken, verifyToken } from '../../auth/jwt';

/**
 * A gateway forwarding a client's relay connection to a relay host names the client's network
 * address in this header, signed with the shared PARLEY_TOKEN_SECRET. Without it every connection
 * would reach the relay host from the gateway's address, and its per-address cap
 * (PARLEY_RELAY_CONNECTIONS_PER_ADDRESS) would count gateways instead of clients.
 */
export const CLIENT_ADDRESS_HEADER = 'x-parley-client-address';

/** `aud` of those tokens: no client credential or relay host announcement passes as one. */
const CLIENT_ADDRESS_AUDIENCE = 'parley-relay-client-address';
/** A forwarded upgrade is verified the moment it arrives: the token need not live longer. */
const CLIENT_ADDRESS_TOKEN_TTL_SECONDS = 30;

export function clientAddressToken(tokenSecret: string, address: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  return signToken(tokenSecret, { sub: address, aud: CLIENT_ADDRESS_AUDIENCE, iat: nowSeconds, exp: nowSeconds + CLIENT_ADDRESS_TOKEN_TTL_SECONDS });
}

/**
 * The network address a relay connection counts against: the one a gateway vouches for in
 * CLIENT_ADDRESS_HEADER, else the socket's own (a client connecting directly, or a header that does
 * not verify — it is never trusted unsigned).
 */
export function relayClientAddress(request: IncomingMessage, tokenSecret: string): string {
  const own = request.socket.remoteAddress ?? 'unknown';
  const vouched = request.headers[CLIENT_ADDRESS_HEADER];
  if (typeof vouched !== 'string') return own;
  try {
    const claims = verifyToken(tokenSecret, vouched);
    return claims.aud === CLIENT_ADDRESS_AUDIENCE && typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : own;
  } catch {
    return own;
  }
}
