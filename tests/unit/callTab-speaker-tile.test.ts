import { describe, expect, it } from 'vitest';
import { speakerTileKey } from '../../src/main-thread/callTab/speakerTile';
import { tile } from './callTab-tile-fakes';

const self = tile('self', { isSelf: true, volumeLimit: undefined });
/** The speaker view's pick, no screen sent back to the grid. */
const pick = (tiles: Parameters<typeof speakerTileKey>[0]) => speakerTileKey(tiles, new Set());

describe('Speaker view: the person speaking is shown large (SPEC §3 speaking, lastSpokeAt)', () => {
  it('shows the person speaking now; of several, the latest to start', () => {
    expect(pick([tile('bob'), tile('carol', { speaking: true, lastSpokeAt: 5 }), self])).toBe('carol');
    expect(pick([tile('bob', { speaking: true, lastSpokeAt: 9 }), tile('carol', { speaking: true, lastSpokeAt: 5 }), self])).toBe('bob');
  });

  it('keeps the one who spoke last while nobody speaks; a newer speaker still speaking wins over a later one who stopped', () => {
    expect(pick([tile('bob', { lastSpokeAt: 3 }), tile('carol', { lastSpokeAt: 7 }), self])).toBe('carol');
    expect(pick([tile('bob', { speaking: true, lastSpokeAt: 3 }), tile('carol', { lastSpokeAt: 7 }), self])).toBe('bob');
  });

  it('shows the first to arrive before anyone spoke, never yourself while others are there; yourself alone', () => {
    expect(pick([tile('bob'), tile('carol'), { ...self, speaking: true }])).toBe('bob');
    expect(pick([self])).toBe('self');
    expect(pick([])).toBeUndefined();
  });

  it('shows another person’s shared screen before any speaker, never your own', () => {
    expect(pick([tile('screen:bob', { kind: 'screen' }), tile('carol', { speaking: true, lastSpokeAt: 1 }), self])).toBe('screen:bob');
    // Your own screen you know: the speaker stays who speaks.
    expect(pick([tile('screen:own', { kind: 'screen', isSelf: true }), tile('carol', { speaking: true, lastSpokeAt: 1 }), self])).toBe('carol');
  });

  it('not a screen the person sent back to the grid: the speaker again, or another person’s screen', () => {
    const bobsScreen = tile('screen:bob', { kind: 'screen', peerAddress: 'room@muc/bob' });
    const carolsScreen = tile('screen:carol', { kind: 'screen', peerAddress: 'room@muc/carol' });
    const carol = tile('carol', { speaking: true, lastSpokeAt: 1 });
    expect(speakerTileKey([bobsScreen, carol, self], new Set(['room@muc/bob']))).toBe('carol');
    expect(speakerTileKey([bobsScreen, carolsScreen, carol, self], new Set(['room@muc/bob']))).toBe('screen:carol');
    // Before anyone spoke: the first person to arrive, not the screen the grid lists first.
    expect(speakerTileKey([bobsScreen, tile('bob'), tile('carol'), self], new Set(['room@muc/bob']))).toBe('bob');
  });
});

describe('Speaker view: the person shown keeps the stage while still speaking, so that another’s brief word does not flip it there and back (beyond SPEC §3)', () => {
  it('Alice speaking, shown; Bob says “yeah” meanwhile (the latest to start): Alice stays', () => {
    const alice = tile('alice', { speaking: true, lastSpokeAt: 1 });
    expect(speakerTileKey([alice, tile('bob'), self], new Set(), undefined)).toBe('alice');
    expect(speakerTileKey([alice, tile('bob', { speaking: true, lastSpokeAt: 4 }), self], new Set(), 'alice')).toBe('alice');
    // Without what was shown, the latest to start would have taken it.
    expect(speakerTileKey([alice, tile('bob', { speaking: true, lastSpokeAt: 4 }), self], new Set())).toBe('bob');
  });

  it('once Alice is silent, the one speaking takes the stage; with nobody speaking, the one shown stays', () => {
    expect(speakerTileKey([tile('alice', { lastSpokeAt: 1 }), tile('bob', { speaking: true, lastSpokeAt: 4 }), self], new Set(), 'alice')).toBe('bob');
    expect(speakerTileKey([tile('alice', { lastSpokeAt: 6 }), tile('bob', { lastSpokeAt: 4 }), self], new Set(), 'bob')).toBe('bob');
  });

  it('a shared screen still comes first; one who left is no longer shown', () => {
    const alice = tile('alice', { speaking: true, lastSpokeAt: 1 });
    expect(speakerTileKey([tile('screen:bob', { kind: 'screen' }), alice, self], new Set(), 'alice')).toBe('screen:bob');
    expect(speakerTileKey([tile('carol', { lastSpokeAt: 2 }), self], new Set(), 'alice')).toBe('carol');
  });
});
