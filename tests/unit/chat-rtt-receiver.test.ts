// XEP-0301 real-time text as Parley receives it: events applied in order, bounded, and resynchronised
// only by `new`/`reset`. Pure: the receiver holds no timers and sends nothing.
import { RTT, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import { RealTimeTextReceiver } from '../../src/shared-worker/chat/RealTimeTextReceiver';

const PEER = 'room@rooms.example/peer';

function textAfter(receiver: RealTimeTextReceiver, ...events: Stanzas.RTT[]): string | undefined {
  let text: string | undefined;
  for (const event of events) {
    const result = receiver.receive(PEER, event);
    text = result.kind === 'text' ? result.text : text;
  }
  return text;
}

describe('XEP-0301 real-time text: new, edit, reset, cancel', () => {
  it('builds the text from a new event and the edits that follow it in sequence', () => {
    const receiver = new RealTimeTextReceiver();
    expect(
      textAfter(
        receiver,
        { event: 'new', seq: 7, actions: [{ type: 'insert', text: 'helo' }] },
        { event: 'edit', seq: 8, actions: [{ type: 'insert', text: 'l', position: 3 }] },
        { event: 'edit', seq: 9, actions: [{ type: 'wait', duration: 300 }, { type: 'insert', text: ' world' }] },
        { event: 'edit', seq: 10, actions: [{ type: 'erase', length: 5 }, { type: 'insert', text: 'there' }] },
      ),
    ).toBe('hello there');
  });

  it('counts positions and lengths in code points, as StanzaJS computes them', () => {
    const receiver = new RealTimeTextReceiver();
    expect(textAfter(receiver, { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'a👋b' }] }, { event: 'edit', seq: 2, actions: [{ type: 'erase', position: 2, length: 1 }] })).toBe('ab');
  });

  it("reads back what StanzaJS's InputBuffer writes", () => {
    const receiver = new RealTimeTextReceiver();
    const input = new RTT.InputBuffer(undefined, true);
    input.start();
    for (const draft of ['Hel', 'Hello', 'Hello wrld', 'Hello world 🌍', 'Hi world 🌍']) {
      input.update(draft);
      expect(textAfter(receiver, input.diff()!)).toBe(draft);
    }
  });

  it('a reset replaces the text; cancel and init clear it', () => {
    const receiver = new RealTimeTextReceiver();
    textAfter(receiver, { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'abc' }] });
    expect(textAfter(receiver, { event: 'reset', seq: 50, actions: [{ type: 'insert', text: 'xyz' }] })).toBe('xyz');
    expect(textAfter(receiver, { event: 'edit', seq: 51, actions: [{ type: 'insert', text: '!' }] })).toBe('xyz!');
    expect(textAfter(receiver, { event: 'cancel' })).toBe('');
    expect(textAfter(receiver, { event: 'new', seq: 3, actions: [{ type: 'insert', text: 'q' }] })).toBe('q');
    expect(textAfter(receiver, { event: 'init' })).toBe('');
  });

  it('starts afresh after the peer’s message arrived', () => {
    const receiver = new RealTimeTextReceiver();
    textAfter(receiver, { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'sent text' }] });
    receiver.endStream(PEER);
    // A sender that does not start with `new` (StanzaJS's InputBuffer after commit) continues on an empty text.
    expect(textAfter(receiver, { event: 'edit', seq: 0, actions: [{ type: 'insert', text: 'next' }] })).toBe('next');
  });
});

describe('XEP-0301 §6.4: a lost or malformed event leaves the text and waits for new or reset', () => {
  it('ignores edits after a gap in seq until a reset', () => {
    const receiver = new RealTimeTextReceiver();
    textAfter(receiver, { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'abc' }] });
    expect(receiver.receive(PEER, { event: 'edit', seq: 3, actions: [{ type: 'insert', text: 'X' }] })).toMatchObject({ kind: 'ignored' });
    expect(receiver.receive(PEER, { event: 'edit', seq: 4, actions: [{ type: 'insert', text: 'Y' }] })).toMatchObject({ kind: 'ignored' });
    expect(textAfter(receiver, { event: 'reset', seq: 9, actions: [{ type: 'insert', text: 'abcd' }] })).toBe('abcd');
  });

  it('refuses negative positions and lengths, and unknown events', () => {
    const receiver = new RealTimeTextReceiver();
    textAfter(receiver, { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'abc' }] });
    expect(receiver.receive(PEER, { event: 'edit', seq: 2, actions: [{ type: 'insert', text: 'X', position: -1 }] })).toMatchObject({ kind: 'ignored' });
    const other = new RealTimeTextReceiver();
    textAfter(other, { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'abc' }] });
    expect(other.receive(PEER, { event: 'edit', seq: 2, actions: [{ type: 'erase', length: Number.NaN }] })).toMatchObject({ kind: 'ignored' });
    expect(other.receive(PEER, { event: 'bogus' as Stanzas.RTT['event'], seq: 3 })).toMatchObject({ kind: 'ignored' });
    expect(other.receive(PEER, { event: 'new', seq: -5 })).toMatchObject({ kind: 'ignored' });
  });

  it('clamps positions beyond the text to its end and erases no further than its start', () => {
    const receiver = new RealTimeTextReceiver();
    expect(
      textAfter(
        receiver,
        { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'abc' }] },
        { event: 'edit', seq: 2, actions: [{ type: 'insert', text: '!', position: 99 }] },
        { event: 'edit', seq: 3, actions: [{ type: 'erase', position: 2, length: 10 }] },
      ),
    ).toBe('c!');
  });

  it(`bounds the text to LIMITS.chatBodyLength and an event to LIMITS.rttActionsPerEvent actions`, () => {
    const receiver = new RealTimeTextReceiver();
    textAfter(receiver, { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'x'.repeat(LIMITS.chatBodyLength) }] });
    expect(receiver.receive(PEER, { event: 'edit', seq: 2, actions: [{ type: 'insert', text: 'y' }] })).toMatchObject({ kind: 'ignored' });

    const other = new RealTimeTextReceiver();
    const many: Stanzas.RTTAction[] = Array.from({ length: LIMITS.rttActionsPerEvent + 1 }, () => ({ type: 'insert', text: 'a' }));
    expect(other.receive(PEER, { event: 'new', seq: 1, actions: many })).toMatchObject({ kind: 'ignored' });
    expect(other.receive(PEER, { event: 'new', seq: 1, actions: many.slice(1) })).toMatchObject({ kind: 'text' });
  });

  it('keeps each peer’s text apart', () => {
    const receiver = new RealTimeTextReceiver();
    receiver.receive('room@rooms.example/a', { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'from a' }] });
    expect(receiver.receive('room@rooms.example/b', { event: 'new', seq: 1, actions: [{ type: 'insert', text: 'from b' }] })).toEqual({ kind: 'text', text: 'from b' });
    expect(receiver.receive('room@rooms.example/a', { event: 'edit', seq: 2, actions: [{ type: 'insert', text: '!' }] })).toEqual({ kind: 'text', text: 'from a!' });
  });
});
