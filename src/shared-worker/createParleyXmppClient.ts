import { createClient, type Agent, type AgentConfig } from 'stanza';
import { parleyStanzas } from '../protocol/stanzas';

/** A StanzaJS client that speaks Parley's wire extensions. */
export function createParleyXmppClient(config: AgentConfig): Agent {
  const client = createClient(config);
  client.use(parleyStanzas);
  return client;
}
