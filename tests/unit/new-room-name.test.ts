import { describe, expect, it } from 'vitest';
import { roomNameError, roomNameToLocalpart } from '../../src/protocol/rooms';
import { newRoomName } from '../../src/ui/newRoomName';

describe('Start a new room: a fresh name nobody guesses, easy to read out, that is its own room address', () => {
  const names = Array.from({ length: 2000 }, newRoomName);

  it('is "room-" and two groups of four letters or digits, without i, l, o, 0 or 1', () => {
    for (const name of names) expect(name).toMatch(/^room-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
  });

  it('is a room name the protocol takes as it is (its address’s localpart is the name)', () => {
    for (const name of names) {
      expect(roomNameError(name)).toBeUndefined();
      expect(roomNameToLocalpart(name)).toBe(name);
    }
  });

  it('is a different name each time, using every readable character', () => {
    expect(new Set(names).size).toBe(names.length);
    const used = new Set(names.flatMap((name) => [...name.slice('room-'.length).replace('-', '')]));
    expect([...used].sort().join('')).toBe('23456789abcdefghjkmnpqrstuvwxyz');
  });
});
