import { RELAY_ERROR, RelayRpcError } from '../../src/protocol/relay';

/** The relay's failures, each with the JSON-RPC code it is answered with (src/protocol/relay.ts). */

export class NotAuthenticatedError extends RelayRpcError {
  override readonly name = 'NotAuthenticatedError';
  constructor(message: string) {
    super(RELAY_ERROR.notAuthenticated, message);
  }
}

export class NotFoundError extends RelayRpcError {
  override readonly name = 'NotFoundError';
  constructor(message: string) {
    super(RELAY_ERROR.notFound, message);
  }
}

export class ConflictError extends RelayRpcError {
  override readonly name = 'ConflictError';
  constructor(message: string) {
    super(RELAY_ERROR.conflict, message);
  }
}

export class LimitExceededError extends RelayRpcError {
  override readonly name = 'LimitExceededError';
  constructor(message: string) {
    super(RELAY_ERROR.limitExceeded, message);
  }
}

export class RateLimitedError extends RelayRpcError {
  override readonly name = 'RateLimitedError';
  constructor(message: string) {
    super(RELAY_ERROR.rateLimited, message);
  }
}

/** An SDP the relay cannot use: a client error, answered as invalid params. */
export class SdpError extends RelayRpcError {
  override readonly name = 'SdpError';
  constructor(message: string) {
    super(RELAY_ERROR.invalidParams, `sdp: ${message}`);
  }
}

/** Parameters that passed the wire's shape check but not mediasoup's own validation. */
class InvalidParamsError extends RelayRpcError {
  override readonly name = 'InvalidParamsError';
  constructor(message: string) {
    super(RELAY_ERROR.invalidParams, message);
  }
}

/** mediasoup refused an operation (unsupported codec, bad parameters): a client error too. */
export class MediaError extends RelayRpcError {
  override readonly name = 'MediaError';
  constructor(message: string) {
    super(RELAY_ERROR.mediaError, message);
  }
}

/**
 * Runs a mediasoup call on client-supplied parameters: mediasoup's TypeError (malformed) and
 * UnsupportedError (e.g. a codec no router has) are the client's errors, answered with their message.
 */
export async function asClientError<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TypeError) throw new InvalidParamsError(`${what}: ${error.message}`);
    if (error instanceof Error && error.name === 'UnsupportedError') throw new MediaError(`${what}: ${error.message}`);
    throw error;
  }
}
