// No chat lost (issue 13) when only one room is rejoined while the connection stays (issue 16: the
// cluster node the room ran on died, and the room told us with status 332): the outbox, a real
// StateStore, and the room going interrupted, joining and joined again as RoomsDomain records it.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Room } from '../../src/protocol/entities';
import { ChatOutbox, NOT_IN_ROOM } from '../../src/shared-worker/chat/ChatOutbox';
import { StateStore } from '../../src/shared-worker/StateStore';
import { newRoomRecord } from '../../src/shared-worker/rooms/roomRecord';
import { ManualClock } from '../support/ManualClock';
import { testSessionContext } from '../support/testSessionContext';

const ROOM = 'room@rooms.example';

function message(id: string): ChatMessage {
  return {
    id,
    stanzaId: id,
    body: `message ${id}`,
    direction: 'outgoing',
    displayName: 'Alice',
    senderAddress: `${ROOM}/alice`,
    roomAddress: ROOM,
    time: 1,
    editedTime: undefined,
    replace: undefined,
    acked: false,
    customerData: undefined,
  };
}

/** The store's listeners run once a microtask has passed: after this they have seen every change so far. */
function delivered(): Promise<void> {
  return Promise.resolve();
}

function outboxInARoom() {
  const store = new StateStore();
  const context = testSessionContext({ store, clock: new ManualClock() });
  const transmitted: string[] = [];
  const outbox = new ChatOutbox(context, (sent) => transmitted.push(sent.id), () => store.state.rooms.r?.roomState === 'joined');
  const setRoom = (change: Partial<Room>): void => store.upsert('rooms', 'r', { ...newRoomRecord('r', 'Room', { address: ROOM }), joinedAt: 1, ...change });
  setRoom({ roomState: 'joined', joined: true });
  outbox.historyDone(ROOM);
  return { store, outbox, transmitted, setRoom };
}

describe('No chat lost across a rejoin of one room on the same connection (issue 16: its node died)', () => {
  it('sends again, after the rejoin’s history, a message that went to the room that stopped and was never echoed', async () => {
    const { store, outbox, transmitted, setRoom } = outboxInARoom();
    store.upsert('messages', 'm1', message('m1'));
    outbox.add(message('m1'));
    expect(transmitted).toEqual(['m1']);

    // Status 332: the room is interrupted and its join starts again at once, in the same turn.
    setRoom({ roomState: 'interrupted' });
    setRoom({ roomState: 'joining' });
    await delivered();
    setRoom({ roomState: 'joined', joined: true });
    await delivered();
    outbox.historyDone(ROOM);
    expect(transmitted).toEqual(['m1', 'm1']);
  });

  it('keeps waiting through a rejoin that failed and is asked again (unanswered, the room full), and goes once a later rejoin is in', async () => {
    const { store, outbox, transmitted, setRoom } = outboxInARoom();
    store.upsert('messages', 'm1', message('m1'));
    outbox.add(message('m1'));

    setRoom({ roomState: 'interrupted' });
    setRoom({ roomState: 'failed', joined: false });
    await delivered();
    expect(store.get('messages', 'm1')?.sendError).toBeUndefined();
    setRoom({ roomState: 'joining' });
    setRoom({ roomState: 'joined', joined: true });
    await delivered();
    outbox.historyDone(ROOM);
    expect(transmitted).toEqual(['m1', 'm1']);
    expect(store.get('messages', 'm1')?.sendError).toBeUndefined();
  });

  it('fails a waiting message when the rejoin ends in being put out of the room', async () => {
    const { store, outbox, setRoom } = outboxInARoom();
    store.upsert('messages', 'm1', message('m1'));
    outbox.add(message('m1'));

    setRoom({ roomState: 'interrupted' });
    setRoom({ roomState: 'failed', joined: false, removal: { kind: 'banned', reason: undefined } });
    await delivered();
    expect(store.get('messages', 'm1')?.sendError).toBe(NOT_IN_ROOM);
  });

  it('does not send again what the room echoed before it stopped', async () => {
    const { store, outbox, transmitted, setRoom } = outboxInARoom();
    store.upsert('messages', 'm1', message('m1'));
    outbox.add(message('m1'));
    store.update('messages', 'm1', { acked: true });

    setRoom({ roomState: 'interrupted' });
    await delivered();
    setRoom({ roomState: 'joined', joined: true });
    await delivered();
    outbox.historyDone(ROOM);
    expect(transmitted).toEqual(['m1']);
  });
});
