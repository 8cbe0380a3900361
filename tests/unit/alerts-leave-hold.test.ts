import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { LeaveHold } from '../../src/main-thread/alerts/LeaveHold';
import { heldPeersAtom } from '../../src/main-thread/call/callAtoms';
import { roomLeaveStillHeld, roomEventStillShown, sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import { DEPARTURE_HOLD, LEAVE_HOLD_MS } from '../../src/protocol/clientDefaults';
import type { Peer, RoomEvent } from '../../src/protocol/entities';
import { initialSessionState } from '../../src/protocol/session-state';
import { ManualClock } from '../support/ManualClock';
import { peer } from './callTab-fakes';

const ROOM = 'hold@muc.example';

/**
 * A LeaveHold whose held leaves chime, as RoomAlerts' tone does: `chimes` lists the lines each chime
 * was for. It reads a tab's store as RoomAlerts does: `show` sets the room's event lines, `keep` the
 * people its call keeps (DepartureHold's heldPeersAtom).
 */
function held() {
  const clock = new ManualClock();
  const store = createStore();
  const chimes: (readonly string[])[] = [];
  const hold = new LeaveHold({ clock, stillShown: roomEventStillShown(store, ROOM), stillHeld: roomLeaveStillHeld(store, ROOM) });
  const lines = new Map<string, string>();
  const show = (...shown: string[]) => {
    const roomEvents: Record<string, RoomEvent> = {};
    for (const id of shown) roomEvents[id] = { id, roomAddress: ROOM, kind: 'left', displayName: lines.get(id), peerAddress: `${ROOM}/${lines.get(id)}`, time: 0 };
    store.set(sessionStateAtom, { ...initialSessionState(), roomEvents });
  };
  /** A leave line about `name`, shown. */
  const leave = (id: string, name: string) => {
    lines.set(id, name);
    show(...lines.keys());
  };
  const keep = (...names: string[]) => store.set(heldPeersAtom, { [ROOM]: names.map((name): Peer => peer(`${ROOM}/${name}`, { displayName: name, joinedCall: true })) });
  return { hold, clock, show, leave, keep, chime: (stillShown: readonly string[]) => chimes.push(stillShown), chimes };
}

describe(`A plain leave's tone (and words to a screen reader) wait ${LEAVE_HOLD_MS} ms and are not given if the leave gave way to a reconnection meanwhile (issue 13)`, () => {
  it('a leave whose line is still shown once the wait is over chimes then, not before', async () => {
    const { hold, clock, leave, chime, chimes } = held();
    leave('left-bob', 'bob');
    hold.hold(['left-bob'], chime);
    await clock.advance(LEAVE_HOLD_MS - 1);
    expect(chimes).toEqual([]);
    await clock.advance(1);
    expect(chimes).toEqual([['left-bob']]);
  });

  it('a leave whose line was taken back (the same person back at once: "reconnected") does not chime', async () => {
    const { hold, clock, show, leave, chime, chimes } = held();
    leave('left-bob', 'bob');
    hold.hold(['left-bob'], chime);
    await clock.advance(LEAVE_HOLD_MS / 2);
    show();
    await clock.advance(LEAVE_HOLD_MS);
    expect(chimes).toEqual([]);
  });

  it('of two leaves at once, one still shown chimes once, for that one', async () => {
    const { hold, clock, leave, chime, chimes } = held();
    leave('left-carol', 'carol');
    hold.hold(['left-bob', 'left-carol'], chime);
    await clock.advance(LEAVE_HOLD_MS);
    expect(chimes).toEqual([['left-carol']]);
  });

  it('nothing chimes once the room’s alerts have gone from this tab', async () => {
    const { hold, clock, leave, chime, chimes } = held();
    leave('left-bob', 'bob');
    hold.hold(['left-bob'], chime);
    hold.dispose();
    await clock.advance(LEAVE_HOLD_MS);
    expect(chimes).toEqual([]);
  });
});

/** Bob's leave, held while the call keeps him. */
function bobLeftWhileKept(): ReturnType<typeof held> {
  const kept = held();
  kept.leave('left-bob', 'bob');
  kept.keep('bob');
  kept.hold.hold(['left-bob'], kept.chime);
  return kept;
}

describe(`A leave of someone the call still keeps (their media still arriving: DepartureHold) waits while it keeps them, ${DEPARTURE_HOLD.graceMs} ms at most (issue 13)`, () => {
  it('back while kept, however late within the hold (their line gave way to "reconnected" 3 s on): no chime', async () => {
    const { clock, show, keep, chimes } = bobLeftWhileKept();
    await clock.advance(3_000);
    expect(chimes).toEqual([]);
    show();
    keep();
    await clock.advance(DEPARTURE_HOLD.graceMs);
    expect(chimes).toEqual([]);
  });

  it('let go by the call (their media stopped, their tile goes): chimes then, once', async () => {
    const { clock, keep, chimes } = bobLeftWhileKept();
    await clock.advance(2_000);
    expect(chimes).toEqual([]);
    keep();
    await clock.advance(DEPARTURE_HOLD.checkIntervalMs);
    expect(chimes).toEqual([['left-bob']]);
    await clock.advance(DEPARTURE_HOLD.graceMs);
    expect(chimes).toHaveLength(1);
  });

  it(`kept past the call's own hold: chimes ${DEPARTURE_HOLD.graceMs} ms after the leave at the latest, once`, async () => {
    const { clock, chimes } = bobLeftWhileKept();
    await clock.advance(DEPARTURE_HOLD.graceMs - DEPARTURE_HOLD.checkIntervalMs - 1);
    expect(chimes).toEqual([]);
    await clock.advance(DEPARTURE_HOLD.checkIntervalMs + 1);
    expect(chimes).toEqual([['left-bob']]);
    await clock.advance(DEPARTURE_HOLD.graceMs);
    expect(chimes).toHaveLength(1);
  });

  it('of two leaves at once, the one not kept chimes after the usual wait, the kept one once let go', async () => {
    const { hold, clock, leave, keep, chime, chimes } = held();
    leave('left-bob', 'bob');
    leave('left-carol', 'carol');
    keep('carol');
    hold.hold(['left-bob', 'left-carol'], chime);
    await clock.advance(LEAVE_HOLD_MS);
    expect(chimes).toEqual([['left-bob']]);
    keep();
    await clock.advance(DEPARTURE_HOLD.checkIntervalMs);
    expect(chimes).toEqual([['left-bob'], ['left-carol']]);
  });
});
