import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import { MAX_ROOM_LOCALPART_LENGTH, mapRoomName, needsLocalpartRules, RoomNameError } from '../../src/protocol/roomLocalpart';
import { roomNameError, roomNameToLocalpart } from '../../src/protocol/rooms';

/** U+20000, a CJK ideograph outside the BMP (two UTF-16 units) that room addresses know. */
const ASTRAL = '\u{20000}';

describe('Room names are counted and cut in characters (code points), never inside one', () => {
  it('counts a character outside the BMP as one', () => {
    expect(() => roomNameToLocalpart(ASTRAL.repeat(LIMITS.roomNameLength))).not.toThrow();
    expect(roomNameError(ASTRAL.repeat(LIMITS.roomNameLength + 1))).toMatchObject({
      kind: 'too-long',
      message: `A room name has at most ${LIMITS.roomNameLength} characters; this one has ${LIMITS.roomNameLength + 1}.`,
    });
  });

  it('keeps a last character that takes two UTF-16 units whole, or leaves it out whole', () => {
    const fits = roomNameToLocalpart(`${'a'.repeat(MAX_ROOM_LOCALPART_LENGTH - 1)}${ASTRAL}`);
    expect(Array.from(fits)).toHaveLength(MAX_ROOM_LOCALPART_LENGTH);
    expect(fits.endsWith(ASTRAL)).toBe(true);
    expect(roomNameToLocalpart(`${'a'.repeat(MAX_ROOM_LOCALPART_LENGTH)}${ASTRAL}`)).toBe('a'.repeat(MAX_ROOM_LOCALPART_LENGTH));
  });

  it('does not end a cut name on a dash', () => {
    expect(roomNameToLocalpart(`${'a'.repeat(MAX_ROOM_LOCALPART_LENGTH - 1)} b`)).toBe('a'.repeat(MAX_ROOM_LOCALPART_LENGTH - 1));
  });
});

describe('A room name that cannot become an address is refused, saying why', () => {
  it.each([
    ['a private-use character', 'team\u{E000}', 'it contains U+E000, a private-use character'],
    ['a C1 control character', 'team\u0085x', 'it contains U+0085, a control character'],
    ['half of a surrogate pair', 'team\uD800', 'it contains U+D800, half of a character that is missing its other half'],
    ['an emoji (unknown to Unicode 3.2, which room addresses use)', `${'a'.repeat(127)}😀`, 'it contains "😀" (U+1F600), which room addresses do not know'],
    ['an unassigned code point', 'team\u0378', 'it contains "\u0378" (U+0378), which room addresses do not know'],
    ['right-to-left letters mixed with left-to-right ones', 'שלום team', 'it mixes right-to-left and left-to-right letters'],
  ])('refuses %s', (_case, name, reason) => {
    const error = roomNameError(name);
    expect(error).toBeInstanceOf(RoomNameError);
    expect(error?.kind).toBe('not-addressable');
    expect(error?.message).toContain(`That room name cannot become a room address: ${reason}`);
  });

  it('takes names in other scripts that addresses can hold', () => {
    expect(roomNameToLocalpart('Café Zürich')).toBe('café-zürich');
    expect(roomNameToLocalpart('שלום')).toBe('שלום');
    expect(roomNameToLocalpart('会議室')).toBe('会議室');
  });

  it('says a name with nothing usable in it is empty', () => {
    expect(roomNameError(' @@ ')).toMatchObject({ kind: 'empty' });
    expect(roomNameError('!!!')).toMatchObject({ kind: 'empty', message: 'room name has no letters or digits' });
  });
});

describe('A room page reads its own name without the XMPP localpart rules unless the name needs them (issue 14, the bundles)', () => {
  it('every ASCII character, alone or in a name, maps to a localpart the rules never refuse or change', () => {
    for (let codePoint = 0; codePoint < 0x80; codePoint += 1) {
      const name = `room${String.fromCharCode(codePoint)}name`;
      const localpart = mapRoomName(name);
      expect(needsLocalpartRules(localpart), name).toBe(false);
      expect(roomNameToLocalpart(name), name).toBe(localpart);
    }
  });

  it('a name with any other character is left to the rules, which may refuse it', () => {
    expect(needsLocalpartRules(mapRoomName('café'))).toBe(true);
    expect(needsLocalpartRules(mapRoomName('standup 🎉'))).toBe(true);
    expect(roomNameError('standup 🎉')).toMatchObject({ kind: 'not-addressable' });
  });
});
