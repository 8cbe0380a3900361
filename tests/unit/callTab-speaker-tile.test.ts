import { describe, expect, it } from 'vitest';
import { speakerTileKey } from '../../src/main-thread/callTab/speakerTile';
import { tile } from './callTab-tile-fakes';

const self = tile('self', { isSelf: true, volumeLimit: undefined });

describe('Speaker view: the person speaking is shown large (SPEC §3 speaking, lastSpokeAt)', () => {
  it('shows the person speaking now; of several, the latest to start', () => {
    expect(speakerTileKey([tile('bob'), tile('carol', { speaking: true, lastSpokeAt: 5 }), self])).toBe('carol');
    expect(speakerTileKey([tile('bob', { speaking: true, lastSpokeAt: 9 }), tile('carol', { speaking: true, lastSpokeAt: 5 }), self])).toBe('bob');
  });

  it('keeps the one who spoke last while nobody speaks; a newer speaker still speaking wins over a later one who stopped', () => {
    expect(speakerTileKey([tile('bob', { lastSpokeAt: 3 }), tile('carol', { lastSpokeAt: 7 }), self])).toBe('carol');
    expect(speakerTileKey([tile('bob', { speaking: true, lastSpokeAt: 3 }), tile('carol', { lastSpokeAt: 7 }), self])).toBe('bob');
  });

  it('shows the first to arrive before anyone spoke, never yourself while others are there; yourself alone', () => {
    expect(speakerTileKey([tile('bob'), tile('carol'), { ...self, speaking: true }])).toBe('bob');
    expect(speakerTileKey([self])).toBe('self');
    expect(speakerTileKey([])).toBeUndefined();
  });

  it('shows another person’s shared screen before any speaker, never your own', () => {
    expect(speakerTileKey([tile('screen:bob', { kind: 'screen' }), tile('carol', { speaking: true, lastSpokeAt: 1 }), self])).toBe('screen:bob');
    // Your own screen you know: the speaker stays who speaks.
    expect(speakerTileKey([tile('screen:own', { kind: 'screen', isSelf: true }), tile('carol', { speaking: true, lastSpokeAt: 1 }), self])).toBe('carol');
  });
});
