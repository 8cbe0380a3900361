// SPEC §4 room state / §8 join failures, mapped from error presences as Prosody (or any MUC) sends
// them, parsed by the StanzaJS client Parley uses.
import { JXT, type Agent, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { LIMITS } from '../../src/protocol/constants';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { RoomEventLog } from '../../src/shared-worker/roomEvents/RoomEventLog';
import { joinErrorChange } from '../../src/shared-worker/rooms/joinError';
import { newRoomRecord } from '../../src/shared-worker/rooms/roomRecord';
import { RoomsDomain } from '../../src/shared-worker/rooms/RoomsDomain';
import { StateStore } from '../../src/shared-worker/StateStore';
import { ManualClock } from '../support/ManualClock';
import { testSessionContext } from '../support/testSessionContext';

const registry = createParleyXmppClient({}).stanzas;

/** None of the refusal flags: what every failure says of the ones that are not its own. */
const NO_REFUSAL = { banned: false, passwordRequired: false, roomFull: false, roomNotStarted: false };

/** An error presence answering a join (stanza id `id`) to room@rooms.example/nick. */
function refusal(condition: string, type = 'cancel', text?: string, id?: string): Stanzas.Presence {
  const xml = `<presence xmlns='jabber:client' from='room@rooms.example/nick' to='u@example/r' type='error'${id ? ` id='${id}'` : ''}>
    <x xmlns='http://jabber.org/protocol/muc'/>
    <error type='${type}' by='room@rooms.example'><${condition} xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>${
      text ? `<text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>${text}</text>` : ''
    }</error></presence>`;
  return registry.import(JXT.parse(xml)) as Stanzas.Presence;
}

describe('SPEC §8 join failures map to SPEC §4 room states', () => {
  it('forbidden means banned', () => {
    expect(joinErrorChange(refusal('forbidden', 'auth'))).toEqual({ ...NO_REFUSAL, roomState: 'banned', joined: false, banned: true, error: 'join refused: forbidden' });
  });

  it('not-authorized means password required', () => {
    expect(joinErrorChange(refusal('not-authorized', 'auth'))).toEqual({
      ...NO_REFUSAL,
      roomState: 'password-required',
      joined: false,
      passwordRequired: true,
      error: 'join refused: not-authorized',
    });
  });

  it('service-unavailable means room full (state failed)', () => {
    expect(joinErrorChange(refusal('service-unavailable', 'cancel', 'The room is full'))).toEqual({
      ...NO_REFUSAL,
      roomState: 'failed',
      joined: false,
      roomFull: true,
      error: 'join refused: service-unavailable (The room is full)',
    });
  });

  it('recipient-unavailable means the room has not started: waiting', () => {
    expect(joinErrorChange(refusal('recipient-unavailable', 'wait'))).toEqual({
      ...NO_REFUSAL,
      roomState: 'waiting',
      joined: false,
      roomNotStarted: true,
      error: 'join refused: recipient-unavailable',
    });
  });

  it('anything else fails the join, with none of the specific flags', () => {
    for (const condition of ['conflict', 'registration-required', 'item-not-found', 'not-allowed', 'internal-server-error']) {
      const change = joinErrorChange(refusal(condition));
      expect(change).toEqual({ ...NO_REFUSAL, roomState: 'failed', joined: false, error: `join refused: ${condition}` });
    }
  });

  it('bounds the text it keeps from the wire', () => {
    const change = joinErrorChange(refusal('not-allowed', 'cancel', 'x'.repeat(10_000)));
    expect(change.error!.length).toBeLessThan(300);
  });
});

describe('SPEC §4 room state: each join failure sets every refusal flag afresh, so an earlier room-full refusal does not describe a later, different failure', () => {
  it('every failure says all four flags, its own true and the others false', () => {
    expect(joinErrorChange(refusal('not-allowed'))).toMatchObject(NO_REFUSAL);
    expect(joinErrorChange(refusal('forbidden', 'auth'))).toMatchObject({ ...NO_REFUSAL, banned: true });
    expect(joinErrorChange(refusal('not-authorized', 'auth'))).toMatchObject({ ...NO_REFUSAL, passwordRequired: true });
    expect(joinErrorChange(refusal('service-unavailable'))).toMatchObject({ ...NO_REFUSAL, roomFull: true });
    expect(joinErrorChange(refusal('recipient-unavailable', 'wait'))).toMatchObject({ ...NO_REFUSAL, roomNotStarted: true });
  });

  it('refused as full, then the rejoin after a lost connection times out: failed, not full', async () => {
    const rooms = roomsRefusedAsFull();
    expect(rooms.room()).toMatchObject({ roomState: 'failed', roomFull: true });
    rooms.domain.disconnected();
    rooms.domain.connected();
    expect(rooms.room()).toMatchObject({ roomState: 'joining' });
    await rooms.clock.advance(LIMITS.roomJoinTimeoutMs);
    expect(rooms.room()).toMatchObject({ ...NO_REFUSAL, roomState: 'failed', error: expect.stringContaining('did not answer the join') });
  });

  it('refused as full, then asked again (another tab opens the room) and refused otherwise: failed, not full', async () => {
    const rooms = roomsRefusedAsFull();
    await rooms.domain.joinRoom('Room');
    rooms.refuseJoin('not-allowed');
    expect(rooms.room()).toMatchObject({ ...NO_REFUSAL, roomState: 'failed', error: 'join refused: not-allowed' });
  });
});

/** A session's rooms domain on a fake client, whose one room (room@rooms.example) the room has just refused as full. */
function roomsRefusedAsFull() {
  const clock = new ManualClock();
  const store = new StateStore();
  const sent: Stanzas.Presence[] = [];
  const handlers = new Map<string, (stanza: unknown) => void>();
  const client = {
    on: (event: string, handler: (stanza: unknown) => void) => handlers.set(event, handler),
    sendPresence: (presence: Stanzas.Presence) => sent.push(presence),
    disco: { getCaps: () => undefined },
  } as unknown as Agent;
  const context = { ...testSessionContext({ store, clock, client }), config: { id: 'nick' } as ProviderConfig };
  const domain = new RoomsDomain(context, new RoomEventLog(store, clock));
  domain.attachClient(client);
  store.upsert('rooms', 'room-1', newRoomRecord('room-1', 'Room', { address: 'room@rooms.example', autoJoinCall: false }));
  /** The room answers the join last sent with an error presence. */
  const refuseJoin = (condition: string) => handlers.get('presence')!(refusal(condition, 'cancel', undefined, sent.at(-1)!.id));
  domain.connected();
  refuseJoin('service-unavailable');
  return { domain, clock, refuseJoin, room: () => store.state.rooms['room-1'] };
}
