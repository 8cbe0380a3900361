import { createStore, Provider } from 'jotai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { heldPeersAtom } from '../../src/main-thread/call/callAtoms';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import { participantsAtomFamily, sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { Peer, Room } from '../../src/protocol/entities';
import { applyPatches, initialSessionState, type Patch } from '../../src/protocol/session-state';
import { newCallRecord } from '../../src/shared-worker/rooms/callRecord';
import { ParticipantsList } from '../../src/ui/ParticipantsList';
import { TabContext } from '../../src/ui/tabContext';
import { BOB, peer, room, ROOM, SELF } from './callTab-fakes';

/** Rendering to markup calls no action. */
const tab = { actions: {} } as ParleyTab;

// Not its owner: a kick's dialog needs a document (Dialog's portal), which markup rendering has not.
const joinedRoom = room({ selfAffiliation: 'none', selfRole: 'participant' });
const self = peer(joinedRoom.selfAddress!, { displayName: 'Me', joinedRoomAt: 0 });
const carol = peer(`${joinedRoom.address}/carol`, { displayName: 'Carol', joinedRoomAt: 1, joinedCall: true, muted: true });
const bob = peer(`${joinedRoom.address}/bob`, { displayName: 'Bob', joinedRoomAt: 2 });

/** The Participants list's markup, of a room the session lists `listed` in, while its call keeps `held`. */
function markupOf(shown: Room, listed: readonly Peer[] = [], held: readonly Peer[] = []): string {
  const store = createStore();
  store.set(sessionStateAtom, { ...initialSessionState(), rooms: { [shown.id]: shown }, peers: Object.fromEntries(listed.map((one) => [one.address, one])) });
  store.set(heldPeersAtom, { [shown.address!]: held });
  return renderToStaticMarkup(
    createElement(Provider, { store }, createElement(TabContext, { value: tab }, createElement(ParticipantsList, { id: 'people', room: shown, roomAddress: shown.address! }))),
  );
}

/** That list's count, then each entry in order. */
function entries(shown: Room, listed: readonly Peer[], held: readonly Peer[]): string[] {
  const markup = markupOf(shown, listed, held);
  const count = /<span class="count">(\d+)<\/span>/.exec(markup)?.[1];
  // Each entry's words, then the names of its buttons.
  const items = [...markup.matchAll(/<li class="participant[^"]*">(.*?)<\/li>/g)].map(([, item]) =>
    [...[...item!.matchAll(/>([^<]+)</g)].map(([, text]) => text!.trim()), ...[...item!.matchAll(/<button[^>]* aria-label="([^"]+)"/g)].map(([, label]) => label!)]
      .filter((text) => text !== '' && text !== ',')
      .join(' '),
  );
  return [`${count} people`, ...items];
}

describe('Participants list entries: the name, then the person’s states in words (DESIGN "Run contract"), with "in call" for whoever is in the room’s call', () => {
  it('Carol, in the call and muted, reads "in call" before "muted"; Bob, who only chats, and you outside the call do not', () => {
    const [, me, carolsEntry, bobsEntry] = entries(joinedRoom, [self, carol, bob], []);
    expect(carolsEntry).toMatch(/^Carol in call muted/);
    expect([me, bobsEntry].map((entry) => entry?.includes('in call'))).toEqual([false, false]);
    expect(entries(joinedRoom, [{ ...self, joinedCall: true }], [])[1]).toMatch(/^Me you in call/);
  });
});

describe('Participants list: someone the call keeps while the room does not list them (their connection replaced: DepartureHold) stays in their place, marked reconnecting, with nothing to do to them (issue 13)', () => {
  it('Carol, held by the call, stays between the others in order of arrival, counted, marked reconnecting, with no attention request; Bob has one', () => {
    const list = entries(joinedRoom, [self, bob], [carol]);
    expect(list[0]).toBe('3 people');
    expect(list.slice(1).map((entry) => entry.split(' ')[0])).toEqual(['Me', 'Carol', 'Bob']);
    expect(list[2]).toContain('muted reconnecting');
    expect(list[2]).not.toContain('Request attention');
    expect(list[3]).toContain('Request attention from Bob');
    expect(list[3]).not.toContain('reconnecting');
    expect(entries(joinedRoom, [self, bob], [])).toEqual(['2 people', expect.stringMatching(/^Me/), expect.stringMatching(/^Bob/)]);
  });

  it('someone the room lists again is listed once, not reconnecting', () => {
    expect(entries(joinedRoom, [self, carol, bob], [carol]).filter((entry) => entry.startsWith('Carol'))).toEqual([expect.not.stringContaining('reconnecting')]);
  });
});

describe('Participants list through our own lost connection: who was there when it dropped (Room.peopleBeforeOutage), until the room is joined again', () => {
  it('while the room waits for its rejoin, everyone who was there, you first, counted, none marked and nothing to do to them, and a line says why; a room that is not coming back lists nobody', () => {
    const interrupted = room({ roomState: 'interrupted', joined: false, peopleBeforeOutage: [bob, carol, self] });
    const list = entries(interrupted, [], []);
    expect(list).toEqual(['3 people', expect.stringMatching(/^Me/), expect.stringMatching(/^Carol/), expect.stringMatching(/^Bob/)]);
    expect(list.filter((entry) => entry.includes('reconnecting') || entry.includes('Request attention'))).toEqual([]);
    expect(markupOf(interrupted)).toContain('Reconnecting: this is who was here when the connection dropped.');
    // Back in the room: the room's own list.
    expect(entries(joinedRoom, [self, bob], [])).toEqual(['2 people', expect.stringMatching(/^Me/), expect.stringMatching(/^Bob/)]);
    expect(entries({ ...interrupted, roomState: 'failed' }, [], [])).toEqual(['0 people']);
  });

  it('a first join, with the people already there arriving before our own presence, is no outage: they are listed, with no such line', () => {
    const firstJoin = room({ roomState: 'joining', joined: false, joinedAt: undefined });
    expect(entries(firstJoin, [bob], [])).toEqual(['1 people', expect.stringMatching(/^Bob/)]);
    expect(markupOf(firstJoin, [bob])).not.toContain('Reconnecting');
  });
});

/** A tab's mirror (as SessionBridge feeds it): Alice (you) in the room and in its call, run by another tab of yours; Bob, if `withBob`, there too. */
function tabWithoutTheCall(withBob = true) {
  const store = createStore();
  const call = { ...newCallRecord(ROOM), joined: true };
  const bobThen = peer(BOB, { displayName: 'Bob', joinedRoomAt: 2, joinedCall: true });
  const alice = peer(SELF, { displayName: 'Alice' });
  store.set(sessionStateAtom, { ...initialSessionState(), rooms: { 'room-1': room() }, peers: withBob ? { [SELF]: alice, [BOB]: bobThen } : { [SELF]: alice }, calls: { [ROOM]: call } });
  const receive = (...patches: Patch[]) => store.set(sessionStateAtom, (state) => applyPatches(state, patches));
  return {
    bobThen,
    names: () => store.get(participantsAtomFamily(ROOM)).map((listed) => listed.displayName),
    bobLeaves: () => receive({ kind: 'remove', collection: 'peers', id: BOB }),
    callKeeps: (...heldPeers: Peer[]) => receive({ kind: 'upsert', collection: 'calls', id: ROOM, value: { ...call, heldPeers } }),
    receive,
  };
}

describe('The Participants list in every tab of the room keeps whom the call keeps although the room says they left (call/DepartureHold; CallRecord heldPeers)', () => {
  it('a tab that does not run the call lists them as the session last knew them while the call keeps them, and not once it lets them go', () => {
    const mirror = tabWithoutTheCall();
    expect(mirror.names()).toEqual(['Alice', 'Bob']);
    mirror.bobLeaves();
    mirror.callKeeps(mirror.bobThen);
    expect(mirror.names()).toEqual(['Alice', 'Bob']);
    mirror.callKeeps();
    expect(mirror.names()).toEqual(['Alice']);
  });

  it('a tab opened after they left, which never saw them, lists them too', () => {
    const opened = tabWithoutTheCall(false);
    expect(opened.names()).toEqual(['Alice']);
    opened.callKeeps(opened.bobThen);
    expect(opened.names()).toEqual(['Alice', 'Bob']);
  });

  it('a person back in the room is listed as the room has them now, once', () => {
    const mirror = tabWithoutTheCall();
    mirror.bobLeaves();
    mirror.callKeeps(mirror.bobThen);
    mirror.receive({ kind: 'upsert', collection: 'peers', id: BOB, value: peer(BOB, { displayName: 'Bob again', joinedRoomAt: 3 }) });
    expect(mirror.names()).toEqual(['Alice', 'Bob again']);
  });
});
