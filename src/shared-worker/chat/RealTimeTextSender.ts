import { RTT, type Stanzas } from 'stanza';
import { CHAT } from '../../protocol/constants';
import type { Clock } from '../../common/clock';
import { sameItems } from '../../common/sameItems';

/** Sends one `<rtt>` element to a room; false when it could not be sent. */
export type SendRealTimeText = (roomAddress: string, rtt: Stanzas.RTT) => boolean;

/** XEP-0301 §4.2.3: seq is below 1 000 000 000; a new message starts at a random value well below. */
const SEQ_START_RANGE = 100_000;

interface Stream {
  /** The text the room has been shown so far, in Unicode code points. */
  shown: number[];
  /** The current draft, in code points. */
  draft: number[];
  /** A `new` event has been sent for this message. */
  started: boolean;
  seq: number;
  timer: unknown;
  /** 'first': waiting CHAT.rttFirstSendMs after the first change; 'interval': sending every CHAT.rttIntervalMs. */
  phase: 'idle' | 'first' | 'interval';
}

/**
 * Our real-time text per room (XEP-0301, SPEC §9): the draft's edits go out CHAT.rttFirstSendMs
 * after the first change, then every CHAT.rttIntervalMs while the draft keeps changing; a quiet
 * interval ends the cycle, and the next change starts it again. Each message starts with a `new`
 * event (random seq), then `edit` events with consecutive seq. Sending the message resets the
 * stream. Edits are computed by StanzaJS's `RTT.diff` on code points; timing is ours, on the
 * injected clock (StanzaJS's InputBuffer reads the wall clock, so it is not used).
 */
export class RealTimeTextSender {
  private readonly streams = new Map<string, Stream>();

  constructor(
    private readonly clock: Clock,
    private readonly send: SendRealTimeText,
  ) {}

  /** The whole current draft. */
  update(roomAddress: string, draft: string): void {
    const stream = this.streams.get(roomAddress) ?? this.newStream(roomAddress);
    stream.draft = Array.from(draft.normalize('NFC'), (char) => char.codePointAt(0) as number);
    if (stream.phase === 'idle' && !sameItems(stream.shown, stream.draft)) {
      stream.phase = 'first';
      stream.timer = this.clock.setTimeout(() => this.firstSend(roomAddress, stream), CHAT.rttFirstSendMs);
    }
  }

  /** The message was sent: the next draft is a new real-time message. */
  reset(roomAddress: string): void {
    const stream = this.streams.get(roomAddress);
    if (!stream) return;
    this.stopTimer(stream);
    this.streams.delete(roomAddress);
  }

  /**
   * The draft is gone (emptied, or real-time text turned off): a room that was shown part of it
   * gets one `cancel` (XEP-0301 §4.2.2: the receiver clears it), and the next draft is a new message.
   */
  cancel(roomAddress: string): void {
    const stream = this.streams.get(roomAddress);
    if (stream?.started && stream.shown.length > 0) this.send(roomAddress, { event: 'cancel', seq: stream.seq + 1 });
    this.reset(roomAddress);
  }

  /** Real-time text was turned off: every room's draft is cancelled. */
  cancelAll(): void {
    for (const roomAddress of [...this.streams.keys()]) this.cancel(roomAddress);
  }

  /** The connection is gone: every timer stops and every stream starts again. */
  resetAll(): void {
    for (const roomAddress of [...this.streams.keys()]) this.reset(roomAddress);
  }

  private newStream(roomAddress: string): Stream {
    const stream: Stream = { shown: [], draft: [], started: false, seq: 0, timer: undefined, phase: 'idle' };
    this.streams.set(roomAddress, stream);
    return stream;
  }

  private firstSend(roomAddress: string, stream: Stream): void {
    if (this.streams.get(roomAddress) !== stream) return;
    stream.timer = undefined;
    if (!this.flush(roomAddress, stream)) {
      stream.phase = 'idle';
      return;
    }
    stream.phase = 'interval';
    stream.timer = this.clock.setInterval(() => {
      if (this.streams.get(roomAddress) !== stream) return;
      // The draft stopped changing: the cycle ends until the next change.
      if (!this.flush(roomAddress, stream)) this.stopTimer(stream);
    }, CHAT.rttIntervalMs);
  }

  /** Sends the edits since the last send; false when there were none (or they could not be sent). */
  private flush(roomAddress: string, stream: Stream): boolean {
    const actions = RTT.diff(stream.shown, stream.draft);
    if (actions.length === 0) return false;
    const rtt: Stanzas.RTT = stream.started
      ? { event: 'edit', seq: stream.seq + 1, actions }
      : { event: 'new', seq: Math.floor(this.clock.random() * SEQ_START_RANGE), actions };
    if (!this.send(roomAddress, rtt)) return false;
    stream.started = true;
    stream.seq = rtt.seq as number;
    stream.shown = stream.draft;
    return true;
  }

  private stopTimer(stream: Stream): void {
    if (stream.timer !== undefined) {
      if (stream.phase === 'interval') this.clock.clearInterval(stream.timer);
      else this.clock.clearTimeout(stream.timer);
    }
    stream.timer = undefined;
    stream.phase = 'idle';
  }
}
