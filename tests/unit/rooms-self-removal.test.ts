// Our own unavailable presence from a room (PROTOCOL.md "Rooms": kick, destroy), as Prosody 0.12
// sends it, parsed by the StanzaJS client Parley uses.
import { JXT, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { mucInfoOf } from '../../src/shared-worker/rooms/mucStatus';
import { selfRemovalChange, selfRemovalOf } from '../../src/shared-worker/rooms/selfRemoval';

const registry = createParleyXmppClient({}).stanzas;

function selfUnavailable(x: string): Stanzas.MUCInfo | undefined {
  const xml = `<presence xmlns='jabber:client' type='unavailable' from='room@rooms.example/me' to='u@example/me'>
    <x xmlns='http://jabber.org/protocol/muc#user'>${x}<status code='110'/></x></presence>`;
  return mucInfoOf(registry.import(JXT.parse(xml)) as Stanzas.Presence);
}

describe('Self-unavailable: why the room removed us', () => {
  it('status 301 is a ban (SPEC §6 kick: affiliation outcast)', () => {
    const info = selfUnavailable(`<status code='301'/><item role='none' affiliation='outcast' jid='u@example/me'><actor nick='owner'/></item>`);
    expect(selfRemovalOf(info)).toEqual({ kind: 'banned' });
  });

  it('status 307 is a kick (role none)', () => {
    expect(selfRemovalOf(selfUnavailable(`<status code='307'/><item role='none' affiliation='none'/>`))).toEqual({ kind: 'kicked' });
  });

  it('a destroy carries the alternate venue, its password and the reason (SPEC §4 destroyed room)', () => {
    const info = selfUnavailable(`<destroy jid='elsewhere@rooms.example'><reason>moving</reason><password>pw</password></destroy><item role='none' affiliation='owner'/>`);
    expect(selfRemovalOf(info)).toEqual({ kind: 'destroyed', alternate: 'elsewhere@rooms.example', password: 'pw', reason: 'moving', byYou: false });
  });

  it('a destroy without a venue, or with one that is not a room address, has no alternate', () => {
    expect(selfRemovalOf(selfUnavailable(`<destroy/>`))).toEqual({ kind: 'destroyed', alternate: undefined, password: undefined, reason: undefined, byYou: false });
    for (const jid of ['rooms.example', 'room@rooms.example/nick', 'a b@rooms.example', 'x'.repeat(5000) + '@rooms.example']) {
      const removal = selfRemovalOf(selfUnavailable(`<destroy jid='${jid}'/>`));
      expect(removal).toMatchObject({ kind: 'destroyed', alternate: undefined });
    }
  });

  it('drops an over-long destroy password', () => {
    const removal = selfRemovalOf(selfUnavailable(`<destroy jid='e@rooms.example'><password>${'p'.repeat(5000)}</password></destroy>`));
    expect(removal).toMatchObject({ kind: 'destroyed', alternate: 'e@rooms.example', password: undefined });
  });

  it('status 303 is a nick change, not a removal', () => {
    expect(selfRemovalOf(selfUnavailable(`<status code='303'/><item nick='new' role='participant' affiliation='none'/>`))).toEqual({ kind: 'renamed' });
  });

  it("status 332 is the room's service going away, not a removal of us (issue 16: its cluster node died)", () => {
    const info = selfUnavailable(`<status code='332'/><item role='none' affiliation='none'><reason>The room's server went away</reason></item>`);
    expect(selfRemovalOf(info)).toEqual({ kind: 'serviceShutdown' });
  });

  it('a 332 that comes before our rejoin completed leaves the room failed, saying so', () => {
    expect(selfRemovalChange({ kind: 'serviceShutdown' })).toMatchObject({ roomState: 'failed', joined: false, error: 'The room stopped on its server before you were back in' });
  });

  it('anything else (e.g. 321, membership lost) is a removal with its codes', () => {
    expect(selfRemovalOf(selfUnavailable(`<status code='321'/>`))).toEqual({ kind: 'removed', codes: ['321', '110'] });
  });
});
