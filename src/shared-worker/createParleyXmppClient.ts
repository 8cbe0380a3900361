import { Client, JXT, type Agent, type AgentConfig } from 'stanza';
import { parleyStanzas } from '../protocol/stanzas';
import { PARLEY_CAPS_NODE } from '../protocol/stanzas/namespaces';
import { STANZAJS_DEFINITIONS } from '../protocol/stanzas/stanzaJsDefinitions';
import parleyPlugins from './stanzaPlugins';
import { WebSocketTransport } from './WebSocketTransport';

/** A StanzaJS client that speaks Parley's wire extensions and knows only the XEPs and plugins Parley uses. */
export function createParleyXmppClient(config: AgentConfig): Agent {
  // StanzaJS's createClient, with Parley's plugins instead of all of StanzaJS's (stanzaPlugins.ts).
  const client = withParleyDefinitions(() => new Client(config) as unknown as Agent);
  client.use(parleyPlugins);
  client.use(parleyStanzas);
  // Every feature is registered by now: the capabilities its room presences carry (PresenceSender).
  client.disco.updateCaps(PARLEY_CAPS_NODE);
  // StanzaJS types this table with another StreamManagement than its transports take; its own entry is the same class.
  client.transports.websocket = WebSocketTransport as unknown as Agent['transports'][string];
  forgetUnansweredRequests(client);
  return client;
}

/**
 * StanzaJS's `sendIQ` listens for a request's answer until it comes. One that never comes (a peer
 * gone without a word, a tab that dropped it) rejects after the client's timeout, yet its listener —
 * and the request it holds, a whole offer at times — stayed for the life of the client: a leak with
 * every unanswered request of a long session. Here a request that times out stops listening.
 */
function forgetUnansweredRequests(client: Agent): void {
  const sendIQ = client.sendIQ.bind(client);
  client.sendIQ = (async (iq: Parameters<Agent['sendIQ']>[0]) => {
    const id = iq.id ?? client.nextId();
    try {
      return await sendIQ({ ...iq, id });
    } catch (error) {
      // StanzaJS's own answer to a request timed out: an error IQ whose condition is not XMPP's.
      if ((error as { error?: { condition?: string } } | undefined)?.error?.condition === 'timeout') client.removeAllListeners(`iq:id:${id}`);
      throw error;
    }
  }) as Agent['sendIQ'];
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
