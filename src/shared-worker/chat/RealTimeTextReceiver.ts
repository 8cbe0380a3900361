import type { Stanzas } from 'stanza';
import { LIMITS } from '../../protocol/constants';

interface Stream {
  /** The peer's text so far, in Unicode code points. */
  text: number[];
  /** The seq the next `edit` must carry; undefined: any (a fresh stream after a message). */
  nextSeq: number | undefined;
  /** False after a lost or malformed event: edits wait for the next `new` or `reset`. */
  synced: boolean;
}

/** What an `<rtt>` element did to a peer's text. */
export type RealTimeTextResult = { kind: 'text'; text: string } | { kind: 'ignored'; reason: string };

/** XEP-0301 §4.1: seq is an integer below 1 000 000 000. */
const MAX_SEQ = 999_999_999;

/**
 * Real-time text from each peer (XEP-0301, `urn:xmpp:rtt:0`), applied at once and in order: `new`
 * and `reset` start the text again (then apply their actions), `edit` applies insert and erase
 * actions when its seq follows the last one, `init` and `cancel` clear it, and waits are not
 * replayed (the text is shown live). Everything is bounded: the text to LIMITS.chatBodyLength code
 * points, an element to LIMITS.rttActionsPerEvent actions; a malformed or out-of-sequence
 * event leaves the text as it is and stops edits until the next `new`/`reset` (XEP-0301 §6.4.2).
 * StanzaJS's DisplayBuffer is not used: it applies actions asynchronously on the wall clock.
 */
export class RealTimeTextReceiver {
  private readonly streams = new Map<string, Stream>();

  receive(peerAddress: string, rtt: Stanzas.RTT): RealTimeTextResult {
    const stream = this.streams.get(peerAddress) ?? { text: [], nextSeq: undefined, synced: true };
    this.streams.set(peerAddress, stream);
    const event = rtt.event ?? 'edit';
    const seq = rtt.seq;
    if (seq !== undefined && (!Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ)) return this.lose(stream, 'seq is not an integer in range');
    const actions = rtt.actions ?? [];
    if (actions.length > LIMITS.rttActionsPerEvent) return this.lose(stream, `more than ${LIMITS.rttActionsPerEvent} actions`);

    switch (event) {
      case 'init':
      case 'cancel':
        stream.text = [];
        stream.nextSeq = undefined;
        stream.synced = true;
        return { kind: 'text', text: '' };
      case 'new':
      case 'reset': {
        const text = applyActions([], actions);
        if (typeof text === 'string') return this.lose(stream, text);
        stream.text = text;
        stream.synced = true;
        stream.nextSeq = seq === undefined ? undefined : seq + 1;
        return { kind: 'text', text: String.fromCodePoint(...text) };
      }
      case 'edit': {
        if (!stream.synced) return { kind: 'ignored', reason: 'out of sync: waiting for a new or reset event' };
        if (stream.nextSeq !== undefined && seq !== stream.nextSeq) return this.lose(stream, `expected seq ${stream.nextSeq}, got ${String(seq)}`);
        const text = applyActions(stream.text, actions);
        if (typeof text === 'string') return this.lose(stream, text);
        stream.text = text;
        stream.nextSeq = seq === undefined ? undefined : seq + 1;
        return { kind: 'text', text: String.fromCodePoint(...text) };
      }
      default:
        return { kind: 'ignored', reason: `unknown event ${String(event)}` };
    }
  }

  /** The peer's text is done (their message arrived, they left, or they are not known): the next one starts afresh. */
  endStream(peerAddress: string): void {
    this.streams.delete(peerAddress);
  }

  /** The connection is gone. */
  reset(): void {
    this.streams.clear();
  }

  private lose(stream: Stream, reason: string): RealTimeTextResult {
    stream.synced = false;
    return { kind: 'ignored', reason };
  }
}

/**
 * Applies insert (`t`) and erase (`e`) actions to a copy of the text; waits (`w`) are skipped.
 * Positions and lengths count code points; a position beyond the text means its end. Returns the
 * new text, or the reason the actions were refused.
 */
function applyActions(current: readonly number[], actions: readonly Stanzas.RTTAction[]): number[] | string {
  const text = [...current];
  for (const action of actions) {
    if (action.type === 'wait') continue;
    const position = action.position;
    if (position !== undefined && (!Number.isInteger(position) || position < 0)) return 'an action position is not a non-negative integer';
    const at = Math.min(position ?? text.length, text.length);
    if (action.type === 'insert') {
      const inserted = typeof action.text === 'string' ? Array.from(action.text.normalize('NFC'), (char) => char.codePointAt(0) as number) : [];
      if (text.length + inserted.length > LIMITS.chatBodyLength) return `the text would be longer than ${LIMITS.chatBodyLength} characters`;
      text.splice(at, 0, ...inserted);
    } else if (action.type === 'erase') {
      const length = action.length ?? 1;
      if (!Number.isInteger(length) || length < 0) return 'an erase length is not a non-negative integer';
      const erased = Math.min(length, at);
      text.splice(at - erased, erased);
    } else {
      return 'unknown action';
    }
  }
  return text;
}
