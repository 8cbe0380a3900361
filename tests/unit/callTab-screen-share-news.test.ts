import { describe, expect, it } from 'vitest';
import { screenShareNews, screenSharers } from '../../src/ui/call/screenShareNews';
import { tile } from './callTab-tile-fakes';

const bob = 'room@muc/bob';
const carol = 'room@muc/carol';
const screenOf = (address: string, displayName: string, isSelf = false) => tile(`screen:${displayName}`, { kind: 'screen', peerAddress: address, displayName, isSelf });

describe('A screen share is said to a screen reader as it starts and stops (beyond SPEC §9: the stage changes without a word)', () => {
  it('finds the others sharing, not yourself, nor anyone’s camera', () => {
    expect([...screenSharers([screenOf(bob, 'Bob'), tile('camera:carol', { peerAddress: carol, displayName: 'Carol' }), screenOf('room@muc/me', 'Me', true)])]).toEqual([[bob, 'Bob']]);
  });

  it('on entering the call, who is sharing already; nothing when nobody is', () => {
    expect(screenShareNews(undefined, new Map([[bob, 'Bob']]))).toBe('Bob is sharing a screen.');
    expect(screenShareNews(undefined, new Map())).toBeUndefined();
  });

  it('then who started and who stopped, and nothing when the sharers stay the same', () => {
    const bobSharing = new Map([[bob, 'Bob']]);
    expect(screenShareNews(new Map(), bobSharing)).toBe('Bob started sharing a screen.');
    expect(screenShareNews(bobSharing, new Map([[carol, 'Carol']]))).toBe('Carol started sharing a screen. Bob stopped sharing a screen.');
    expect(screenShareNews(bobSharing, new Map(bobSharing))).toBeUndefined();
  });
});
