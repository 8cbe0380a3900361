// PROTOCOL.md "Lock": the room config form Parley submits, and reading the secret from the form a
// room returns, on real XML through the StanzaJS client Parley uses.
import { JXT, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { lockForm, roomSecretOf } from '../../src/shared-worker/rooms/roomLockForm';

const registry = createParleyXmppClient({}).stanzas;

function submitted(secret: string): string {
  return registry.export('iq', { type: 'set', to: 'room@rooms.example', muc: { type: 'configure', form: lockForm(secret) } })!.toString();
}

function ownerForm(secretField: string): Stanzas.DataForm | undefined {
  const xml = `<iq xmlns='jabber:client' type='result' from='room@rooms.example' id='1'><query xmlns='http://jabber.org/protocol/muc#owner'>
    <x xmlns='jabber:x:data' type='form'>
      <field type='hidden' var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>
      <field type='list-single' var='muc#roomconfig_whois'><value>moderators</value></field>
      ${secretField}
    </x></query></iq>`;
  const iq = registry.import(JXT.parse(xml)) as Stanzas.IQ;
  return iq.muc?.type === 'configure' ? iq.muc.form : undefined;
}

describe('Lock form (PROTOCOL.md "Lock")', () => {
  it('locks with FORM_TYPE roomconfig, whois=moderators, the secret and passwordprotectedroom=1', () => {
    expect(submitted('hunter2')).toBe(
      '<iq xmlns="jabber:client" type="set" to="room@rooms.example"><query xmlns="http://jabber.org/protocol/muc#owner">' +
        '<x xmlns="jabber:x:data" type="submit">' +
        '<field var="FORM_TYPE" type="hidden"><value>http://jabber.org/protocol/muc#roomconfig</value></field>' +
        '<field var="muc#roomconfig_whois" type="list-single"><value>moderators</value></field>' +
        '<field var="muc#roomconfig_roomsecret" type="text-private"><value>hunter2</value></field>' +
        '<field var="muc#roomconfig_passwordprotectedroom" type="boolean"><value>1</value></field>' +
        '</x></query></iq>',
    );
  });

  it('unlocks with the same form and an empty secret', () => {
    expect(submitted('')).toBe(submitted('hunter2').replace('<value>hunter2</value>', '<value></value>'));
  });

  it('reads the secret from the room config form: empty or absent means unlocked', () => {
    expect(roomSecretOf(ownerForm(`<field type='text-private' var='muc#roomconfig_roomsecret'><value>pw</value></field>`))).toBe('pw');
    expect(roomSecretOf(ownerForm(`<field type='text-private' var='muc#roomconfig_roomsecret'><value/></field>`))).toBeUndefined();
    expect(roomSecretOf(ownerForm(''))).toBeUndefined();
    expect(roomSecretOf(ownerForm(`<field type='text-private' var='muc#roomconfig_roomsecret'><value>${'p'.repeat(5000)}</value></field>`))).toBeUndefined();
  });
});
