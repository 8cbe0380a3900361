import { Client, JXT, type Agent, type AgentConfig } from 'stanza';
import { parleyStanzas } from '../protocol/stanzas';
import { STANZAJS_DEFINITIONS } from '../protocol/stanzas/stanzaJsDefinitions';
import parleyPlugins from './stanzaPlugins';
import { WebSocketTransport } from './WebSocketTransport';

/** A StanzaJS client that speaks Parley's wire extensions and knows only the XEPs and plugins Parley uses. */
export function createParleyXmppClient(config: AgentConfig): Agent {
  // StanzaJS's createClient, with Parley's plugins instead of all of StanzaJS's (stanzaPlugins.ts).
  const client = withParleyDefinitions(() => new Client(config) as unknown as Agent);
  client.use(parleyPlugins);
  client.use(parleyStanzas);
  // StanzaJS types this table with another StreamManagement than its transports take; its own entry is the same class.
  client.transports.websocket = WebSocketTransport as unknown as Agent['transports'][string];
  return client;
}

/**
 * StanzaJS's client registers the definitions of every XEP it knows as it is constructed: 80–110 ms
 * of the shared worker's thread on this machine, between the config's answer and the websocket
 * (issue 14, the join path). It takes no option for that, so its constructor's one registration
 * (the first `define` on its new registry; its plugins define nothing) registers
 * `STANZAJS_DEFINITIONS` instead, during that synchronous construction only.
 */
function withParleyDefinitions(construct: () => Agent): Agent {
  const registry = JXT.Registry.prototype;
  const define = registry.define;
  registry.define = function defineParleyDefinitions(this: JXT.Registry) {
    registry.define = define;
    define.call(this, [...STANZAJS_DEFINITIONS]);
  };
  try {
    return construct();
  } finally {
    registry.define = define;
  }
}
