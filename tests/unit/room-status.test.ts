import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import { RoomOpenFailure } from '../../src/ui/RoomOpenFailure';

describe('A room page whose name cannot name a room says why in the home page’s words, not the session’s (issue 12: errors in plain words)', () => {
  it('a name with no letters or digits, and one too long: the home page’s sentence, no developer text', () => {
    expect(renderToStaticMarkup(createElement(RoomOpenFailure, { roomName: '!!!', error: 'room name has no letters or digits' }))).toBe(
      '<p>Could not open the room. That room name has no letters or digits that can name a room.</p>',
    );
    const tooLong = `A room name has at most ${LIMITS.roomNameLength} characters; this one has ${LIMITS.roomNameLength + 1}.`;
    expect(renderToStaticMarkup(createElement(RoomOpenFailure, { roomName: 'x'.repeat(LIMITS.roomNameLength + 1), error: tooLong }))).toBe(`<p>Could not open the room. ${tooLong}</p>`);
  });

  it('any other failure keeps the session’s text as a detail', () => {
    expect(renderToStaticMarkup(createElement(RoomOpenFailure, { roomName: 'standup', error: 'Room name not provided.' }))).toBe(
      '<p>Could not open the room. <span class="detail">(Room name not provided.)</span></p>',
    );
  });
});
