// Our own unavailable presence from a room (PROTOCOL.md "Rooms": kick, destroy), as Prosody 0.12
// sends it, parsed by the StanzaJS client Parley uses.
import { JXT, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { mucInfoOf } from '../../src/shared-worker/rooms/mucStatus';
import { newRoomRecord } from '../../src/shared-worker/rooms/roomRecord';
import { selfRemovalChange, selfRemovalOf } from '../../src/shared-worker/rooms/selfRemoval';
import { roomEndOf } from '../../src/ui/roomEnd';
import { roomEventText } from '../../src/ui/roomEventText';

const registry = createParleyXmppClient({}).stanzas;

function selfUnavailable(x: string): Stanzas.MUCInfo | undefined {
  const xml = `<presence xmlns='jabber:client' type='unavailable' from='room@rooms.example/me' to='u@example/me'>
    <x xmlns='http://jabber.org/protocol/muc#user'>${x}<status code='110'/></x></presence>`;
  return mucInfoOf(registry.import(JXT.parse(xml)) as Stanzas.Presence);
}

describe('Self-unavailable: why the room removed us', () => {
  it('status 301 is a ban (SPEC §6 kick: affiliation outcast)', () => {
    const info = selfUnavailable(`<status code='301'/><item role='none' affiliation='outcast' jid='u@example/me'><actor nick='owner'/></item>`);
    expect(selfRemovalOf(info)).toEqual({ kind: 'banned', reason: undefined });
  });

  it('status 307 is a kick (role none)', () => {
    expect(selfRemovalOf(selfUnavailable(`<status code='307'/><item role='none' affiliation='none'/>`))).toEqual({ kind: 'kicked', reason: undefined });
  });

  it('a moderator’s kick or ban reason (XEP-0045 <item><reason>) is read, bounded, and said after what they did', () => {
    const kick = selfUnavailable(`<status code='307'/><item role='none' affiliation='none'><actor nick='mod'/><reason>spamming links</reason></item>`);
    expect(selfRemovalOf(kick)).toEqual({ kind: 'kicked', reason: 'spamming links' });
    expect(selfRemovalChange({ kind: 'kicked', reason: 'spamming links' })).toMatchObject({ roomState: 'failed', error: 'Kicked from the room: spamming links', removal: { kind: 'kicked', reason: 'spamming links' } });

    const ban = selfUnavailable(`<status code='301'/><item role='none' affiliation='outcast'><reason>spamming links</reason></item>`);
    expect(selfRemovalOf(ban)).toEqual({ kind: 'banned', reason: 'spamming links' });
    expect(selfRemovalChange({ kind: 'banned', reason: 'spamming links' })).toMatchObject({ roomState: 'banned', error: 'Banned from the room: spamming links', removal: { kind: 'banned', reason: 'spamming links' } });

    const long = selfRemovalOf(selfUnavailable(`<status code='307'/><item role='none' affiliation='none'><reason>${'x'.repeat(10_000)}</reason></item>`));
    expect(long).toEqual({ kind: 'kicked', reason: 'x'.repeat(LIMITS.reasonLength) });
  });

  it('the removed person’s screen and the others’ event line carry the reason', () => {
    expect(roomEndOf({ ...newRoomRecord('r', 'Room'), roomState: 'failed', removal: { kind: 'kicked', reason: 'spamming links' } })).toEqual({ kind: 'removed', reason: 'spamming links' });
    expect(roomEndOf({ ...newRoomRecord('r', 'Room'), roomState: 'banned', removal: { kind: 'banned', reason: 'spamming links' } })).toEqual({ kind: 'banned', whileIn: true, reason: 'spamming links' });
    const line = { id: 'e', roomAddress: 'room@rooms.example', displayName: 'Bob', peerAddress: 'room@rooms.example/bob', time: 0, reason: 'spamming links' };
    expect(roomEventText({ ...line, kind: 'kicked' })).toBe('Bob was removed from the room (“spamming links”)');
    expect(roomEventText({ ...line, kind: 'banned' })).toBe('Bob was removed and banned from the room (“spamming links”)');
  });

  it('a kick or ban with no reason (Parley’s own kick sends none) reads as before', () => {
    expect(selfRemovalChange({ kind: 'kicked', reason: undefined })).toMatchObject({ error: 'Kicked from the room', removal: { kind: 'kicked' } });
    expect(selfRemovalChange({ kind: 'banned', reason: undefined })).toMatchObject({ error: 'Banned from the room', removal: { kind: 'banned' } });
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

  it('anything else (e.g. 321, membership lost) is a removal with its codes', () => {
    expect(selfRemovalOf(selfUnavailable(`<status code='321'/>`))).toEqual({ kind: 'removed', codes: ['321', '110'] });
  });
});
