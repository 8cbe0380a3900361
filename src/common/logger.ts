/**
 * Where a thread's log lines go. `Code` is the set of documented error codes this logger accepts
 * (SPEC §8's ESWRTC codes for the session); a coded error is logged with a link to its documentation.
 */
export interface Logger<Code extends string = string> {
  info(message: string): void;
  error(message: string, code?: Code): void;
}

/** Logs to the console under `prefix`; `documentationOf` turns an error code into its documentation link. */
export function consoleLogger<Code extends string = string>(prefix: string, documentationOf?: (code: Code) => string): Logger<Code> {
  return {
    info: (message) => console.info(prefix, message),
    error: (message, code) => console.error(prefix, code ? `${code}: ${message}${documentationOf ? ` (${documentationOf(code)})` : ''}` : message),
  };
}
