import { JXT } from 'stanza';
import { NS_REACTIONS } from './namespaces';

/**
 * XEP-0444: `<reactions xmlns='urn:xmpp:reactions:0' id><reaction>👍</reaction>…</reactions>`, the
 * whole set of its sender's reactions to the message of that id (none: they took theirs back).
 */
export interface Reactions {
  id?: string;
  reactions?: string[];
}

declare module 'stanza' {
  namespace Stanzas {
    interface Message {
      reactions?: Reactions;
    }
  }
}

export const reactionDefinitions: JXT.DefinitionOptions[] = [
  { element: 'reactions', namespace: NS_REACTIONS, path: 'message.reactions', fields: { id: JXT.attribute('id'), reactions: JXT.multipleChildText(NS_REACTIONS, 'reaction') } },
];
