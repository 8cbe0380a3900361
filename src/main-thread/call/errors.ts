import { ParleyError } from '../../protocol/errors';

/** SPEC §4/§8: a session ended with an error condition; logged, and its peer flagged sessionFailed. */
export class SessionFailedError extends ParleyError {
  override readonly name = 'SessionFailedError';
  constructor(
    readonly sid: string,
    readonly peerAddress: string,
    readonly condition: string,
    readonly text: string | undefined,
    /** The session brought the peer's media to us (they started it): only one that does can show they are back. */
    readonly bringingTheirMedia = false,
  ) {
    super(`Jingle session ${sid} with ${peerAddress} ended: ${condition}${text ? ` (${text})` : ''}`);
  }
}

/** A Jingle request could not reach the peer for another reason than the peer's error answer (e.g. no connection). */
export class JingleSendError extends ParleyError {
  override readonly name = 'JingleSendError';
  constructor(action: string | undefined, cause: unknown) {
    super(`Jingle ${action ?? 'answer'} not sent: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The call was used after `close()`. */
export class CallClosedError extends ParleyError {
  override readonly name = 'CallClosedError';
  constructor(roomAddress: string) {
    super(`the call of ${roomAddress} is closed`);
  }
}

/** This browser cannot run a call (SPEC §4: the call is joined only where real-time media is supported). */
export class CallUnsupportedError extends ParleyError {
  override readonly name = 'CallUnsupportedError';
  constructor(missing: string) {
    super(`calls need ${missing}, which this browser does not have`);
  }
}
