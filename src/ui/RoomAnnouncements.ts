import { LeaveHold, type LeaveHoldOptions } from '../main-thread/alerts/LeaveHold';
import type { RoomEvent } from '../protocol/entities';
import { roomEventText, unannouncedEvents } from './roomEventText';

export interface RoomAnnouncementsOptions extends LeaveHoldOptions {
  /** The chat is open: its log, a live region of its own, reads the lines. */
  readonly chatShown: () => boolean;
  readonly say: (text: string) => void;
}

/**
 * What RoomAnnouncer's live region says of the room's event lines: each new line once, none that was
 * there when the page opened, and a plain leave only once LeaveHold has shown it was one — a
 * connection the server replaced is said as "X reconnected", never "X left" first.
 */
export class RoomAnnouncements {
  private seen: Set<string> | undefined;
  private readonly leaves: LeaveHold;

  constructor(private readonly options: RoomAnnouncementsOptions) {
    this.leaves = new LeaveHold(options);
  }

  look(events: readonly RoomEvent[]): void {
    const news = unannouncedEvents(this.seen, events);
    this.seen = new Set(events.map((event) => event.id));
    if (news.length === 0 || this.options.chatShown()) return;
    const leaves = news.filter((event) => event.kind === 'left');
    this.sayAll(news.filter((event) => event.kind !== 'left'));
    if (leaves.length === 0) return;
    this.leaves.hold(
      leaves.map((event) => event.id),
      (shown) => {
        if (!this.options.chatShown()) this.sayAll(leaves.filter((event) => shown.includes(event.id)));
      },
    );
  }

  dispose(): void {
    this.leaves.dispose();
  }

  private sayAll(events: readonly RoomEvent[]): void {
    if (events.length > 0) this.options.say(events.map((event) => `${roomEventText(event)}.`).join(' '));
  }
}
