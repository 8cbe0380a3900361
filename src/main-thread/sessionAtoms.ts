import { atom, type Atom, type createStore, type Getter } from 'jotai';
import { sameItems } from '../common/sameItems';
import type { CallRecord, ChatMessage, Peer, Room, RoomEvent } from '../protocol/entities';
import { correctionFolder, roomMessageRecords } from '../protocol/chatCorrections';
import { awaitingRejoin } from '../protocol/awaitingRejoin';
import { roomByAddress } from '../protocol/roomLookup';
import { initialSessionState, type SessionState } from '../protocol/session-state';
import { heldPeersAtom } from './call/callAtoms';

/**
 * The tab's mirror of the shared worker's state of record; React reads only derived atoms. Until the
 * worker's first snapshot the session is on its way (attaching a tab connects it: TabsApi.attach),
 * so the page's first paint says "Connecting…", not "Not connected".
 */
export const sessionStateAtom = atom<SessionState>(stateBeforeFirstSnapshot());

function stateBeforeFirstSnapshot(): SessionState {
  const state = initialSessionState();
  return { ...state, connection: { ...state.connection, state: 'connecting' } };
}

/**
 * Why the shared session does not work in this tab: its worker's code did not load (`not-loaded`),
 * or the browser refused the worker because the site may not keep data (`storage-blocked`), or the
 * worker ended after the tab attached (`stopped`: crashed, out of memory, ended by the browser),
 * which only a reload mends; or Parley was updated while tabs of the build before run in this
 * browser (`another-build`), which passes once they are reloaded or closed. Undefined while it
 * works. Set by the tab (SessionBridge, main.tsx), not mirrored.
 */
export type SessionUnavailability = 'not-loaded' | 'storage-blocked' | 'stopped' | 'another-build';
export const sessionUnavailableAtom = atom<SessionUnavailability | undefined>(undefined);

/**
 * Why the shared worker did not start (its error event, or its constructor's throw): Chrome refuses
 * a SharedWorker to a site blocked from keeping data, which only the person's settings mend, so that
 * is told apart from a part that did not load.
 */
export function workerNotStartedBecause(): 'storage-blocked' | 'not-loaded' {
  return siteDataBlocked() ? 'storage-blocked' : 'not-loaded';
}

function siteDataBlocked(): boolean {
  if (navigator.cookieEnabled === false) return true;
  try {
    void window.localStorage;
    return false;
  } catch (error) {
    return error instanceof DOMException && error.name === 'SecurityError';
  }
}

export const connectionAtom = atom((get) => get(sessionStateAtom).connection);
export const preferencesAtom = atom((get) => get(sessionStateAtom).preferences);

// One collection atom per entity kind: each changes only when a patch touches that collection.
const roomsAtom = atom((get) => get(sessionStateAtom).rooms);
export const peersAtom = atom((get) => get(sessionStateAtom).peers);
const messagesAtom = atom((get) => get(sessionStateAtom).messages);
const callsAtom = atom((get) => get(sessionStateAtom).calls);
const roomEventsAtom = atom((get) => get(sessionStateAtom).roomEvents);

/**
 * A memoised atom per key (Jotai's own atomFamily is deprecated). Keys are entity ids and
 * addresses, so the cache grows with the rooms and peers this tab has seen, no further.
 */
function family<Key, Value>(create: (key: Key) => Atom<Value>): (key: Key) => Atom<Value> {
  const atoms = new Map<Key, Atom<Value>>();
  return (key) => {
    let found = atoms.get(key);
    if (!found) {
      found = create(key);
      atoms.set(key, found);
    }
    return found;
  };
}

/**
 * A derived list that keeps its previous array while the items are the same (the same records, or
 * equal by `same` where the read makes new ones), so components reading it re-render only when
 * something they show changed.
 */
function listAtom<Item>(read: (get: Getter) => Item[], same?: (one: Item, other: Item) => boolean): Atom<Item[]> {
  let previous: Item[] = [];
  return atom((get) => {
    const next = read(get);
    if (sameItems(next, previous, same)) return previous;
    previous = next;
    return next;
  });
}

/** A room by its local id. */
export const roomAtomFamily = family((roomId: string) => atom((get): Room | undefined => get(roomsAtom)[roomId]));

/** The room a person opened by this name, before its id is known to the tab. */
export const roomByNameAtomFamily = family((name: string) =>
  atom((get): Room | undefined => Object.values(get(roomsAtom)).find((room) => room.providedName === name)),
);

/** The room joined (or being joined) at an address. */
export const roomByAddressAtomFamily = family((address: string) => atom((get): Room | undefined => roomByAddress(get(roomsAtom), address)));

/** A room's call record, by room address. */
export const callAtomFamily = family((roomAddress: string) => atom((get): CallRecord | undefined => get(callsAtom)[roomAddress]));

/**
 * The rooms other than the one opened by `roomName` whose call you are in (their call records
 * joined), by the name each was opened by: joining a call leaves them, so your camera and
 * microphone are in one call at a time.
 */
export const otherJoinedCallsAtomFamily = family((roomName: string) =>
  listAtom(
    (get) =>
      Object.values(get(callsAtom))
        .filter((call) => call.joined)
        .map((call) => ({ roomAddress: call.roomAddress, roomName: roomByAddress(get(roomsAtom), call.roomAddress)?.providedName ?? call.roomAddress }))
        .filter((call) => call.roomName !== roomName),
    (one, other) => one.roomAddress === other.roomAddress && one.roomName === other.roomName,
  ),
);

const byJoinThenName = (a: Peer, b: Peer): number =>
  Number(b.isSelf) - Number(a.isSelf) || a.joinedRoomAt - b.joinedRoomAt || a.displayName.localeCompare(b.displayName);

/** The peers of a room: yourself first, then in order of arrival. */
export const roomPeersAtomFamily = family((roomAddress: string) =>
  listAtom((get) =>
    Object.values(get(peersAtom))
      .filter((peer) => peer.roomAddress === roomAddress)
      .sort(byJoinThenName),
  ),
);

/** The others in a room a private message reaches (Peer.readsPrivateMessages), by address and name: whom the chat offers to write to alone. */
export const privateMessageReadersAtomFamily = family((roomAddress: string) =>
  listAtom(
    (get) =>
      get(roomPeersAtomFamily(roomAddress))
        .filter((peer) => !peer.isSelf && peer.readsPrivateMessages)
        .map(({ address, displayName }) => ({ address, name: displayName })),
    (one, other) => one.address === other.address && one.name === other.name,
  ),
);

/** Whether someone is in their room at this occupant address: true or false only, so that a reader renders on their coming and going alone. */
export const occupantPresentAtomFamily = family((address: string) => atom((get) => get(peersAtom)[address] !== undefined));

/** Your own record in a room (undefined out of it). */
export const selfPeerAtomFamily = family((roomAddress: string) => atom((get) => get(roomPeersAtomFamily(roomAddress)).find((peer) => peer.isSelf)));

/** Who was in the room when our connection dropped, while it waits for its rejoin: what its Participants list shows then. */
export function peopleThroughOutage(room: Room): readonly Peer[] | undefined {
  return !room.joined && awaitingRejoin(room) ? room.peopleBeforeOutage : undefined;
}

/**
 * The people a room's call keeps although the room says they left: this tab's own call's records at
 * once, and those the call's tab reported (CallRecord heldPeers), so every other tab of the room
 * lists them too.
 */
const heldPeopleAtomFamily = family((roomAddress: string) =>
  listAtom((get) => {
    const own = get(heldPeersAtom)[roomAddress] ?? [];
    const reported = (get(callAtomFamily(roomAddress))?.heldPeers ?? []).filter((peer) => !own.some((held) => held.address === peer.address));
    return [...own, ...reported];
  }),
);

/**
 * The people a room's Participants list shows: the room's, and in their place those its call keeps
 * although the room no longer lists them (call/DepartureHold: their connection to the chat server
 * replaced while their media still reaches us; call/RejoinHold: not back yet after our rejoin), so
 * the list and the tiles agree. Through our own lost connection, until the room is joined again,
 * the people who were there when it dropped (`Room.peopleBeforeOutage`).
 */
export const participantsAtomFamily = family((roomAddress: string) =>
  listAtom((get) => {
    const listed = get(roomPeersAtomFamily(roomAddress));
    const room = get(roomByAddressAtomFamily(roomAddress));
    if (room?.joined !== true) {
      const before = room && peopleThroughOutage(room);
      return before ? [...before].sort(byJoinThenName) : listed;
    }
    const kept = get(heldPeopleAtomFamily(roomAddress)).filter((held) => !listed.some((peer) => peer.address === held.address));
    return kept.length === 0 ? listed : [...listed, ...kept].sort(byJoinThenName);
  }),
);

/** How many people the Participants list shows (yourself included): what the header shows, re-rendered only when the count changes. */
export const roomPeerCountAtomFamily = family((roomAddress: string) => atom((get) => get(participantsAtomFamily(roomAddress)).length));

/** The other peers of a room who are typing or have a live real-time text draft. */
export const typingPeersAtomFamily = family((roomAddress: string) =>
  listAtom((get) => get(roomPeersAtomFamily(roomAddress)).filter((peer) => !peer.isSelf && (peer.chatState === 'composing' || peer.realTimeText !== ''))),
);

/** The other peers of a room asking for attention right now (SPEC §4: true for 5 s). */
export const attentionPeersAtomFamily = family((roomAddress: string) =>
  listAtom((get) => get(roomPeersAtomFamily(roomAddress)).filter((peer) => !peer.isSelf && peer.requestingAttention)),
);

/** A room's chat messages in time order, as stored (a peer's corrections are records of their own). */
const roomMessageRecordsAtomFamily = family((roomAddress: string) => listAtom((get) => roomMessageRecords(get(messagesAtom), roomAddress)));

/** A room's chat as people read it: each peer's corrections folded into the message they correct. */
export const roomMessagesAtomFamily = family((roomAddress: string) => {
  const fold = correctionFolder();
  return listAtom((get) => fold(get(roomMessageRecordsAtomFamily(roomAddress))));
});

/** A room's event lines (joins, leaves, …) in time order. */
export const roomEventsAtomFamily = family((roomAddress: string) =>
  listAtom((get): RoomEvent[] =>
    Object.values(get(roomEventsAtom))
      .filter((event) => event.roomAddress === roomAddress)
      .sort((a, b) => a.time - b.time),
  ),
);

/**
 * Whether a room's event lines, as the store holds them now, still hold this one: a leave's line
 * gives way to "reconnected" when the person is back at once (LeaveHold asks after its wait).
 */
export function roomEventStillShown(store: ReturnType<typeof createStore>, roomAddress: string): (eventId: string) => boolean {
  return (eventId) => store.get(roomEventsAtomFamily(roomAddress)).some((event) => event.id === eventId);
}

/**
 * A room's leaves that may yet be reconnections: for each person the call still keeps, their latest
 * event line, if it is a leave (an earlier leave of theirs was one). Their chat line says they are
 * reconnecting, and the leave's tone and screen-reader words wait (LeaveHold) while the id is here.
 */
export const heldLeaveIdsAtomFamily = family((roomAddress: string) =>
  atom((get): ReadonlySet<string> => {
    const events = get(roomEventsAtomFamily(roomAddress));
    const held = new Set<string>();
    for (const { address } of get(heldPeopleAtomFamily(roomAddress))) {
      const latest = events.findLast((event) => event.peerAddress === address);
      if (latest?.kind === 'left') held.add(latest.id);
    }
    return held;
  }),
);

/** Whether a room's event line is a leave the call has not settled yet (`heldLeaveIdsAtomFamily`): LeaveHold waits for it. */
export function roomLeaveStillHeld(store: ReturnType<typeof createStore>, roomAddress: string): (eventId: string) => boolean {
  return (eventId) => store.get(heldLeaveIdsAtomFamily(roomAddress)).has(eventId);
}

/** The last message you sent to a room and have not deleted: the one ArrowUp and "Edit" correct. */
export const lastOwnMessageAtomFamily = family((roomAddress: string) =>
  atom((get): ChatMessage | undefined => get(roomMessagesAtomFamily(roomAddress)).findLast((message) => message.direction === 'outgoing' && !message.retracted)),
);
