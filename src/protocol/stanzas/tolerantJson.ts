import { JXT, Namespaces } from 'stanza';

/**
 * StanzaJS parses `<json xmlns='urn:xmpp:json:0'>` text with a bare JSON.parse inside its stream
 * parser: one malformed payload from any occupant throws there, uncaught, and the client's stream
 * stops processing stanzas for good. These definitions replace the JSON field importers with ones
 * that read malformed JSON as MALFORMED_JSON (which the chat domain refuses), and keep StanzaJS's
 * exporters. Part of `parleyStanzas`, so every Parley client has them; being defined after
 * StanzaJS's own (which its client constructor registers), they override its importers.
 */
/** What a `<json>` element whose text is not JSON reads as. */
export const MALFORMED_JSON: Readonly<Record<string, never>> = Object.freeze({});

function tolerant(field: JXT.FieldDefinition<unknown>): JXT.FieldDefinition<unknown> {
  return {
    ...field,
    importer(xml, context) {
      try {
        return field.importer(xml, context);
      } catch {
        return MALFORMED_JSON;
      }
    },
  };
}

export const tolerantJsonDefinitions: JXT.DefinitionOptions[] = [
  // XEP-0432 payloads (PROTOCOL.md JSON commands): `message.jsonPayloads[].data`.
  {
    aliases: [{ path: 'message.jsonPayloads', multiple: true }],
    element: 'payload',
    namespace: Namespaces.NS_JSON_MESSAGE_0,
    fields: { data: tolerant(JXT.childJSON(Namespaces.NS_JSON_0, 'json')) },
  },
  // XEP-0335 container directly in a message: `message.json`.
  JXT.extendMessage({ json: tolerant(JXT.childJSON(Namespaces.NS_JSON_0, 'json')) }),
  // XEP-0335 container as a pubsub item (PEP notifications).
  {
    aliases: JXT.pubsubItemContentAliases(),
    element: 'json',
    namespace: Namespaces.NS_JSON_0,
    type: Namespaces.NS_JSON_0,
    fields: { json: tolerant(JXT.textJSON() as JXT.FieldDefinition<unknown>) },
  },
];
