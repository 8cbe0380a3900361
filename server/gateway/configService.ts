import { randomUUID } from 'node:crypto';
import type { ProviderConfig, RoomConfigResponse, SfuServerConfig } from '../../src/protocol/config';
import { LIMITS } from '../../src/protocol/constants';
import { RELAY_TOKEN_AUDIENCE } from '../../src/protocol/relay';
import { ValidationError } from '../../src/protocol/errors';
import { roomNameToLocalpart } from '../../src/protocol/rooms';
import { expectRecord, expectString, optionalString, parseJson } from '../../src/protocol/validate';
import { signToken, TokenError, verifyToken, type TokenClaims } from '../auth/jwt';
import type { ParleySettings } from '../settings';
import { HttpError } from './errors';

const API_VERSION = '1';

/** The URLs a config points the client at, derived from the origin the browser reached. */
export interface PublicOrigin {
  http: string;
  websocket: string;
}

/** Issues configs and room addresses (SPEC §7, PROTOCOL.md "HTTP"). */
export class ConfigService {
  constructor(private readonly settings: ParleySettings) {}

  issueConfig(rawBody: string, origin: PublicOrigin, nowSeconds = Math.floor(Date.now() / 1000)): ProviderConfig {
    const body = expectRecord(parseJson(rawBody, 'request body', LIMITS.httpBodyBytes), 'request body');
    expectString(body.clientVersion, 'clientVersion', 64);
    const userToken = optionalString(body.token, 'token', 8192);
    const user = this.userClaims(userToken, nowSeconds);
    const localpart = randomUUID();
    const id = randomUUID();
    const customerData = user?.customerData;
    const displayName = typeof user?.displayName === 'string' ? user.displayName.slice(0, LIMITS.displayNameLength) : undefined;
    const credential = signToken(this.settings.tokenSecret, {
      sub: localpart,
      jid: `${localpart}@${this.settings.xmppDomain}`,
      iat: nowSeconds,
      exp: nowSeconds + this.settings.credentialTtlSeconds,
      type: user ? 'registered' : 'guest',
      ...(customerData ? { customerData } : {}),
    });
    return {
      apiVersion: API_VERSION,
      credential,
      customerData,
      iceServers: this.settings.iceServers as RTCIceServer[],
      id,
      orgId: '',
      roomConfigUrl: `${origin.http}/api/room-config`,
      screensharingExtensions: {},
      signalingUrl: `${origin.websocket}/xmpp-websocket`,
      telemetryUrl: '',
      userId: `${localpart}@${this.settings.xmppDomain}`,
      sfuServer: this.settings.relayWorkers > 0 ? this.sfuServer(localpart, origin, nowSeconds) : undefined,
      displayName,
      videoResolutionTiers: { ...this.settings.videoResolutionTiers },
    };
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

  /** A user's own token (signed by the product backend) carries customerData; without a secret, tokens are ignored. */
  private userClaims(token: string | undefined, nowSeconds: number): { customerData?: Record<string, unknown>; displayName?: unknown } | undefined {
    if (!token || !this.settings.userTokenSecret) return undefined;
    let claims: TokenClaims;
    try {
      claims = verifyToken(this.settings.userTokenSecret, token, nowSeconds);
    } catch (error) {
      throw new HttpError(401, `user token refused: ${(error as Error).message}`);
    }
    const customerData = claims.customerData === undefined ? undefined : expectRecord(claims.customerData, 'token customerData');
    if (customerData && JSON.stringify(customerData).length > LIMITS.customerDataBytes) {
      throw new ValidationError(`token customerData is larger than ${LIMITS.customerDataBytes} bytes`);
    }
    return { customerData, displayName: claims.displayName };
  }
}
