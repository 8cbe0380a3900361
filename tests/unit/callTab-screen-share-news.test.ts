import { describe, expect, it } from 'vitest';
import { screenShareNews, screenSharers } from '../../src/ui/call/screenShareNews';
import { tile } from './callTab-tile-fakes';

const bob = 'room@muc/bob';
const carol = 'room@muc/carol';
const screenOf = (address: string, displayName: string, isSelf = false) => tile(`screen:${displayName}`, { kind: 'screen', peerAddress: address, displayName, isSelf });

describe('A screen share is said to a screen reader as it starts and stops (beyond SPEC §9: the stage changes without a word)', () => {
  it('finds the others sharing, not yourself, nor anyone’s camera, and whether their screen comes with its sound', () => {
    expect([...screenSharers([screenOf(bob, 'Bob'), tile('camera:carol', { peerAddress: carol, displayName: 'Carol' }), screenOf('room@muc/me', 'Me', true)])]).toEqual([[bob, { name: 'Bob', withSound: false }]]);
    expect([...screenSharers([tile('screen:Bob', { kind: 'screen', peerAddress: bob, displayName: 'Bob', withSound: true })])]).toEqual([[bob, { name: 'Bob', withSound: true }]]);
  });

  it('on entering the call, who is sharing already; nothing when nobody is', () => {
    expect(screenShareNews(undefined, new Map([[bob, { name: 'Bob', withSound: false }]]))).toBe('Bob is sharing a screen.');
    expect(screenShareNews(undefined, new Map([[bob, { name: 'Bob', withSound: true }]]))).toBe('Bob is sharing a screen with sound.');
    expect(screenShareNews(undefined, new Map())).toBeUndefined();
  });

  it('then who started and who stopped, and nothing when the sharers stay the same', () => {
    const bobSharing = new Map([[bob, { name: 'Bob', withSound: false }]]);
    expect(screenShareNews(new Map(), bobSharing)).toBe('Bob started sharing a screen.');
    expect(screenShareNews(bobSharing, new Map([[carol, { name: 'Carol', withSound: true }]]))).toBe('Carol started sharing a screen with sound. Bob stopped sharing a screen.');
    expect(screenShareNews(bobSharing, new Map(bobSharing))).toBeUndefined();
  });

  it("and whose screen's sound came or went while they share (its sound may reach you after its picture)", () => {
    const silent = new Map([[bob, { name: 'Bob', withSound: false }]]);
    const withSound = new Map([[bob, { name: 'Bob', withSound: true }]]);
    expect(screenShareNews(silent, withSound)).toBe("Bob's screen now comes with sound.");
    expect(screenShareNews(withSound, silent)).toBe("Bob's screen no longer comes with sound.");
  });
});
