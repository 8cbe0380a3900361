import type { ReactNode } from 'react';
import type { ChatMessage } from '../protocol/entities';
import { meAction } from '../protocol/meCommand';
import { useActions } from './tabContext';
import { formatDateTime, formatTime } from './formatTime';
import { MessageBody } from './MessageBody';
import type { ChatMessageGroup as Group } from './groupChatMessages';
import type { PrivateRecipient } from './privateRecipient';

interface ChatMessageGroupProps {
  group: Group;
  /** The message "Edit" corrects: your last one. */
  editableId: string | undefined;
  onEdit: (message: ChatMessage) => void;
  /** "Reply privately" on a private message: the composer writes to its sender alone. */
  onReplyPrivately: (recipient: PrivateRecipient) => void;
}

/**
 * A message's text; a `/me` message (XEP-0245) reads as its sender's action: "Dave waves"; one its
 * sender took back (XEP-0424) says so in its place.
 */
function MessageText({ message, children }: { message: ChatMessage; children: ReactNode }) {
  if (message.retracted) return <p className="message-body message-retracted">This message was deleted.</p>;
  const action = meAction(message.body);
  if (action === undefined) {
    return (
      <p className="message-body">
        <MessageBody text={message.body} />
        {children}
      </p>
    );
  }
  return (
    <p className="message-body message-action">
      <span className="message-action-sender">{message.displayName}</span> <MessageBody text={action} />
      {children}
    </p>
  );
}

/** Consecutive messages of one sender under one header with their name and time. Text and links, never HTML. */
export function ChatMessageGroup({ group, editableId, onEdit, onReplyPrivately }: ChatMessageGroupProps) {
  const actions = useActions();
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
        <div key={message.id} className={`message${message.direction === 'outgoing' && !message.acked ? ' pending' : ''}${message.sendError ? ' failed' : ''}`}>
          <MessageText message={message}>
            {message.editedTime !== undefined && (
              <span className="message-edited" title={`Edited ${formatDateTime(message.editedTime)}`}>
                {' '}
                (edited)
              </span>
            )}
          </MessageText>
          {message.direction === 'outgoing' && !message.acked && (
            <p className="message-delivery" role="status">
              {message.sendError ? (
                <>
                  Not sent ({message.sendError}).{' '}
                  <button type="button" className="link-button" onClick={() => void actions.chat.retryChat(message.id).catch(() => {})}>
                    Retry
                  </button>
                </>
              ) : (
                'Sending…'
              )}
            </p>
          )}
          {message.id === editableId && (
            <button type="button" className="link-button message-edit" onClick={() => onEdit(message)}>
              Edit
            </button>
          )}
        </div>
      ))}
      {group.privately && group.direction === 'incoming' && (
        <p className="message-private-note">
          Only you and {group.displayName} read this.{' '}
          <button type="button" className="link-button" onClick={() => onReplyPrivately({ address: group.senderAddress, name: group.displayName, since: group.startTime })}>
            Reply privately
          </button>
        </p>
      )}
    </article>
  );
}
