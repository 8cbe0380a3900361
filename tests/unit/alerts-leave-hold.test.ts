import { describe, expect, it } from 'vitest';
import { LeaveHold } from '../../src/main-thread/alerts/LeaveHold';
import { LEAVE_HOLD_MS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';

/** A LeaveHold whose held leaves chime, as RoomAlerts' tone does: `chimes` lists the lines each chime was for. */
function held(): { hold: LeaveHold; clock: ManualClock; shown: Set<string>; chime: (stillShown: readonly string[]) => void; chimes: (readonly string[])[] } {
  const clock = new ManualClock();
  const shown = new Set<string>();
  const chimes: (readonly string[])[] = [];
  const hold = new LeaveHold({ clock, stillShown: (eventId) => shown.has(eventId) });
  return { hold, clock, shown, chime: (stillShown) => chimes.push(stillShown), chimes };
}

describe(`A plain leave's tone (and words to a screen reader) wait ${LEAVE_HOLD_MS} ms and are not given if the leave gave way to a reconnection meanwhile (issue 13)`, () => {
  it('a leave whose line is still shown once the wait is over chimes then, not before', async () => {
    const { hold, clock, shown, chime, chimes } = held();
    shown.add('left-bob');
    hold.hold(['left-bob'], chime);
    await clock.advance(LEAVE_HOLD_MS - 1);
    expect(chimes).toEqual([]);
    await clock.advance(1);
    expect(chimes).toEqual([['left-bob']]);
  });

  it('a leave whose line was taken back (the same person back at once: "reconnected") does not chime', async () => {
    const { hold, clock, shown, chime, chimes } = held();
    shown.add('left-bob');
    hold.hold(['left-bob'], chime);
    await clock.advance(LEAVE_HOLD_MS / 2);
    shown.delete('left-bob');
    await clock.advance(LEAVE_HOLD_MS);
    expect(chimes).toEqual([]);
  });

  it('of two leaves at once, one still shown chimes once, for that one', async () => {
    const { hold, clock, shown, chime, chimes } = held();
    shown.add('left-carol');
    hold.hold(['left-bob', 'left-carol'], chime);
    await clock.advance(LEAVE_HOLD_MS);
    expect(chimes).toEqual([['left-carol']]);
  });

  it('nothing chimes once the room’s alerts have gone from this tab', async () => {
    const { hold, clock, shown, chime, chimes } = held();
    shown.add('left-bob');
    hold.hold(['left-bob'], chime);
    hold.dispose();
    await clock.advance(LEAVE_HOLD_MS);
    expect(chimes).toEqual([]);
  });
});
