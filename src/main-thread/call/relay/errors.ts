import { ParleyError } from '../../../protocol/errors';

/** The relay's websocket could not be opened, or AUTH was refused: the call stays on mesh and tries again later. */
export class RelayConnectError extends ParleyError {
  override readonly name = 'RelayConnectError';
  constructor(url: string, cause: string) {
    super(`media relay at ${url} not reachable: ${cause}`);
  }
}

/** The relay's websocket closed (or was closed): its pending requests fail with this. */
export class RelayClosedError extends ParleyError {
  override readonly name = 'RelayClosedError';
  constructor(readonly closeCode: number, reason: string) {
    super(`media relay connection closed (${closeCode}${reason ? `: ${reason}` : ''})`);
  }
}

/** A relay request got no reply in time. */
export class RelayTimeoutError extends ParleyError {
  override readonly name = 'RelayTimeoutError';
  constructor(method: string, timeoutMs: number) {
    super(`media relay did not answer ${method} within ${timeoutMs} ms`);
  }
}

/** A message from the relay that is not JSON-RPC we can read (it is dropped; the connection goes on). */
export class RelayProtocolError extends ParleyError {
  override readonly name = 'RelayProtocolError';
}

/** mediasoup-client could not ingest a local stream (device, transport or producer). */
export class RelayIngestError extends ParleyError {
  override readonly name = 'RelayIngestError';
  constructor(streamId: string, cause: unknown) {
    super(`stream ${streamId} not ingested into the media relay: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}
