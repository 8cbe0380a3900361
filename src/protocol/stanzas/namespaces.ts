/** PROTOCOL.md "XMPP namespaces": the extensions Parley adds to StanzaJS's own. */
export const NS_TALKY_CORE = 'https://talky.io/ns/core';
export const NS_MMUC = 'http://andyet.net/xmlns/mmuc';
