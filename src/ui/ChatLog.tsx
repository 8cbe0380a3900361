import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { CHAT } from '../protocol/constants';
import type { ChatMessage } from '../protocol/entities';
import { ChatMessageGroup } from './ChatMessageGroup';
import { groupChatMessages } from './groupChatMessages';

interface ChatLogProps {
  messages: readonly ChatMessage[];
  editableId: string | undefined;
  onEdit: (message: ChatMessage) => void;
  /** What an empty log says. */
  emptyText: string;
}

/**
 * The room's messages, grouped (SPEC §9: 300 s). It stays at the bottom as messages arrive while
 * you are within 30 px of it, and stays put while you read further up.
 */
export function ChatLog({ messages, editableId, onEdit, emptyText }: ChatLogProps) {
  const groups = useMemo(() => groupChatMessages(messages), [messages]);
  const ref = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const lastScrollTop = useRef(0);

  const scrollToBottomIfStuck = () => {
    const log = ref.current;
    if (log && stuck.current) log.scrollTop = log.scrollHeight;
  };

  useLayoutEffect(scrollToBottomIfStuck, [groups]);

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
    if (log.scrollHeight - log.scrollTop - log.clientHeight <= CHAT.scrollStickPx) stuck.current = true;
    else if (log.scrollTop < lastScrollTop.current) stuck.current = false;
    lastScrollTop.current = log.scrollTop;
  };

  return (
    <div ref={ref} role="log" aria-label="Chat" className="chat-log" tabIndex={0} onScroll={onScroll}>
      {groups.length === 0 && <p className="chat-empty muted">{emptyText}</p>}
      {groups.map((group) => (
        <ChatMessageGroup key={group.key} group={group} editableId={editableId} onEdit={onEdit} />
      ))}
    </div>
  );
}
