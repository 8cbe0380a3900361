import { STANZAJS_DEFINITIONS } from '../protocol/stanzas/stanzaJsDefinitions';

/**
 * StanzaJS's protocol index as the shared worker's build sees it (`vite.config.ts`,
 * `workerStanzaModules`): the definitions Parley's wire uses, and not the other 48 modules'
 * code, which StanzaJS's index would bring into the worker and run as it loads. Its client
 * registers this list as it is constructed; `createParleyXmppClient` makes sure of that where the
 * index is StanzaJS's own (Node, the tests).
 */
export default STANZAJS_DEFINITIONS;
