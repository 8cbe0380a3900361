// SPEC §4 room state / §8 join failures, mapped from error presences as Prosody (or any MUC) sends
// them, parsed by the StanzaJS client Parley uses.
import { JXT, type Agent, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { LIMITS, ROOM_START_RETRY } from '../../src/protocol/constants';
import { roomHasEnded } from '../../src/protocol/roomEnded';
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

/** A session's rooms domain on a fake client, with one room (room@rooms.example) not yet joined. */
function roomsOnFakeClient() {
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
  const receive = (xml: string) => handlers.get('presence')!(registry.import(JXT.parse(xml)));
  /** The room answers the join last sent with an error presence. */
  const refuseJoin = (condition: string) => handlers.get('presence')!(refusal(condition, 'cancel', undefined, sent.at(-1)!.id));
  /** The room lets us in: our self-presence (status 110) answers the join last sent. */
  const admit = () =>
    receive(`<presence xmlns='jabber:client' from='room@rooms.example/nick' to='u@example/r' id='${sent.at(-1)!.id}'>
      <x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='member' role='participant'/><status code='110'/></x></presence>`);
  /** The room stops on its server (status 332) and tells us, as an occupant or one joining. */
  const stopOnServer = () =>
    receive(`<presence xmlns='jabber:client' from='room@rooms.example/nick' to='u@example/r' type='unavailable'>
      <x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='none' role='none'/><status code='332'/><status code='110'/></x></presence>`);
  /** How many join presences (ones carrying the MUC join element) have gone to the room. */
  const joinsSent = () => sent.filter((presence) => presence.muc?.type === 'join').length;
  return { domain, store, clock, refuseJoin, admit, stopOnServer, joinsSent, room: () => store.state.rooms['room-1'], call: () => store.state.calls['room@rooms.example'] };
}

/** The rooms domain whose one room has just refused the join as full. */
function roomsRefusedAsFull() {
  const rooms = roomsOnFakeClient();
  rooms.domain.connected();
  rooms.refuseJoin('service-unavailable');
  return rooms;
}

/** The rooms domain in its one room and its call, whose connection then dropped and came back: the rejoin is out, unanswered. */
async function rejoiningInCall() {
  const rooms = roomsOnFakeClient();
  rooms.domain.connected();
  rooms.admit();
  await rooms.domain.joinCall('room@rooms.example', 'video');
  expect(rooms.call()).toMatchObject({ joined: true });
  rooms.domain.disconnected();
  rooms.domain.connected();
  expect(rooms.room()).toMatchObject({ roomState: 'joining', joinedAt: expect.any(Number) });
  return rooms;
}

/** The longest delay before the retry after `failures` failed rejoins in a row (ROOM_START_RETRY, with its jitter). */
function retryDelay(failures: number): number {
  const { delaysMs, jitterMs } = ROOM_START_RETRY;
  return delaysMs[Math.min(failures - 1, delaysMs.length - 1)]! + jitterMs;
}

describe('A failed rejoin of a room we were in leaves its call, and is asked again by itself on ROOM_START_RETRY’s schedule (issue 13: it comes back by itself)', () => {
  it('the rejoin unanswered within the join timeout: the call record is left, then the join goes again on schedule, and the room lets us back in', async () => {
    const rooms = await rejoiningInCall();
    const joinsBefore = rooms.joinsSent();
    await rooms.clock.advance(LIMITS.roomJoinTimeoutMs);
    expect(rooms.room()).toMatchObject({ roomState: 'failed', removal: undefined });
    expect(rooms.call()).toMatchObject({ joined: false, requestingMedia: 'none' });
    await rooms.clock.advance(retryDelay(1));
    expect(rooms.joinsSent()).toBe(joinsBefore + 1);
    expect(rooms.room()).toMatchObject({ roomState: 'failed' });
    rooms.admit();
    expect(rooms.room()).toMatchObject({ roomState: 'joined', joined: true, error: undefined });
  });

  it('the rejoin refused as full: the call record is left, the room says full, and it is asked again on the schedule’s growing delays', async () => {
    const rooms = await rejoiningInCall();
    rooms.refuseJoin('service-unavailable');
    expect(rooms.room()).toMatchObject({ roomState: 'failed', roomFull: true });
    expect(rooms.call()).toMatchObject({ joined: false });
    const joinsBefore = rooms.joinsSent();
    await rooms.clock.advance(retryDelay(1));
    expect(rooms.joinsSent()).toBe(joinsBefore + 1);
    rooms.refuseJoin('service-unavailable');
    await rooms.clock.advance(ROOM_START_RETRY.delaysMs[1]! - 1);
    expect(rooms.joinsSent()).toBe(joinsBefore + 1);
    await rooms.clock.advance(retryDelay(2));
    expect(rooms.joinsSent()).toBe(joinsBefore + 2);
  });

  it('the rejoin refused for a password (the room was locked meanwhile): the call record is left, and the password prompt is the way back, not a retry', async () => {
    const rooms = await rejoiningInCall();
    rooms.refuseJoin('not-authorized');
    expect(rooms.room()).toMatchObject({ roomState: 'password-required', passwordRequired: true });
    expect(rooms.call()).toMatchObject({ joined: false });
    const joinsBefore = rooms.joinsSent();
    await rooms.clock.advance(10 * retryDelay(ROOM_START_RETRY.delaysMs.length));
    expect(rooms.joinsSent()).toBe(joinsBefore);
  });

  it('a first join that fails is not asked again by itself: the page’s "Try again" asks', async () => {
    const rooms = roomsRefusedAsFull();
    const joinsBefore = rooms.joinsSent();
    await rooms.clock.advance(10 * retryDelay(ROOM_START_RETRY.delaysMs.length));
    expect(rooms.joinsSent()).toBe(joinsBefore);
  });
});

describe('A room that stops on its server (status 332) again before our rejoin completed has not ended: it is asked again by itself, as a failed rejoin is (issue 16)', () => {
  it('the room says failed with no removal, so no “put out” screen, and the join goes again on schedule', async () => {
    const rooms = await rejoiningInCall();
    rooms.stopOnServer();
    expect(rooms.room()).toMatchObject({ roomState: 'failed', removal: undefined, error: 'The room stopped on its server before you were back in' });
    expect(roomHasEnded(rooms.room()!)).toBe(false);
    expect(rooms.call()).toMatchObject({ joined: false });
    const joinsBefore = rooms.joinsSent();
    await rooms.clock.advance(retryDelay(1));
    expect(rooms.joinsSent()).toBe(joinsBefore + 1);
    rooms.admit();
    expect(rooms.room()).toMatchObject({ roomState: 'joined', joined: true });
  });
});
