import { ParleyError } from '../../protocol/errors';

/** A chat command that needs the signalling session while it is not connected. */
export class NotConnectedError extends ParleyError {
  override readonly name = 'NotConnectedError';
  constructor() {
    super('Not connected');
  }
}
