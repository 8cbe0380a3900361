import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { otherJoinedCallsAtomFamily, sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import { initialSessionState, type SessionState } from '../../src/protocol/session-state';
import { newCallRecord } from '../../src/shared-worker/rooms/callRecord';
import { room } from './callTab-fakes';

const STANDUP = 'standup@rooms.example';
const RETRO = 'retro@rooms.example';
const PLANNING = 'planning@rooms.example';

/** A session in rooms standup, retro and planning, in the calls of those named. */
function inCalls(...joined: string[]): SessionState {
  const state = initialSessionState();
  const rooms = Object.fromEntries(
    [STANDUP, RETRO, PLANNING].map((address, index) => [`room-${index}`, room({ id: `room-${index}`, address, providedName: address.split('@')[0]! })]),
  );
  const calls = Object.fromEntries([STANDUP, RETRO, PLANNING].map((address) => [address, { ...newCallRecord(address), joined: joined.includes(address) }]));
  return { ...state, rooms, calls };
}

describe('One call at a time: a room’s preview knows the other rooms whose call you are in, which joining leaves (beyond the spec)', () => {
  it('lists the joined calls of the other rooms by name, never this room’s, and keeps its list while they stay the same', () => {
    const store = createStore();
    store.set(sessionStateAtom, inCalls(STANDUP, RETRO));
    const others = otherJoinedCallsAtomFamily('standup');
    const first = store.get(others);
    expect(first).toEqual([{ roomAddress: RETRO, roomName: 'retro' }]);
    // Something else changes (a call record's media): the same list, so nothing re-renders.
    const state = store.get(sessionStateAtom);
    store.set(sessionStateAtom, { ...state, calls: { ...state.calls, [STANDUP]: { ...state.calls[STANDUP]!, requestingMedia: 'audio' } } });
    expect(store.get(others)).toBe(first);
    store.set(sessionStateAtom, inCalls(STANDUP));
    expect(store.get(others)).toEqual([]);
  });
});
