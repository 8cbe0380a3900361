/** The XMPP server could not be started: not installed, bad options, or it did not come up. */
export class XmppServerStartError extends Error {
  override readonly name = 'XmppServerStartError';
}
