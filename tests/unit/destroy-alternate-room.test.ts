import { describe, expect, it } from 'vitest';
import { expectRoomAddress } from '../../src/protocol/addresses';
import { alternateRoomAddress } from '../../src/ui/alternateRoom';

const ROOM = 'closing@muc.parley.test';

describe('Destroy room: the alternate room typed is checked in the dialog, so the session is never sent an address it refuses (SPEC §4 destroyed room)', () => {
  it('takes a room address on this room’s service as it is', () => {
    expect(alternateRoomAddress('new-home@muc.parley.test', ROOM)).toEqual({ address: 'new-home@muc.parley.test' });
  });

  it('takes anything else, an "@" included, as a room name on this room’s service — an address the session accepts', () => {
    for (const [typed, address] of [
      ['Team Sync', 'team-sync@muc.parley.test'],
      ['foo@', 'foo@muc.parley.test'],
      ['Team@Work', 'team-work@muc.parley.test'],
      ['lobby@muc.elsewhere.test', 'lobby-muc.elsewhere.test@muc.parley.test'],
    ] as const) {
      expect(alternateRoomAddress(typed, ROOM)).toEqual({ address });
      expect(expectRoomAddress(address)).toBe(address);
    }
  });

  it('refuses the room itself, however it is typed: everyone would go back into the room just closed', () => {
    for (const typed of ['closing', 'Closing', 'closing@muc.parley.test']) {
      expect(alternateRoomAddress(typed, ROOM)).toEqual({ refusal: 'That is this room. Name another room to send everyone to, or leave it empty.' });
    }
  });

  it('says why, in the home page’s words, when what was typed cannot name a room', () => {
    expect(alternateRoomAddress('@@@', ROOM)).toEqual({ refusal: 'That room name has no letters or digits that can name a room.' });
    expect(alternateRoomAddress('team\u{E000}', ROOM)).toEqual({ refusal: 'That room name cannot become a room address: it contains U+E000, a private-use character.' });
  });
});
