import { memo, useId, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../common/errorMessage';
import type { ChatMessage } from '../protocol/entities';
import { meAction } from '../protocol/meCommand';
import { useActions } from './tabContext';
import { formatDateTime, formatTime } from './formatTime';
import { DeleteMessageControl } from './DeleteMessageControl';
import { Icon } from './Icon';
import { MessageBody } from './MessageBody';
import { MessageReactions } from './MessageReactions';
import { useMenu } from './useMenu';
import { useLogFocusOnceGone } from './useLogFocusOnceGone';
import type { ChatMessageGroup as Group } from './groupChatMessages';
import type { PrivateRecipient } from './privateRecipient';

interface ChatMessageGroupProps {
  group: Group;
  /** The message "Edit" corrects: your last one. */
  editableId: string | undefined;
  onEdit: (message: ChatMessage) => void;
  /** "Reply privately" on a private message: the composer writes to its sender alone. */
  onReplyPrivately: (recipient: PrivateRecipient) => void;
  /** Your occupant address in the room (Room.selfAddress): which reactions are yours. */
  selfAddress: string | undefined;
  /** Whether a message's text names you (mentionMatcher). */
  mentionsYou: (body: string) => boolean;
}

/**
 * A message's text; a `/me` message (XEP-0245) reads as its sender's action: "Dave waves"; one its
 * sender took back (XEP-0424) says so in its place.
 */
function MessageText({ message, id, children }: { message: ChatMessage; id: string; children: ReactNode }) {
  if (message.retracted) {
    return (
      <p id={id} className="message-body message-retracted">
        This message was deleted.
      </p>
    );
  }
  const action = meAction(message.body);
  if (action === undefined) {
    return (
      <p id={id} className="message-body">
        <MessageBody text={message.body} />
        {children}
      </p>
    );
  }
  return (
    <p id={id} className="message-body message-action">
      <span className="message-action-sender">{message.displayName}</span> <MessageBody text={action} />
      {children}
    </p>
  );
}

/**
 * Retry on a message that was not sent. Pressed, it goes as the message is sent again, and the focus
 * to the chat's log (as after a delete); refused (you left the room as you pressed it), it says why.
 */
function RetrySending({ messageId }: { messageId: string }) {
  const actions = useActions();
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const button = useRef<HTMLButtonElement>(null);
  const logFocus = useLogFocusOnceGone();

  function retry() {
    setRefusal(undefined);
    logFocus.pressed(button.current);
    actions.chat.retryChat(messageId).catch((error: unknown) => {
      logFocus.cancel();
      setRefusal(errorMessage(error));
    });
  }

  return (
    <>
      {' '}
      <button ref={button} type="button" className="link-button" onClick={retry}>
        Retry
      </button>
      {refusal !== undefined && <> Not sent again ({refusal}).</>}
    </>
  );
}

interface ChatMessageItemProps {
  message: ChatMessage;
  editable: boolean;
  onEdit: (message: ChatMessage) => void;
  selfAddress: string | undefined;
  mentionsYou: (body: string) => boolean;
}

/**
 * One message: its text (marked when it names you), how much was cut off it when it came too long,
 * its delivery while it is ours and unconfirmed, Edit, React and (ours) Delete, and its reactions
 * under it.
 */
const ChatMessageItem = memo(function ChatMessageItem({ message, editable, onEdit, selfAddress, mentionsYou }: ChatMessageItemProps) {
  const settled = message.direction === 'incoming' || message.acked;
  // Not once deleted, nor while you are out of the room (the session would refuse the reaction).
  const reactable = settled && !message.retracted && selfAddress !== undefined;
  // The picker is a menu whose panel is the whole message: a press on its text keeps it open.
  const picker = useMenu(reactable);
  // The message's own buttons are described by its text: "React", read with what it reacts to.
  const textId = useId();
  const mentioned = message.direction === 'incoming' && mentionsYou(message.body);
  return (
    <div ref={picker.panel} className={`message-item${mentioned ? ' mentions-you' : ''}`}>
      <div className={`message${message.direction === 'outgoing' && !message.acked ? ' pending' : ''}${message.sendError ? ' failed' : ''}`}>
        <MessageText message={message} id={textId}>
          {message.editedTime !== undefined && (
            <span className="message-edited" title={`Edited ${formatDateTime(message.editedTime)}`}>
              {' '}
              (edited)
            </span>
          )}
          {mentioned && <span className="visually-hidden"> (mentions you)</span>}
        </MessageText>
        {message.charactersCut !== undefined && <p className="message-cut">Message cut: {message.charactersCut.toLocaleString()} more characters not shown.</p>}
        {!settled && (
          <p className="message-delivery" role="status">
            {message.sendError ? (
              <>
                Not sent ({message.sendError}).
                {/* Only while you are in the room: the session refuses a retry from outside it. */}
                {selfAddress !== undefined && <RetrySending messageId={message.id} />}
              </>
            ) : (
              'Sending…'
            )}
          </p>
        )}
        {editable && (
          <button type="button" className="link-button message-edit" aria-describedby={textId} onClick={() => onEdit(message)}>
            Edit
          </button>
        )}
        {reactable && (
          <span className="message-actions">
            <button
              ref={picker.opener}
              type="button"
              className="icon-button message-action-button"
              aria-label="React"
              aria-describedby={textId}
              aria-expanded={picker.open}
              onClick={() => picker.setOpen((open) => !open)}
            >
              <Icon size={18}>
                <circle cx="12" cy="12" r="9" />
                <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
              </Icon>
            </button>
            {message.direction === 'outgoing' && <DeleteMessageControl message={message} describedBy={textId} />}
          </span>
        )}
      </div>
      <MessageReactions message={message} selfAddress={selfAddress} picking={picker.open} onPicked={picker.close} reactButton={picker.opener} />
    </div>
  );
});

/** Consecutive messages of one sender under one header with their name and time. Text and links, never HTML. */
export function ChatMessageGroup({ group, editableId, onEdit, onReplyPrivately, selfAddress, mentionsYou }: ChatMessageGroupProps) {
  return (
    <article className={`message-group ${group.direction}${group.privately ? ' private' : ''}`}>
      <header className="message-header">
        <span className="message-sender">{group.displayName}</span>{' '}
        {group.privately && <span className="message-private">{group.recipientName === undefined ? 'to you only' : `to ${group.recipientName} only`}</span>}{' '}
        <time className="message-time" dateTime={new Date(group.startTime).toISOString()} title={formatDateTime(group.startTime)}>
          {formatTime(group.startTime)}
        </time>
      </header>
      {group.messages.map((message) => (
        <ChatMessageItem key={message.id} message={message} editable={message.id === editableId} onEdit={onEdit} selfAddress={selfAddress} mentionsYou={mentionsYou} />
      ))}
      {group.privately && group.direction === 'incoming' && (
        <p className="message-private-note">
          Only you and {group.displayName} read this.{' '}
          <button type="button" className="link-button" onClick={() => onReplyPrivately({ address: group.senderAddress, name: group.displayName, since: group.startTime, reply: true })}>
            Reply privately
          </button>
        </p>
      )}
    </article>
  );
}
