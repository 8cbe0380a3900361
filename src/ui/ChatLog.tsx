import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { CHAT } from '../protocol/constants';
import type { ChatMessage, RoomEvent } from '../protocol/entities';
import { ChatEventLine } from './ChatEventLine';
import { ChatMessageGroup } from './ChatMessageGroup';
import { chatTimeline } from './chatTimeline';
import { formatDay } from './formatTime';
import { Icon } from './Icon';
import type { PrivateRecipient } from './privateRecipient';
import { useToday } from './useToday';

interface ChatLogProps {
  messages: readonly ChatMessage[];
  /** Event lines (joins, leaves, …) shown between the messages. */
  events: readonly RoomEvent[];
  /** The leaves the call has not settled (`heldLeaveIdsAtomFamily`): their lines say the person is reconnecting. */
  heldLeaveIds: ReadonlySet<string>;
  editableId: string | undefined;
  onEdit: (message: ChatMessage) => void;
  onReplyPrivately: (recipient: PrivateRecipient) => void;
  /** Your occupant address in the room: which reactions are yours. */
  selfAddress: string | undefined;
  /** Whether a message's text names you (mentionMatcher). */
  mentionsYou: (body: string) => boolean;
  /** The first message that came while you were not looking, if any: a line says the new ones start there. */
  newFrom: string | undefined;
  /** What an empty log says. */
  emptyText: string;
  /** The log is on screen (a closed chat panel keeps it, hidden and empty). */
  shown: boolean;
}

/**
 * The room's messages, grouped (SPEC §9: 300 s), with its event lines. It stays at the bottom as messages arrive while
 * you are within 30 px of it, and stays put while you read further up; then a button says how many
 * messages came below and takes you to them. A message of your own takes you to it, wherever you were.
 */
export function ChatLog({ messages, events, heldLeaveIds, editableId, onEdit, onReplyPrivately, selfAddress, mentionsYou, newFrom, emptyText, shown }: ChatLogProps) {
  // A closed chat renders no lines: each would format its times (a page's first formatting loads
  // the locale's date data, tens of ms of the main thread) for nobody to see, and on a join the
  // arrivals' lines came as the first offer was being answered (issue 14). Opening it renders them.
  const items = useMemo(() => (shown ? chatTimeline(messages, events, newFrom) : []), [messages, events, shown, newFrom]);
  const today = useToday(shown && items.some((item) => item.kind === 'day'));
  const ref = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const lastScrollTop = useRef(0);
  const [newBelow, setNewBelow] = useState(0);
  // By the last one rather than by count: at LIMITS.chatMessagesPerRoom the oldest goes as each comes.
  const lastSeenId = useRef(messages.at(-1)?.id);

  // Where the log puts itself is where a scroll up is measured from: the browser sends one scroll
  // event a frame, so a person's scroll in the frame of this move comes with no event of its own.
  const scrollToBottomIfStuck = () => {
    const log = ref.current;
    if (!log || !stuck.current) return;
    log.scrollTop = log.scrollHeight;
    lastScrollTop.current = log.scrollTop;
  };

  // Before the frame, so that a new line never shows above the bottom. Not while hidden: reading its
  // height would make the browser lay the page out there and then, for nothing (issue 14: ~30–45 ms
  // per join, when every arrival adds a line); the resize observer scrolls once it is shown.
  useLayoutEffect(() => {
    const added = messages.slice(messages.findLastIndex((message) => message.id === lastSeenId.current) + 1);
    lastSeenId.current = messages.at(-1)?.id;
    // A chat opened again starts at its latest line.
    if (!shown || added.some((message) => message.direction === 'outgoing')) stuck.current = true;
    if (stuck.current) setNewBelow(0);
    else setNewBelow((count) => count + added.length);
    if (shown) scrollToBottomIfStuck();
  }, [items, shown]);

  // The log shrinks when the typing line appears or the window changes: keep the bottom in view.
  useEffect(() => {
    const log = ref.current;
    if (!log) return;
    const observer = new ResizeObserver(scrollToBottomIfStuck);
    observer.observe(log);
    return () => observer.disconnect();
  }, []);

  // Only scrolling up leaves the bottom. A scroll event may arrive after the layout moved on (the
  // typing line took room from the log before the resize observer caught up), and must not count.
  const onScroll = () => {
    const log = ref.current;
    if (!log) return;
    if (log.scrollHeight - log.scrollTop - log.clientHeight <= CHAT.scrollStickPx) {
      stuck.current = true;
      setNewBelow(0);
    } else if (log.scrollTop < lastScrollTop.current) stuck.current = false;
    lastScrollTop.current = log.scrollTop;
  };

  // The button goes as it is pressed: focus goes to the log it brought into view.
  const showLatest = () => {
    stuck.current = true;
    setNewBelow(0);
    scrollToBottomIfStuck();
    ref.current?.focus({ preventScroll: true });
  };

  return (
    <div className="chat-log-frame">
      <div ref={ref} role="log" aria-label="Chat" className="chat-log" tabIndex={0} onScroll={onScroll}>
        {messages.length === 0 && <p className="chat-empty muted">{emptyText}</p>}
        {items.map((item) =>
          item.kind === 'group' ? (
            <ChatMessageGroup key={item.key} group={item.group} editableId={editableId} onEdit={onEdit} onReplyPrivately={onReplyPrivately} selfAddress={selfAddress} mentionsYou={mentionsYou} />
          ) : item.kind === 'event' ? (
            <ChatEventLine key={item.key} event={item.event} held={heldLeaveIds.has(item.event.id)} />
          ) : item.kind === 'day' ? (
            <h3 key={item.key} className="chat-day">
              {formatDay(item.time, today)}
            </h3>
          ) : (
            <h3 key={item.key} className="chat-day chat-new">
              New messages
            </h3>
          ),
        )}
      </div>
      {newBelow > 0 && (
        <button type="button" className="chat-new-below" onClick={showLatest}>
          {newBelow === 1 ? '1 new message' : `${newBelow} new messages`}
          <Icon size={16}>
            <path d="M12 5v14M6 13l6 6 6-6" />
          </Icon>
        </button>
      )}
    </div>
  );
}
