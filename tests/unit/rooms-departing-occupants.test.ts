import { describe, expect, it } from 'vitest';
import { DepartingOccupants } from '../../src/shared-worker/rooms/DepartingOccupants';
import { ManualClock } from '../support/ManualClock';

const OCCUPANT = 'room@rooms.parley.localhost/ed2acb1e';

describe('Leave, then Back: what a room sends about a stay we left is not the answer to a new join of it', () => {
  it('absorbs the old stay’s presences until the room’s unavailable answer, which ends the wait', () => {
    const departing = new DepartingOccupants(new ManualClock(), 15_000);
    departing.add(OCCUPANT);

    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(true);
    expect(departing.absorbs(OCCUPANT, 'unavailable', false)).toBe(true);
    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(false);
  });

  it('an error (a join the room never took) also ends the wait; other occupants are never absorbed', () => {
    const departing = new DepartingOccupants(new ManualClock(), 15_000);
    departing.add(OCCUPANT);

    expect(departing.absorbs(`${OCCUPANT}-other`, undefined, false)).toBe(false);
    expect(departing.absorbs(OCCUPANT, 'error', false)).toBe(true);
    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(false);
  });

  it('a room that never answers is forgotten after the join timeout, and a lost connection forgets every wait', async () => {
    const clock = new ManualClock();
    const departing = new DepartingOccupants(clock, 15_000);
    departing.add(OCCUPANT);
    await clock.advance(14_999);
    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(true);
    await clock.advance(1);
    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(false);

    departing.add(OCCUPANT);
    departing.clear();
    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(false);
  });
});

describe('A join retried soon after a join timeout: the room’s answer to the new join (it carries that join’s id) is the new join’s, never the abandoned stay’s', () => {
  it('is not absorbed, and ends the wait: what the occupant sends after it belongs to the new stay', () => {
    const departing = new DepartingOccupants(new ManualClock(), 15_000);
    // The abandoned join was never taken: the room has nothing to answer the leave with.
    departing.add(OCCUPANT);

    expect(departing.absorbs(OCCUPANT, undefined, true)).toBe(false);
    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(false);
  });

  it('a refusal of the new join (an error with its id) is not absorbed either', () => {
    const departing = new DepartingOccupants(new ManualClock(), 15_000);
    departing.add(OCCUPANT);

    expect(departing.absorbs(OCCUPANT, 'error', true)).toBe(false);
    expect(departing.absorbs(OCCUPANT, undefined, false)).toBe(false);
  });
});
