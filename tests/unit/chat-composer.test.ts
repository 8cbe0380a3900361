import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChatComposer } from '../../src/ui/ChatComposer';

const ROOM = 'room@rooms.example';
const dave = { address: `${ROOM}/dave`, name: 'dave', since: 1_000, reply: true };

/** The composer writing privately to dave, with `gone` as ChatPanel computes it from the room. */
function composerFor(gone: 'absent' | 'taken' | undefined): string {
  const none = () => {};
  return renderToStaticMarkup(
    createElement(ChatComposer, {
      inputRef: null,
      draft: 'see you at noon',
      editing: undefined,
      privateTo: dave,
      privateToGone: gone,
      privateReaders: [],
      disabled: false,
      sendOnEnter: true,
      realTimeText: true,
      sounds: true,
      onDraftChange: none,
      onSend: none,
      onEditLast: none,
      onCancelEdit: none,
      onEndPrivate: none,
      onWritePrivately: none,
      onSendOnEnterChange: none,
      onRealTimeTextChange: none,
      onSoundsChange: none,
    }),
  );
}

const sendDisabled = (html: string) => /<button type="submit"[^>]*\bdisabled\b/.test(html);

describe('Private messages: nothing goes to someone who has left, nor to whoever took their nickname after them (XEP-0045 §7.5; beyond the spec)', () => {
  it('says whom it writes to while they are here, and sends', () => {
    const html = composerFor(undefined);
    expect(html).toContain('Replying privately to dave');
    expect(sendDisabled(html)).toBe(false);
  });

  it('says they left, and sends nothing, while nobody has their nickname', () => {
    const html = composerFor('absent');
    expect(html).toContain('dave has left the room: a private message cannot reach them.');
    expect(sendDisabled(html)).toBe(true);
  });

  it('says someone else may have their nickname now, and what to do, and sends nothing', () => {
    const html = composerFor('taken');
    expect(html).toContain('dave left the room, and someone by that name is here now: go back to the room and choose them again to write privately.');
    expect(sendDisabled(html)).toBe(true);
  });
});
