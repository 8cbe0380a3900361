import { describe, expect, it } from 'vitest';
import { parseRoomLayout } from '../../src/ui/roomLayout';

describe('Room layout: the call fills the window until the person opens a panel (issue 15, stage first)', () => {
  it('starts with People and Chat closed and the grid view when nothing is remembered', () => {
    expect(parseRoomLayout(null)).toEqual({ people: false, chat: false, view: 'grid' });
  });

  it('keeps a panel closed that the person has not chosen, whatever the rest remembers', () => {
    expect(parseRoomLayout(JSON.stringify({ view: 'speaker' }))).toEqual({ people: false, chat: false, view: 'speaker' });
    expect(parseRoomLayout(JSON.stringify({ chat: true }))).toEqual({ people: false, chat: true, view: 'grid' });
  });

  it('remembers panels the person opened and closed', () => {
    expect(parseRoomLayout(JSON.stringify({ people: true, chat: false, view: 'grid' }))).toEqual({ people: true, chat: false, view: 'grid' });
  });

  it('falls back to the closed default for what storage holds that is not a layout', () => {
    for (const stored of ['not json', 'null', '42', JSON.stringify({ people: 'yes', chat: 1, view: 'tiles' })]) {
      expect(parseRoomLayout(stored)).toEqual({ people: false, chat: false, view: 'grid' });
    }
  });
});
