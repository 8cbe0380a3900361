import { randomUUID } from 'node:crypto';
import type { ProviderConfig, RoomConfigResponse, SfuServerConfig } from '../../src/protocol/config';
import { LIMITS } from '../../src/protocol/constants';
import { customerDataTooLarge } from '../../src/protocol/customerData';
import { displayNameFrom } from '../../src/protocol/displayName';
import { GATEWAY_PATHS, gatewayAddresses, type PublicOrigin } from '../../src/protocol/endpoints';
import { RELAY_TOKEN_AUDIENCE } from '../../src/protocol/relay';
import { ValidationError } from '../../src/protocol/errors';
import { roomNameToLocalpart } from '../../src/protocol/rooms';
import { expectRecord, expectString, optionalString, parseJson } from '../../src/protocol/validate';
import { guestLocalpartOf, issueGuestIdentity, newGuestLocalpart, userLocalpart } from '../auth/identity';
import { signToken, TokenError, verifyToken, type TokenClaims } from '../auth/jwt';
import type { ParleySettings } from '../settings';
import { HttpError } from './errors';

/** The shape of the ids randomUUID issues: the only one a `resume` may name. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const API_VERSION = '1';

/** Who a config is for: the XMPP user, and the guest identity credential to hand back (none for a product user). */
interface ConfigIdentity {
  localpart: string;
  identity: string | undefined;
  /** A presented identity credential was refused and a new guest made: the browser lost who it was. */
  replaced: boolean;
}

/**
 * Issues configs and room addresses (SPEC §7, PROTOCOL.md "HTTP"). A config is for a stable user: the
 * one a product token names, else the guest a browser's identity credential names (renewed with each
 * config; the body's, else, when it presents none or one refused, the one the gateway kept for the
 * browser), else a new guest.
 */
export class ConfigService {
  constructor(
    private readonly settings: ParleySettings,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** `keptIdentity`: the guest identity credential the gateway kept for this browser (identityCookie.ts), used when the body presents none or one refused. */
  issueConfig(rawBody: string, origin: PublicOrigin, keptIdentity?: string, nowSeconds = Math.floor(Date.now() / 1000)): ProviderConfig {
    const body = expectRecord(parseJson(rawBody, 'request body', LIMITS.httpBodyBytes), 'request body');
    expectString(body.clientVersion, 'clientVersion', 64);
    const userToken = optionalString(body.token, 'token', 8192);
    const user = this.userClaims(userToken, nowSeconds);
    const { localpart, identity, replaced } = user
      ? { localpart: userLocalpart(this.settings.tokenSecret, user.subject), identity: undefined, replaced: false }
      : this.guestIdentity([body.identity, keptIdentity], nowSeconds);
    const id = this.resumedId(body.resume, localpart, nowSeconds) ?? randomUUID();
    const customerData = user?.customerData;
    const displayName = displayNameFrom(user?.displayName);
    const credential = signToken(this.settings.tokenSecret, {
      sub: localpart,
      jid: `${localpart}@${this.settings.xmppDomain}`,
      iat: nowSeconds,
      exp: nowSeconds + this.settings.credentialTtlSeconds,
      type: user ? 'registered' : 'guest',
      // The config id it goes with, for a reconnect's `resume`.
      resource: id,
      ...(customerData ? { customerData } : {}),
    });
    return {
      apiVersion: API_VERSION,
      credential,
      customerData,
      iceServers: this.settings.iceServers as RTCIceServer[],
      id,
      orgId: '',
      roomConfigUrl: `${origin.http}${GATEWAY_PATHS.roomConfig}`,
      screensharingExtensions: {},
      signalingUrl: gatewayAddresses(origin).xmppWebsocket,
      telemetryUrl: '',
      userId: `${localpart}@${this.settings.xmppDomain}`,
      sfuServer: this.settings.relayWorkers > 0 || this.settings.remoteRelays ? this.sfuServer(localpart, origin, nowSeconds) : undefined,
      displayName,
      videoResolutionTiers: { ...this.settings.videoResolutionTiers },
      identity,
      identityReplaced: replaced,
    };
  }

  /**
   * Issue 13: a reconnecting session presents its previous credential (`resume`) and gets the same
   * id — resource and room nickname — back, if the credential is ours, still valid and for this same
   * user (nobody can take another person's nickname this way). A credential that is not, or no
   * longer, good for that: a new id, no error; a `resume` that is no string is a malformed request.
   */
  private resumedId(presented: unknown, localpart: string, nowSeconds: number): string | undefined {
    const credential = optionalString(presented, 'resume', 8192);
    if (credential === undefined) return undefined;
    try {
      const claims = verifyToken(this.settings.tokenSecret, credential, nowSeconds);
      return claims.sub === localpart && typeof claims.resource === 'string' && UUID.test(claims.resource) ? claims.resource : undefined;
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      return undefined;
    }
  }

  /**
   * The guest the first good one of the presented identity credentials names (the body's, then the
   * gateway's cookie: a stale credential a client kept must not make a new user of a browser whose
   * cookie still names it, its ownerships, admissions and bans), or a new guest when none is good
   * (never an error: the person gets in; `replaced` says so, unless none was presented: a first visit).
   */
  private guestIdentity(presented: readonly unknown[], nowSeconds: number): ConfigIdentity {
    const candidates = presented.filter((credential) => credential !== undefined);
    let localpart: string | undefined;
    for (const [index, credential] of candidates.entries()) {
      try {
        localpart = guestLocalpartOf(this.settings.tokenSecret, credential, nowSeconds);
        break;
      } catch (error) {
        const next = index + 1 < candidates.length ? 'trying the one the gateway kept' : 'issuing a new one';
        this.log(`config request: guest identity refused (${(error as Error).message}); ${next}`);
      }
    }
    const replaced = localpart === undefined && candidates.length > 0;
    localpart ??= newGuestLocalpart();
    return { localpart, identity: issueGuestIdentity(this.settings.tokenSecret, localpart, nowSeconds, this.settings.identityTtlSeconds), replaced };
  }

  /** The relay's address and AUTH token: bound to the user (`sub`) and an expiry, and only good for the relay (`aud`). */
  private sfuServer(localpart: string, origin: PublicOrigin, nowSeconds: number): SfuServerConfig {
    return {
      url: `${origin.websocket}/relay`,
      password: signToken(this.settings.tokenSecret, {
        sub: localpart,
        aud: RELAY_TOKEN_AUDIENCE,
        iat: nowSeconds,
        exp: nowSeconds + this.settings.credentialTtlSeconds,
      }),
      minimumPeers: this.settings.relayMinimumPeers,
    };
  }

  /** Room config: Bearer credential required; the name becomes a MUC address. */
  roomConfig(authorization: string | undefined, rawBody: string): RoomConfigResponse {
    const bearer = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!bearer) throw new HttpError(401, 'a Bearer credential is required');
    try {
      // The relay's token (it carries an audience) is not a credential for this API.
      if (verifyToken(this.settings.tokenSecret, bearer).aud !== undefined) throw new TokenError('token is for another audience');
    } catch (error) {
      throw new HttpError(401, error instanceof TokenError ? `credential refused: ${error.message}` : 'credential refused');
    }
    const body = expectRecord(parseJson(rawBody, 'request body', LIMITS.httpBodyBytes), 'request body');
    // The body bounds its size; roomNameToLocalpart counts its characters and says why it refuses one.
    const name = expectString(body.name, 'name', LIMITS.httpBodyBytes);
    return { roomAddress: `${roomNameToLocalpart(name)}@${this.settings.mucDomain}` };
  }

  /** A user's own token (signed by the product backend) names the user (`sub`) and carries customerData; without a secret, tokens are ignored. */
  private userClaims(
    token: string | undefined,
    nowSeconds: number,
  ): { subject: string; customerData?: Record<string, unknown>; displayName?: unknown } | undefined {
    if (!token || !this.settings.userTokenSecret) return undefined;
    let claims: TokenClaims;
    try {
      claims = verifyToken(this.settings.userTokenSecret, token, nowSeconds);
    } catch (error) {
      throw new HttpError(401, `user token refused: ${(error as Error).message}`);
    }
    if (typeof claims.sub !== 'string' || claims.sub === '') throw new HttpError(401, 'user token refused: it names no user (no "sub")');
    const customerData = claims.customerData === undefined ? undefined : expectRecord(claims.customerData, 'token customerData');
    if (customerData && customerDataTooLarge(JSON.stringify(customerData))) {
      throw new ValidationError(`token customerData is larger than ${LIMITS.customerDataBytes} bytes`);
    }
    return { subject: claims.sub, customerData, displayName: claims.displayName };
  }
}
