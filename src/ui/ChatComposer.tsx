import { useId, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { LIMITS } from '../protocol/constants';
import type { ChatMessage } from '../protocol/entities';
import type { PrivateReader, PrivateRecipient } from './privateRecipient';
import { useMenu } from './useMenu';

interface ChatComposerProps {
  inputRef: Ref<HTMLTextAreaElement>;
  draft: string;
  /** The message being corrected, if any. */
  editing: ChatMessage | undefined;
  /** Whom a new message goes to alone (a private reply), if anyone: the room sees nothing of it. */
  privateTo: PrivateRecipient | undefined;
  /**
   * That person has left the room, so nothing is sent: 'absent', a message to them would come back;
   * 'taken', someone is in the room under their nickname now, who is not known to be them.
   */
  privateToGone: 'absent' | 'taken' | undefined;
  /** The others in the room a private message reaches: "Write privately" offers them. */
  privateReaders: readonly PrivateReader[];
  disabled: boolean;
  sendOnEnter: boolean;
  /** Others see the draft as it is typed (the preference realTimeText). */
  realTimeText: boolean;
  sounds: boolean;
  onDraftChange: (draft: string) => void;
  onSend: () => void;
  /** ArrowUp in an empty input: correct your last message. */
  onEditLast: () => void;
  onCancelEdit: () => void;
  /** "Back to the room": new messages go to everyone again. */
  onEndPrivate: () => void;
  /** One of `privateReaders` chosen: new messages go to them alone. */
  onWritePrivately: (reader: PrivateReader) => void;
  onSendOnEnterChange: (sendOnEnter: boolean) => void;
  onRealTimeTextChange: (realTimeText: boolean) => void;
  onSoundsChange: (sounds: boolean) => void;
}

/**
 * The message input (SPEC §5): Enter sends unless Shift is held or sendOnEnter is off. Below it,
 * always, whether others see your typing live and what Enter does; the chat's options (Send on Enter,
 * Show my typing live, Sounds) behind "Options", since they are set once and then only take room.
 */
export function ChatComposer({
  inputRef,
  draft,
  editing,
  privateTo,
  privateToGone,
  privateReaders,
  disabled,
  sendOnEnter,
  realTimeText,
  sounds,
  onDraftChange,
  onSend,
  onEditLast,
  onCancelEdit,
  onEndPrivate,
  onWritePrivately,
  onSendOnEnterChange,
  onRealTimeTextChange,
  onSoundsChange,
}: ChatComposerProps) {
  const hintId = useId();
  const liveId = useId();
  const tooLongId = useId();
  const optionsId = useId();
  const readersId = useId();
  const [optionsOpen, setOptionsOpen] = useState(false);
  // Offered while new messages go to the room, and someone here can read one of their own.
  const privateOffered = !privateTo && !editing && privateReaders.length > 0;
  const readers = useMenu(privateOffered);
  // Longer than a message may be: kept whole and refused with the reason, never cut short as it is
  // typed or pasted (a textarea's maxLength would drop the rest of a paste without a word).
  const tooLong = draft.length > LIMITS.chatBodyLength;
  // A correction goes where its message went; a new private message needs its person in the room.
  const unsendable = tooLong || (privateToGone !== undefined && !editing);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Keys that finish an input method's composition belong to it.
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' && !event.shiftKey && sendOnEnter) {
      event.preventDefault();
      if (!unsendable) onSend();
    } else if (event.key === 'ArrowUp' && draft === '' && !editing) {
      event.preventDefault();
      onEditLast();
    } else if (event.key === 'Escape' && editing) {
      event.preventDefault();
      onCancelEdit();
    } else if (event.key === 'Escape' && privateTo && draft === '') {
      // Not with words in the box: they were written for one person, and the room would see them
      // typed at the next key. "Back to the room" takes them there on purpose.
      event.preventDefault();
      onEndPrivate();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!unsendable) onSend();
  }

  return (
    <form className={`composer${privateTo && !editing ? ' is-private' : ''}`} onSubmit={submit}>
      {editing && (
        <p className="composer-mode">
          <span>{editing.recipientName === undefined ? 'Editing your message' : `Editing your message to ${editing.recipientName} only`}</span>
          <button type="button" className="link-button" onClick={onCancelEdit}>
            Cancel edit
          </button>
        </p>
      )}
      {privateTo && !editing && (
        <p className="composer-mode">
          {/* A live region from the start, so that their leaving is heard when it comes. */}
          <span role="status">
            {privateToGone === 'absent'
              ? `${privateTo.name} has left the room: a private message cannot reach them.`
              : privateToGone === 'taken'
                ? `${privateTo.name} left the room, and someone by that name is here now: go back to the room and choose them again to write privately.`
                : `${privateTo.reply ? 'Replying' : 'Writing'} privately to ${privateTo.name}`}
          </span>
          <button type="button" className="link-button" onClick={onEndPrivate}>
            Back to the room
          </button>
        </p>
      )}
      <div className="composer-row">
        <label htmlFor={`${hintId}-message`} className="visually-hidden">
          Message
        </label>
        <textarea
          ref={inputRef}
          id={`${hintId}-message`}
          className="composer-input"
          rows={1}
          value={draft}
          disabled={disabled}
          placeholder={disabled ? 'You can write once you are in the room' : privateTo && !editing ? `Write to ${privateTo.name} only…` : 'Write a message…'}
          aria-invalid={tooLong || undefined}
          aria-describedby={`${tooLong ? `${tooLongId} ` : ''}${liveId} ${hintId}`}
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="button primary" disabled={disabled || draft.trim() === '' || unsendable}>
          Send
        </button>
      </div>
      {tooLong && (
        <p id={tooLongId} className="form-error">
          {/* Said once as it appears, not at every key: the count beside it is read with the box. */}
          <span role="alert">Too long to send: up to {LIMITS.chatBodyLength.toLocaleString()} characters can be sent. Shorten it to send it.</span> Yours is{' '}
          {draft.length.toLocaleString()} characters long.
        </p>
      )}
      <p id={liveId} className="composer-live">
        {privateTo && !editing
          ? `Only ${privateTo.name} reads what you send now; nobody sees you type it.`
          : realTimeText
            ? 'Others see what you type as you type.'
            : 'Others see only that you are typing, and your message once you send it.'}
      </p>
      <div className="composer-footer">
        <p id={hintId} className="composer-hint">
          {sendOnEnter ? 'Enter sends, Shift+Enter adds a line' : 'Enter adds a line; use Send to send'}. ↑ edits your last message.
        </p>
        <span className="composer-footer-actions">
          {privateOffered && (
            <button ref={readers.opener} type="button" className="link-button" aria-expanded={readers.open} aria-controls={readersId} onClick={() => readers.setOpen((open) => !open)}>
              Write privately
            </button>
          )}
          <button type="button" className="link-button" aria-label="Chat options" aria-expanded={optionsOpen} aria-controls={optionsId} onClick={() => setOptionsOpen((open) => !open)}>
            Options
          </button>
        </span>
      </div>
      {readers.open && (
        <div ref={readers.panel} id={readersId} className="composer-options" role="group" aria-labelledby={`${readersId}-label`}>
          <span id={`${readersId}-label`}>Write privately to</span>
          {privateReaders.map((reader) => (
            <button
              key={reader.address}
              type="button"
              className="button"
              onClick={() => {
                readers.setOpen(false);
                onWritePrivately(reader);
              }}
            >
              {reader.name}
            </button>
          ))}
        </div>
      )}
      {optionsOpen && (
        <div id={optionsId} className="composer-options" role="group" aria-label="Chat options">
          <label className="toggle">
            <input type="checkbox" checked={sendOnEnter} onChange={(event) => onSendOnEnterChange(event.target.checked)} />
            Send on Enter
          </label>
          <label className="toggle">
            <input type="checkbox" checked={realTimeText} onChange={(event) => onRealTimeTextChange(event.target.checked)} />
            Show my typing live
          </label>
          <label className="toggle">
            <input type="checkbox" checked={sounds} onChange={(event) => onSoundsChange(event.target.checked)} />
            Sounds
          </label>
        </div>
      )}
    </form>
  );
}
