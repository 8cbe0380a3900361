import { JXT } from 'stanza';
import { NS_FASTEN, NS_RETRACT, NS_RETRACT_EARLIER } from './namespaces';

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

declare module 'stanza' {
  namespace Stanzas {
    interface Message {
      retraction?: Retraction;
      fastened?: FastenedRetraction;
    }
  }
}

export const retractionDefinitions: JXT.DefinitionOptions[] = [
  { element: 'retract', namespace: NS_RETRACT, path: 'message.retraction', fields: { id: JXT.attribute('id') } },
  { element: 'apply-to', namespace: NS_FASTEN, path: 'message.fastened', fields: { id: JXT.attribute('id'), retract: JXT.childBoolean(NS_RETRACT_EARLIER, 'retract') } },
];

/** The id of the message a stanza retracts (either form), if it retracts one; unchecked. */
export function retractedId(message: { retraction?: Retraction; fastened?: FastenedRetraction }): string | undefined {
  if (message.retraction) return message.retraction.id ?? '';
  if (message.fastened?.retract) return message.fastened.id ?? '';
  return undefined;
}
