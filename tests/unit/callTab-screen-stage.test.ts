import { describe, expect, it } from 'vitest';
import type { CallTile } from '../../src/main-thread/callTab/callTiles';
import { ScreenStage } from '../../src/main-thread/callTab/ScreenStage';
import { tile } from './callTab-tile-fakes';

/** Another person's camera tile, keyed as callTiles keys it. */
const camera = (name: string, change: Partial<CallTile> = {}): CallTile => tile(`camera:${name}`, { peerAddress: `room@muc/${name}`, displayName: name, ...change });

/** A shared screen's tile: its key is that of the media item, which a new path (mesh ↔ relay) renews. */
function screen(name: string, itemId: string, isSelf = false): CallTile {
  return camera(name, { key: `screen:${itemId}`, kind: 'screen', isSelf });
}

const self = camera('Me', { key: 'camera:self', isSelf: true });
const bob = camera('Bob');
const carol = camera('Carol');

/** Runs the stage over successive tiles as the runtime does: each answer is the next call's stage. */
function follow(stage: ScreenStage, start: string | undefined, ...snapshots: CallTile[][]): (string | undefined)[] {
  let shown = start;
  return snapshots.map((tiles) => (shown = stage.next(tiles, shown)));
}

describe('A screen another person shares takes the stage (beyond SPEC §9: what call apps do with a shared screen)', () => {
  it('takes the stage as it starts, also one running when you join, and gives it back to the grid when it stops', () => {
    expect(follow(new ScreenStage(), undefined, [bob, self], [screen('Bob', 's1'), bob, self], [bob, self])).toEqual([undefined, 'screen:s1', undefined]);
    expect(follow(new ScreenStage(), undefined, [screen('Bob', 's1'), bob, self])).toEqual(['screen:s1']);
  });

  it('never your own screen: you know what you share', () => {
    expect(follow(new ScreenStage(), undefined, [screen('Me', 'own', true), bob, self])).toEqual([undefined]);
  });

  it('a tile the person enlarged keeps the stage when a share starts', () => {
    expect(follow(new ScreenStage(), bob.key, [screen('Carol', 's1'), bob, carol, self])).toEqual([bob.key]);
  });

  it('of two shares the newest takes the stage', () => {
    expect(follow(new ScreenStage(), undefined, [screen('Bob', 's1'), bob, carol, self], [screen('Bob', 's1'), screen('Carol', 's2'), bob, carol, self])).toEqual(['screen:s1', 'screen:s2']);
  });

  it('follows the share onto its new tile when its media comes over a new path', () => {
    const stage = new ScreenStage();
    expect(follow(stage, undefined, [screen('Bob', 'mesh'), bob, self], [screen('Bob', 'mesh'), screen('Bob', 'relay'), bob, self], [screen('Bob', 'relay'), bob, self])).toEqual([
      'screen:mesh',
      'screen:mesh',
      'screen:relay',
    ]);
  });

  it('a share the person sent back to the grid stays there, over tile changes and a new path; the next share to start takes the stage again', () => {
    const stage = new ScreenStage();
    expect(follow(stage, undefined, [screen('Bob', 's1'), bob, self])).toEqual(['screen:s1']);
    stage.release();
    expect(
      follow(stage, undefined, [screen('Bob', 's1'), camera('Bob', { muted: true }), self], [screen('Bob', 's1'), screen('Bob', 's1-relay'), bob, self], [screen('Bob', 's1-relay'), bob, self]),
    ).toEqual([undefined, undefined, undefined]);
    expect(follow(stage, undefined, [screen('Bob', 's1-relay'), screen('Carol', 's2'), bob, carol, self])).toEqual(['screen:s2']);
  });

  it('names whose screens the person sent back, for the speaker view, while they share; not one they only left for another tile', () => {
    const stage = new ScreenStage();
    const bobsScreen = screen('Bob', 's1');
    follow(stage, undefined, [bobsScreen, screen('Carol', 's2'), bob, carol, self]);
    const before = stage.screensPutBack;
    stage.release(carol);
    expect([...stage.screensPutBack]).toEqual([]);
    stage.release(bobsScreen);
    expect([...stage.screensPutBack]).toEqual([bob.peerAddress]);
    expect(stage.screensPutBack).not.toBe(before);
    // Sent back twice, it is the same set: nothing changed.
    const once = stage.screensPutBack;
    stage.release(bobsScreen);
    expect(stage.screensPutBack).toBe(once);
    follow(stage, undefined, [bobsScreen, screen('Carol', 's2'), bob, carol, self]);
    expect(stage.screensPutBack).toBe(once);
    // Bob stops sharing: his next share is a new one.
    follow(stage, undefined, [screen('Carol', 's2'), bob, carol, self]);
    expect([...stage.screensPutBack]).toEqual([]);
  });

  it('a share the person enlarged themselves is followed onto its new tile too', () => {
    const stage = new ScreenStage();
    follow(stage, undefined, [screen('Bob', 'mesh'), bob, self]);
    // Sent back, then enlarged again by the person: each press releases, then asks with the stage it chose.
    stage.release();
    expect(follow(stage, 'screen:mesh', [screen('Bob', 'mesh'), bob, self], [screen('Bob', 'relay'), bob, self])).toEqual(['screen:mesh', 'screen:relay']);
  });
});
