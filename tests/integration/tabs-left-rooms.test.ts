// A room stays joined while a tab holds it (TabsApi), and a persistent Parley tab keeps the session
// alive while you visit room after room: what each room said must not stay in the session, and in
// every tab's mirror of its state, once no tab can show it. Sessions made by createSession, against
// a real Prosody behind the real gateway.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SessionState } from '../../src/protocol/session-state';
import { useParley } from '../support/parley';
import { connected, joinedBy, joinedRoom, useSessions, waitFor, type TestSession } from '../support/sessions';

const server = useParley();
const openSession = useSessions();

const ofRoom = (state: SessionState, roomAddress: string) => ({
  messages: Object.values(state.messages).filter((message) => message.roomAddress === roomAddress),
  roomEvents: Object.values(state.roomEvents).filter((line) => line.roomAddress === roomAddress),
});

/** Alice has the room open in her tab (and in `otherTabs`); Bob came in after her, said hello, and both are in her state. */
async function aliceHeardBobIn(otherTabs: readonly string[] = []): Promise<{ alice: TestSession; roomId: string; roomAddress: string; roomName: string }> {
  const alice = openSession({ server: server(), displayName: 'Alice' });
  await connected(alice);
  const roomName = `tabs-left-${randomUUID().slice(0, 8)}`;
  const roomId = await alice.tabs.openRoom(alice.tabId, roomName);
  for (const tabId of otherTabs) {
    alice.tabs.attach(tabId, { state: () => {}, event: () => {}, jingle: () => {} });
    await alice.tabs.openRoom(tabId, roomName);
  }
  const { address: roomAddress } = await joinedRoom(alice, roomId);
  const bob = openSession({ server: server(), displayName: 'Bob' });
  await bob.chat.sendChat((await joinedBy(bob, roomName)).address, 'hello Alice');
  await waitFor(alice, 'Bob’s hello and the line saying he came', (state) => {
    const said = ofRoom(state, roomAddress);
    return said.messages.length > 0 && said.roomEvents.length > 0;
  });
  return { alice, roomId, roomAddress, roomName };
}

describe('A room every tab has let go is left with what no tab can show any more; after “Leave”, a tab that had the room still shows what was said there', () => {
  it('the last tab that holds the room closes it: the room is left, and its messages and event lines leave the session’s state', async () => {
    const { alice, roomId, roomAddress } = await aliceHeardBobIn();

    await alice.tabs.closeRoom(alice.tabId, roomId);
    expect(alice.session.store.state.rooms[roomId]).toBeUndefined();
    expect(ofRoom(alice.session.store.state, roomAddress)).toEqual({ messages: [], roomEvents: [] });
  });

  it('“Leave” in one of two tabs that have the room: it is left, and its messages and event lines stay for the other tab, which says “You left this room”, until that one goes too', async () => {
    const { alice, roomId, roomAddress } = await aliceHeardBobIn(['the-pop-out']);

    await alice.tabs.leaveRoom(alice.tabId, roomId);
    expect(alice.session.store.state.rooms[roomId]).toBeUndefined();
    const kept = ofRoom(alice.session.store.state, roomAddress);
    expect(kept.messages.map((message) => message.body)).toEqual(['hello Alice']);
    expect(kept.roomEvents).not.toEqual([]);

    // The tab that left closes the room as it goes home: the pop-out still shows it.
    await alice.tabs.closeRoom(alice.tabId, roomId);
    expect(ofRoom(alice.session.store.state, roomAddress)).toEqual(kept);

    // The pop-out, the last that showed it, goes (closed, reloaded, crashed): nothing shows it now.
    alice.tabGoes('the-pop-out');
    await waitFor(alice, 'the left room’s messages and event lines gone with the last tab that showed them', (state) => {
      const said = ofRoom(state, roomAddress);
      return said.messages.length === 0 && said.roomEvents.length === 0;
    });
  });

  it('“Leave” in the only tab that had the room, whose view goes home: its messages and event lines leave the session’s state at once', async () => {
    const { alice, roomId, roomAddress } = await aliceHeardBobIn();

    await alice.tabs.leaveRoom(alice.tabId, roomId);
    expect(ofRoom(alice.session.store.state, roomAddress)).toEqual({ messages: [], roomEvents: [] });
  });

  it('after “Leave”, a tab that showed the room left and joins it again (“Join again”) keeps what was said there as it lets the left one go', async () => {
    const { alice, roomId, roomAddress, roomName } = await aliceHeardBobIn(['the-pop-out']);

    await alice.tabs.leaveRoom(alice.tabId, roomId);
    await joinedRoom(alice, await alice.tabs.openRoom('the-pop-out', roomName));
    await alice.tabs.closeRoom('the-pop-out', roomId);
    expect(ofRoom(alice.session.store.state, roomAddress).messages.map((message) => message.body)).toContain('hello Alice');
  });
});
