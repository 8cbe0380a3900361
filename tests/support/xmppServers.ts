import { xmppServerName } from '../../server/settings';

/**
 * The XMPP server a test file runs against: the signalling suites run once per server, the vitest
 * project setting PARLEY_XMPP_SERVER (vitest.config.ts); useParley reads it through the settings.
 */
export const TESTED_XMPP_SERVER = xmppServerName(process.env.PARLEY_XMPP_SERVER);

/** An error line of the server's output: Prosody's log levels are tab-separated, ejabberd's bracketed. */
export function isServerErrorLine(line: string): boolean {
  return /\berror\t|\[(error|critical|alert|emergency)\]/.test(line);
}
