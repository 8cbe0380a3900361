/** SPEC §8: the error codes the spec logs, each with its documentation pointer. */
export type ErrorCode = 'ESWRTC_001' | 'ESWRTC_002' | 'ESWRTC_003' | 'ESWRTC_004';

const DOCS_BASE_URL = 'https://docs.simplewebrtc.com/#/ErrorCodes';

export function docsLink(code: ErrorCode): string {
  return `${DOCS_BASE_URL}?id=${code.toLowerCase()}`;
}

/** An error the spec names, carrying its code and log text. */
export class ParleyError extends Error {
  override readonly name: string = 'ParleyError';
  constructor(
    message: string,
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

/** SPEC §7: the config request failed (non-ok status, or retries exhausted). */
export class ConfigRequestError extends ParleyError {
  override readonly name = 'ConfigRequestError';
}

/** SPEC §7: the room config request failed. */
export class RoomConfigRequestError extends ParleyError {
  override readonly name = 'RoomConfigRequestError';
}

/** SPEC §5: joining without a room name. */
export class RoomNameMissingError extends ParleyError {
  override readonly name = 'RoomNameMissingError';
  constructor() {
    super('Room name not provided.', 'ESWRTC_004');
  }
}

/** SPEC §5: room config reads while not joined. */
export class RoomNotJoinedError extends ParleyError {
  override readonly name = 'RoomNotJoinedError';
  constructor() {
    super('Room not joined');
  }
}

/** A command that needs the signalling session while it is not connected. */
export class NotConnectedError extends ParleyError {
  override readonly name = 'NotConnectedError';
  constructor() {
    super('Not connected');
  }
}

/** A request for the call's tab while no tab of yours runs the room's call (none claims it, or you are not in it). */
export class CallNotRunningError extends ParleyError {
  override readonly name = 'CallNotRunningError';
  constructor() {
    super('No tab of yours runs this call');
  }
}

/** SPEC §6: the room refused a moderation request (only an owner may; the server decides). */
export class ModerationRefusedError extends ParleyError {
  override readonly name = 'ModerationRefusedError';
  constructor(
    what: string,
    /** The room's error condition, e.g. 'forbidden'. */
    readonly condition: string,
  ) {
    super(`The room refused to ${what}: ${condition}`);
  }
}

/** Input from the wire or a user that does not match its schema. */
export class ValidationError extends ParleyError {
  override readonly name = 'ValidationError';
}
