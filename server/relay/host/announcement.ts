import { ValidationError } from '../../../src/protocol/errors';
import { RELAY_LIMITS } from '../../../src/protocol/relay';
import { expectRecord, expectString } from '../../../src/protocol/validate';
import { signToken, TokenError, verifyToken } from '../../auth/jwt';

/**
 * What a relay host tells every gateway, again every `heartbeatMs` (POST /api/relays, with a
 * Bearer token signed with the shared PARLEY_TOKEN_SECRET for this audience): who it is, where
 * clients' relay websockets reach it, how loaded it is and which rooms' media it carries now.
 */
export interface RelayAnnouncement {
  /** Stable for the host's life; a restarted host is a new one. */
  id: string;
  /** ws:// URL of its relay endpoint, as the gateways reach it (over the private network: the gateways' proxy speaks plain TCP to it). */
  url: string;
  heartbeatMs: number;
  /** mediasoup objects per worker (its workers' loads, averaged): hosts with more cores take more. */
  load: number;
  /** Addresses of the rooms its connections are bound to, routers made for them or not yet: the gateways keep those rooms' placements on it. */
  rooms: string[];
}

/** `aud` of the tokens relay hosts announce themselves with: no client credential passes as one. */
export const RELAY_HOST_AUDIENCE = 'parley-relay-host';
const ANNOUNCEMENT_TOKEN_TTL_SECONDS = 60;

const ID_LENGTH = 128;
const URL_LENGTH = 3072;
/**
 * Rooms one host carries at once, more than one reaches: a room on it has someone sending media,
 * who holds one of its UDP ports (PARLEY_RELAY_RTC_MIN_PORT to _MAX_PORT, 10,000 by default), and
 * each of its workers carries a few hundred people. The relay binds its connections to no more.
 */
const ROOMS = RELAY_LIMITS.roomsPerRelay;
/** The relay binds a connection to a room address of at most this length (its JSON-RPC ids' bound). */
const ROOM_ADDRESS_LENGTH = RELAY_LIMITS.idLength;
/** A character JSON.stringify escapes (a control character, a lone surrogate) takes six bytes, `\u001f`; none takes more. */
const MAX_JSON_BYTES_PER_CHARACTER = 6;
/** The keys, numbers and punctuation around an announcement's strings, with room to spare. */
const ANNOUNCEMENT_FRAME_BYTES = 256;
/** A room address in the list, with its quotes and comma. */
const ROOM_JSON_BYTES = MAX_JSON_BYTES_PER_CHARACTER * ROOM_ADDRESS_LENGTH + 3;

/** What an announcement may hold, and the most bytes of JSON that takes: the gateway's body limit for POST /api/relays. */
export const RELAY_ANNOUNCEMENT_LIMITS = {
  idLength: ID_LENGTH,
  urlLength: URL_LENGTH,
  rooms: ROOMS,
  roomAddressLength: ROOM_ADDRESS_LENGTH,
  bytes: ANNOUNCEMENT_FRAME_BYTES + MAX_JSON_BYTES_PER_CHARACTER * (ID_LENGTH + URL_LENGTH) + ROOMS * ROOM_JSON_BYTES,
} as const;

export function announcementToken(tokenSecret: string, id: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  return signToken(tokenSecret, { sub: id, aud: RELAY_HOST_AUDIENCE, iat: nowSeconds, exp: nowSeconds + ANNOUNCEMENT_TOKEN_TTL_SECONDS });
}

/** The relay host id a Bearer token vouches for; throws a TokenError for anything else. */
export function verifyAnnouncementToken(tokenSecret: string, bearer: string): string {
  const claims = verifyToken(tokenSecret, bearer);
  if (claims.aud !== RELAY_HOST_AUDIENCE) throw new TokenError('not a relay host token');
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new TokenError('the token names no relay host');
  return claims.sub;
}

export function parseRelayAnnouncement(value: unknown): RelayAnnouncement {
  const body = expectRecord(value, 'relay announcement');
  const url = expectString(body.url, 'url', URL_LENGTH);
  if (!url.startsWith('ws://') || !URL.canParse(url)) throw new ValidationError('url must be a ws:// URL');
  const heartbeatMs = body.heartbeatMs;
  if (typeof heartbeatMs !== 'number' || !Number.isInteger(heartbeatMs) || heartbeatMs < 1 || heartbeatMs > 3_600_000) {
    throw new ValidationError('heartbeatMs must be a whole number of milliseconds up to an hour');
  }
  const load = body.load;
  if (typeof load !== 'number' || !Number.isFinite(load) || load < 0) throw new ValidationError('load must be a non-negative number');
  if (!Array.isArray(body.rooms) || body.rooms.length > ROOMS) throw new ValidationError(`rooms must be a list of at most ${ROOMS} room addresses`);
  const rooms = body.rooms.map((room, index) => expectString(room, `rooms[${index}]`, ROOM_ADDRESS_LENGTH));
  return { id: expectString(body.id, 'id', ID_LENGTH), url, heartbeatMs, load, rooms };
}
