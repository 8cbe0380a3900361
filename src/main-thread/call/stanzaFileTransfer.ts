/**
 * What the page build gives StanzaJS's Jingle in place of its file-transfer session
 * (`vite.config.ts`, `tabStanzaModules`): the tab never starts one, and an incoming session that is
 * not RTP gets StanzaJS's base session, which can only be ended (`IncomingSessions.prepare`). It
 * would cost 1.8 KB of gzip on the call page's way to its first frame (issue 14, the bundles).
 */
export default class FileTransferSession {
  constructor() {
    throw new Error("StanzaJS's file-transfer session is not in Parley's page build");
  }
}
