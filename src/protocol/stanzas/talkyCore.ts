import { JXT } from 'stanza';
import { NS_TALKY_CORE } from './namespaces';

/**
 * `<user xmlns='https://talky.io/ns/core' sid rid type>customerData JSON</user>`: added by the server
 * to every MUC occupant presence (and possibly to groupchat messages). `sid` is the peer id (equal
 * to the nickname), `rid` a stable id of the room.
 */
export interface TalkyUser {
  sid?: string;
  rid?: string;
  type?: string;
  /** The peer's customerData as JSON text (untrusted: parsed and bounded where it is read). */
  customerData?: string;
}

declare module 'stanza' {
  namespace Stanzas {
    interface Presence {
      talkyUser?: TalkyUser;
    }
    interface Message {
      talkyUser?: TalkyUser;
    }
  }
}

const userFields = {
  sid: JXT.attribute('sid'),
  rid: JXT.attribute('rid'),
  type: JXT.attribute('type'),
  customerData: JXT.text(),
};

export const talkyCoreDefinitions: JXT.DefinitionOptions[] = [
  { element: 'user', namespace: NS_TALKY_CORE, path: 'presence.talkyUser', fields: userFields },
  { element: 'user', namespace: NS_TALKY_CORE, path: 'message.talkyUser', fields: userFields },
];
