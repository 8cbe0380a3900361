/** PROTOCOL.md "XMPP namespaces": the extensions Parley adds to StanzaJS's own; then XEPs StanzaJS does not read. */
export const NS_TALKY_CORE = 'https://talky.io/ns/core';
export const NS_MMUC = 'http://andyet.net/xmlns/mmuc';
/** XEP-0115: the node Parley's presences name their capabilities under (what its app can do, hashed). */
export const PARLEY_CAPS_NODE = 'parley:client';
/** XEP-0424 message retraction, and its form before 0.4 inside XEP-0422's fastening. */
export const NS_RETRACT = 'urn:xmpp:message-retract:1';
export const NS_RETRACT_EARLIER = 'urn:xmpp:message-retract:0';
export const NS_FASTEN = 'urn:xmpp:fasten:0';
/** XEP-0428: a body only for apps that cannot read an element beside it. */
export const NS_FALLBACK = 'urn:xmpp:fallback:0';
/** XEP-0444 message reactions. */
export const NS_REACTIONS = 'urn:xmpp:reactions:0';
