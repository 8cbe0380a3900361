// PROTOCOL.md JSON commands: a malformed `<json>` from the wire is read as malformed by StanzaJS's real
// parser instead of breaking the stream, for every client that uses Parley's stanza plugin.
import { createClient, JXT, type Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import { parleyStanzas } from '../../src/protocol/stanzas';
import { MALFORMED_JSON } from '../../src/protocol/stanzas/tolerantJson';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';

describe('PROTOCOL.md JSON commands: a malformed <json> from the wire is refused, not fatal', () => {
  const xml = (json: string): string =>
    `<message xmlns='jabber:client' type='groupchat' from='r@m/x'><payload xmlns='urn:xmpp:json-msg:0' datatype='t'><json xmlns='urn:xmpp:json:0'>${json}</json></payload><json xmlns='urn:xmpp:json:0'>${json}</json></message>`;

  function expectTolerant(client: Agent): void {
    expect(client.stanzas.import(JXT.parse(xml('{bad')))).toMatchObject({ jsonPayloads: [{ type: 't', data: MALFORMED_JSON }], json: MALFORMED_JSON });
    expect(client.stanzas.import(JXT.parse(xml('{"a":[1]}')))).toMatchObject({ jsonPayloads: [{ type: 't', data: { a: [1] } }], json: { a: [1] } });
    const written = client.stanzas.export('message', { to: 'r@m', jsonPayloads: [{ type: 't', data: { a: 1 } }] })!.toString();
    expect(written).toContain(`<payload xmlns="urn:xmpp:json-msg:0" datatype="t"><json xmlns="urn:xmpp:json:0">{"a":1}</json></payload>`);
  }

  it("throws in StanzaJS's own parser (which would stop a client's stream)", () => {
    const plain = createClient({});
    expect(() => plain.stanzas.import(JXT.parse(xml('{bad')))).toThrow(SyntaxError);
  });

  it('reads as MALFORMED_JSON with parleyStanzas alone, while good JSON still reads and writes', () => {
    const client = createClient({});
    client.use(parleyStanzas);
    expectTolerant(client);
  });

  it('is so for every Parley client (createParleyXmppClient)', () => {
    expectTolerant(createParleyXmppClient({}));
  });
});
