// The one builder of room presences (PROTOCOL.md "Rooms" join, `<conf>` while in the call), checked on
// the XML the StanzaJS client Parley uses puts on the wire.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import type { CallRecord } from '../../src/protocol/entities';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { newCallRecord } from '../../src/shared-worker/rooms/callRecord';
import { buildRoomPresence, roomPresenceKey, type RoomPresenceInput } from '../../src/shared-worker/rooms/roomPresence';

const registry = createParleyXmppClient({}).stanzas;
const occupant = 'room@rooms.example/me';

function wire(input: RoomPresenceInput): string {
  return registry.export('presence', buildRoomPresence(input))!.toString();
}

const inCall: CallRecord = { ...newCallRecord('room@rooms.example'), joined: true, joinedAt: 1, requestingMedia: 'audio' };

describe('Room presence (PROTOCOL.md "Rooms")', () => {
  it('joins with the MUC <x> and the password, the <nick>, and no history request', () => {
    expect(wire({ occupant, displayName: 'Alice', call: undefined, join: { password: 's3cret' } })).toBe(
      '<presence xmlns="jabber:client" to="room@rooms.example/me"><nick xmlns="http://jabber.org/protocol/nick">Alice</nick>' +
        '<x xmlns="http://jabber.org/protocol/muc"><password>s3cret</password></x></presence>',
    );
    expect(wire({ occupant, displayName: 'Alice', call: undefined, join: { password: undefined } })).toContain('<x xmlns="http://jabber.org/protocol/muc"/>');
  });

  it('a rejoin asks for the history since a time (XEP-0045 <history since>), with the password', () => {
    const since = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(wire({ occupant, displayName: 'Alice', call: undefined, join: { password: 's3cret', historySince: since } })).toContain(
      '<x xmlns="http://jabber.org/protocol/muc"><password>s3cret</password><history since="2026-01-02T03:04:05.000Z"/></x>',
    );
  });

  it('carries <conf media> exactly while the call is joined, on the join (rejoin) and on updates', () => {
    expect(wire({ occupant, displayName: 'Alice', call: inCall, join: { password: undefined } })).toContain('<conf xmlns="http://andyet.net/xmlns/mmuc" media="audio"/>');
    expect(wire({ occupant, displayName: 'Alice', call: inCall })).toBe(
      '<presence xmlns="jabber:client" to="room@rooms.example/me"><nick xmlns="http://jabber.org/protocol/nick">Alice</nick>' +
        '<conf xmlns="http://andyet.net/xmlns/mmuc" media="audio"/></presence>',
    );
    const left = wire({ occupant, displayName: 'Alice', call: { ...inCall, joined: false } });
    expect(left).not.toContain('conf');
    expect(left).not.toContain('http://jabber.org/protocol/muc"');
  });

  it('bounds the nick and never sends an empty one', () => {
    expect(buildRoomPresence({ occupant, displayName: 'x'.repeat(500), call: undefined }).nick).toHaveLength(LIMITS.displayNameLength);
    expect(buildRoomPresence({ occupant, displayName: '   ', call: undefined }).nick).toBe('Anonymous');
  });

  it('keys presences by what the room sees: same state, same key', () => {
    const base = { occupant, displayName: 'Alice', call: inCall };
    expect(roomPresenceKey(buildRoomPresence(base))).toBe(roomPresenceKey(buildRoomPresence({ ...base, call: { ...inCall, joinedAt: 99 } })));
    expect(roomPresenceKey(buildRoomPresence(base))).not.toBe(roomPresenceKey(buildRoomPresence({ ...base, call: { ...inCall, requestingMedia: 'video' } })));
    expect(roomPresenceKey(buildRoomPresence(base))).not.toBe(roomPresenceKey(buildRoomPresence({ ...base, displayName: 'Al' })));
    expect(roomPresenceKey(buildRoomPresence(base))).not.toBe(roomPresenceKey(buildRoomPresence({ ...base, call: { ...inCall, joined: false } })));
  });
});
