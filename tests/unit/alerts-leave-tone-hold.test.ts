import { describe, expect, it } from 'vitest';
import { LeaveToneHold } from '../../src/main-thread/alerts/LeaveToneHold';
import { LEAVE_TONE_HOLD_MS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';

function held(): { hold: LeaveToneHold; clock: ManualClock; shown: Set<string>; played: () => number } {
  const clock = new ManualClock();
  const shown = new Set<string>();
  let plays = 0;
  const hold = new LeaveToneHold({ clock, stillShown: (eventId) => shown.has(eventId), play: () => plays++ });
  return { hold, clock, shown, played: () => plays };
}

describe(`A plain leave's tone waits ${LEAVE_TONE_HOLD_MS} ms and does not play if the leave gave way to a reconnection meanwhile (issue 13)`, () => {
  it('a leave whose line is still shown once the wait is over chimes then, not before', async () => {
    const { hold, clock, shown, played } = held();
    shown.add('left-bob');
    hold.hold(['left-bob']);
    await clock.advance(LEAVE_TONE_HOLD_MS - 1);
    expect(played()).toBe(0);
    await clock.advance(1);
    expect(played()).toBe(1);
  });

  it('a leave whose line was taken back (the same person back at once: "reconnected") does not chime', async () => {
    const { hold, clock, shown, played } = held();
    shown.add('left-bob');
    hold.hold(['left-bob']);
    await clock.advance(LEAVE_TONE_HOLD_MS / 2);
    shown.delete('left-bob');
    await clock.advance(LEAVE_TONE_HOLD_MS);
    expect(played()).toBe(0);
  });

  it('of two leaves at once, one still shown chimes once', async () => {
    const { hold, clock, shown, played } = held();
    shown.add('left-carol');
    hold.hold(['left-bob', 'left-carol']);
    await clock.advance(LEAVE_TONE_HOLD_MS);
    expect(played()).toBe(1);
  });

  it('nothing chimes once the room’s alerts have gone from this tab', async () => {
    const { hold, clock, shown, played } = held();
    shown.add('left-bob');
    hold.hold(['left-bob']);
    hold.dispose();
    await clock.advance(LEAVE_TONE_HOLD_MS);
    expect(played()).toBe(0);
  });
});
