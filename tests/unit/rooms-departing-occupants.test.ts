import { describe, expect, it } from 'vitest';
import { DepartingOccupants } from '../../src/shared-worker/rooms/DepartingOccupants';
import { ManualClock } from '../support/ManualClock';

const OCCUPANT = 'room@rooms.parley.localhost/ed2acb1e';

describe('Leave, then Back: what a room sends about a stay we left is not the answer to a new join of it', () => {
  it('absorbs the old stay’s presences until the room’s unavailable answer, which ends the wait', () => {
    const departing = new DepartingOccupants(new ManualClock(), 15_000);
    departing.add(OCCUPANT);

    expect(departing.absorbs(OCCUPANT, undefined)).toBe(true);
    expect(departing.absorbs(OCCUPANT, 'unavailable')).toBe(true);
    expect(departing.absorbs(OCCUPANT, undefined)).toBe(false);
  });

  it('an error (a join the room never took) also ends the wait; other occupants are never absorbed', () => {
    const departing = new DepartingOccupants(new ManualClock(), 15_000);
    departing.add(OCCUPANT);

    expect(departing.absorbs(`${OCCUPANT}-other`, undefined)).toBe(false);
    expect(departing.absorbs(OCCUPANT, 'error')).toBe(true);
    expect(departing.absorbs(OCCUPANT, undefined)).toBe(false);
  });

  it('a room that never answers is forgotten after the join timeout, and a lost connection forgets every wait', async () => {
    const clock = new ManualClock();
    const departing = new DepartingOccupants(clock, 15_000);
    departing.add(OCCUPANT);
    await clock.advance(14_999);
    expect(departing.absorbs(OCCUPANT, undefined)).toBe(true);
    await clock.advance(1);
    expect(departing.absorbs(OCCUPANT, undefined)).toBe(false);

    departing.add(OCCUPANT);
    departing.clear();
    expect(departing.absorbs(OCCUPANT, undefined)).toBe(false);
  });
});
