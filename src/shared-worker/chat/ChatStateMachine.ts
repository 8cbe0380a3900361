import { CHAT } from '../../protocol/constants';
import type { ChatState } from '../../protocol/entities';
import type { Clock } from '../../common/clock';

/** Sends a chat state to a room; false when it could not be sent (not connected, not in the room). */
export type SendChatState = (roomAddress: string, state: ChatState) => boolean;

/**
 * Our own chat state per room (SPEC §4 chat state, XEP-0085 in groupchat): active, composing,
 * paused. A state is sent only when it changes. Composing turns to paused after
 * CHAT.pausedAfterMs without a change of the draft; an empty draft returns to active; sending a
 * message (which carries `<active/>`) is active too.
 */
export class ChatStateMachine {
  /** The last state the room was told. */
  private readonly sent = new Map<string, ChatState>();
  private readonly pausedTimers = new Map<string, unknown>();

  constructor(
    private readonly clock: Clock,
    private readonly send: SendChatState,
  ) {}

  /** The state the room was last told, if any. */
  stateOf(roomAddress: string): ChatState | undefined {
    return this.sent.get(roomAddress);
  }

  /** An explicit state (setChatState): composing still turns to paused when nothing changes. */
  set(roomAddress: string, state: ChatState): void {
    this.stopPausedTimer(roomAddress);
    this.transmit(roomAddress, state);
    if (state === 'composing') this.startPausedTimer(roomAddress);
  }

  /** The draft changed: composing while it has text, each change restarting the pause countdown; active when empty. */
  draftChanged(roomAddress: string, draftIsEmpty: boolean): void {
    if (draftIsEmpty) {
      this.set(roomAddress, 'active');
      return;
    }
    this.stopPausedTimer(roomAddress);
    this.transmit(roomAddress, 'composing');
    this.startPausedTimer(roomAddress);
  }

  /** A message carrying `<active/>` went out. */
  messageSent(roomAddress: string): void {
    this.stopPausedTimer(roomAddress);
    this.sent.set(roomAddress, 'active');
  }

  /** Forgets a room (left, or the connection is gone): no timer survives it. */
  forget(roomAddress: string): void {
    this.stopPausedTimer(roomAddress);
    this.sent.delete(roomAddress);
  }

  /** The connection is gone: every timer stops, and a new connection starts with nothing sent. */
  reset(): void {
    for (const roomAddress of [...this.pausedTimers.keys()]) this.stopPausedTimer(roomAddress);
    this.sent.clear();
  }

  private transmit(roomAddress: string, state: ChatState): void {
    if (this.sent.get(roomAddress) === state) return;
    if (this.send(roomAddress, state)) this.sent.set(roomAddress, state);
  }

  private startPausedTimer(roomAddress: string): void {
    const timer = this.clock.setTimeout(() => {
      if (this.pausedTimers.get(roomAddress) !== timer) return;
      this.pausedTimers.delete(roomAddress);
      this.transmit(roomAddress, 'paused');
    }, CHAT.pausedAfterMs);
    this.pausedTimers.set(roomAddress, timer);
  }

  private stopPausedTimer(roomAddress: string): void {
    const timer = this.pausedTimers.get(roomAddress);
    if (timer === undefined) return;
    this.clock.clearTimeout(timer);
    this.pausedTimers.delete(roomAddress);
  }
}
