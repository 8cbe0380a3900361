import type { ChatMessage, RoomEvent } from '../../protocol/entities';
import { meAction } from '../../protocol/meCommand';
import type { DesktopNotice } from './desktopNotifications';
import type { ToneKind } from './tones';

/** What a batch of arrivals asks for: at most one tone, and the notifications to show if nobody is looking. */
export interface Alerts {
  tone: ToneKind | undefined;
  /**
   * The plain leaves among the arrivals when nothing else chimes: their tone waits (LeaveHold),
   * since a leave may be a replaced connection, back at once.
   */
  departures: string[];
  notices: DesktopNotice[];
}

/** Tones by importance: one batch plays only the most important. */
const TONE_ORDER: readonly ToneKind[] = ['attention', 'message', 'joined', 'left'];
const NOTICE_BODY_LENGTH = 200;
const MESSAGE_TAG = 'parley-message:';

/** A notice of new messages (not of an attention request): one a visible chat may read meanwhile (NoticeHold). */
export function isMessageNotice(notice: DesktopNotice): boolean {
  return notice.tag.startsWith(MESSAGE_TAG);
}

function toneOf(event: RoomEvent): ToneKind | undefined {
  switch (event.kind) {
    case 'joined':
      return 'joined';
    case 'kicked':
    case 'banned':
      return 'left';
    case 'attention':
      return 'attention';
    default:
      return undefined;
  }
}

/** A message as a notification says it: an action (`/me`) with its sender's name, else the text, named unless the title names the sender. */
function noticeText(message: ChatMessage, titleNamesSender: boolean): string {
  const action = meAction(message.body);
  if (action !== undefined) return `${message.displayName} ${action}`;
  return titleNamesSender ? message.body : `${message.displayName}: ${message.body}`;
}

/**
 * What is new in a room's chat since the last look (issue 15: sounds, desktop notifications). The
 * first look only learns what is there: opening a room (or a reload) is not news. Nor is the history
 * a join brings, which comes after the first look of a room still joining: a message counts only if
 * it is no older than the room's join as this view first saw it, so that a rejoin's history after a
 * lost connection chimes only for what was said meanwhile. Only others' messages and events count;
 * several messages at once (a rejoin's history) make one notification.
 */
export class RoomArrivals {
  private seen: Set<string> | undefined;
  /** When the room was joined as this view first saw it joined (Room.joinedAt): older messages are history. */
  private newsSince: number | undefined;

  constructor(private readonly roomName: string) {}

  /** `joinedAt`: the room's Room.joinedAt while it is joined (undefined while it is not). */
  look(messages: readonly ChatMessage[], events: readonly RoomEvent[], joinedAt?: number): Alerts {
    this.newsSince ??= joinedAt;
    const { newsSince } = this;
    const seen = this.seen;
    this.seen = new Set([...messages.map((message) => message.id), ...events.map((event) => event.id)]);
    if (!seen) return { tone: undefined, departures: [], notices: [] };
    const newMessages = messages.filter((message) => message.direction === 'incoming' && !seen.has(message.id) && message.time >= (newsSince ?? 0));
    const newEvents = events.filter((event) => !seen.has(event.id));
    const tones = new Set([...newEvents.map(toneOf), ...(newMessages.length > 0 ? ['message' as const] : [])]);
    const notices: DesktopNotice[] = [];
    const last = newMessages.at(-1);
    if (last) {
      notices.push({
        title: newMessages.length === 1 ? `${last.displayName}${last.privately ? ', to you only,' : ''} in ${this.roomName}` : `${newMessages.length} new messages in ${this.roomName}`,
        body: noticeText(last, newMessages.length === 1).slice(0, NOTICE_BODY_LENGTH),
        tag: `${MESSAGE_TAG}${last.roomAddress}`,
      });
    }
    for (const event of newEvents.filter((event) => event.kind === 'attention')) {
      notices.push({ title: `${event.displayName ?? 'Someone'} asks for your attention`, body: `in ${this.roomName}`, tag: `parley-attention:${event.roomAddress}` });
    }
    const tone = TONE_ORDER.find((kind) => tones.has(kind));
    const departures = tone ? [] : newEvents.filter((event) => event.kind === 'left').map((event) => event.id);
    return { tone, departures, notices };
  }
}
