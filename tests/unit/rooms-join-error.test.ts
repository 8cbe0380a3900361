// SPEC §4 room state / §8 join failures, mapped from error presences as Prosody (or any MUC) sends
// them, parsed by the StanzaJS client Parley uses.
import { JXT, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { joinErrorChange } from '../../src/shared-worker/rooms/joinError';

const registry = createParleyXmppClient({}).stanzas;

/** An error presence answering a join to room@rooms.example/nick. */
function refusal(condition: string, type = 'cancel', text?: string): Stanzas.Presence {
  const xml = `<presence xmlns='jabber:client' from='room@rooms.example/nick' to='u@example/r' type='error'>
    <x xmlns='http://jabber.org/protocol/muc'/>
    <error type='${type}' by='room@rooms.example'><${condition} xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>${
      text ? `<text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>${text}</text>` : ''
    }</error></presence>`;
  return registry.import(JXT.parse(xml)) as Stanzas.Presence;
}

describe('SPEC §8 join failures map to SPEC §4 room states', () => {
  it('forbidden means banned', () => {
    expect(joinErrorChange(refusal('forbidden', 'auth'))).toEqual({ roomState: 'banned', joined: false, banned: true, error: 'join refused: forbidden' });
  });

  it('not-authorized means password required', () => {
    expect(joinErrorChange(refusal('not-authorized', 'auth'))).toEqual({
      roomState: 'password-required',
      joined: false,
      passwordRequired: true,
      error: 'join refused: not-authorized',
    });
  });

  it('service-unavailable means room full (state failed)', () => {
    expect(joinErrorChange(refusal('service-unavailable', 'cancel', 'The room is full'))).toEqual({
      roomState: 'failed',
      joined: false,
      roomFull: true,
      error: 'join refused: service-unavailable (The room is full)',
    });
  });

  it('recipient-unavailable means the room has not started: waiting', () => {
    expect(joinErrorChange(refusal('recipient-unavailable', 'wait'))).toEqual({
      roomState: 'waiting',
      joined: false,
      roomNotStarted: true,
      error: 'join refused: recipient-unavailable',
    });
  });

  it('anything else fails the join, with none of the specific flags', () => {
    for (const condition of ['conflict', 'registration-required', 'item-not-found', 'not-allowed']) {
      const change = joinErrorChange(refusal(condition));
      expect(change).toEqual({ roomState: 'failed', joined: false, error: `join refused: ${condition}` });
    }
  });

  it('bounds the text it keeps from the wire', () => {
    const change = joinErrorChange(refusal('not-allowed', 'cancel', 'x'.repeat(10_000)));
    expect(change.error!.length).toBeLessThan(300);
  });
});
