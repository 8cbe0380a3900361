import { docsLink, type ErrorCode } from '../protocol/errors';

export interface Logger {
  info(message: string): void;
  error(message: string, code?: ErrorCode): void;
}

/** SPEC §8: coded errors are logged with a pointer to the documentation site. */
export function consoleLogger(prefix = '[parley]'): Logger {
  return {
    info: (message) => console.info(prefix, message),
    error: (message, code) => console.error(prefix, code ? `${code}: ${message} (${docsLink(code)})` : message),
  };
}
