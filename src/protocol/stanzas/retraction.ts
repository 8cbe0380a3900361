import { JXT, type Stanzas } from 'stanza';
import { NS_FALLBACK, NS_FASTEN, NS_RETRACT, NS_RETRACT_EARLIER } from './namespaces';

/** XEP-0424: `<retract xmlns='urn:xmpp:message-retract:1' id/>`, its sender taking back the message of that id. */
export interface Retraction {
  id?: string;
}

/**
 * XEP-0424 before 0.4 (still sent by some XMPP apps): `<apply-to xmlns='urn:xmpp:fasten:0' id>`
 * (XEP-0422) holding `<retract xmlns='urn:xmpp:message-retract:0'/>`.
 */
export interface FastenedRetraction {
  id?: string;
  retract?: boolean;
}

/** XEP-0428: `<fallback xmlns='urn:xmpp:fallback:0' for/>`, saying the body is only for apps that cannot read the element `for` names. */
export interface Fallback {
  for?: string;
}

declare module 'stanza' {
  namespace Stanzas {
    interface Message {
      retraction?: Retraction;
      fastened?: FastenedRetraction;
      fallback?: Fallback;
    }
  }
}

export const retractionDefinitions: JXT.DefinitionOptions[] = [
  { element: 'retract', namespace: NS_RETRACT, path: 'message.retraction', fields: { id: JXT.attribute('id') } },
  { element: 'apply-to', namespace: NS_FASTEN, path: 'message.fastened', fields: { id: JXT.attribute('id'), retract: JXT.childBoolean(NS_RETRACT_EARLIER, 'retract') } },
  { element: 'fallback', namespace: NS_FALLBACK, path: 'message.fallback', fields: { for: JXT.attribute('for') } },
];

/**
 * A retraction of ours as the wire carries it: the element, and for apps that cannot read it a body
 * that says so (an action, "/me deleted a message", as XEP-0424's own example words it) marked as
 * that element's fallback, to be stored in the room's history with the message it takes back.
 */
export function retractionOf(stanzaId: string): Pick<Stanzas.Message, 'retraction' | 'fallback' | 'body' | 'processingHints'> {
  return { retraction: { id: stanzaId }, fallback: { for: NS_RETRACT }, body: '/me deleted a message', processingHints: { store: true } };
}

/** The id of the message a stanza retracts (either form), if it retracts one; unchecked. */
export function retractedId(message: { retraction?: Retraction; fastened?: FastenedRetraction }): string | undefined {
  if (message.retraction) return message.retraction.id ?? '';
  if (message.fastened?.retract) return message.fastened.id ?? '';
  return undefined;
}
