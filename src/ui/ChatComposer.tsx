import { useId, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { LIMITS } from '../protocol/constants';
import type { ChatMessage } from '../protocol/entities';

interface ChatComposerProps {
  inputRef: Ref<HTMLTextAreaElement>;
  draft: string;
  /** The message being corrected, if any. */
  editing: ChatMessage | undefined;
  disabled: boolean;
  sendOnEnter: boolean;
  onDraftChange: (draft: string) => void;
  onSend: () => void;
  /** ArrowUp in an empty input: correct your last message. */
  onEditLast: () => void;
  onCancelEdit: () => void;
  onSendOnEnterChange: (sendOnEnter: boolean) => void;
}

/** The message input (SPEC §5): Enter sends unless Shift is held or sendOnEnter is off. */
export function ChatComposer({
  inputRef,
  draft,
  editing,
  disabled,
  sendOnEnter,
  onDraftChange,
  onSend,
  onEditLast,
  onCancelEdit,
  onSendOnEnterChange,
}: ChatComposerProps) {
  const hintId = useId();

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Keys that finish an input method's composition belong to it.
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' && !event.shiftKey && sendOnEnter) {
      event.preventDefault();
      onSend();
    } else if (event.key === 'ArrowUp' && draft === '' && !editing) {
      event.preventDefault();
      onEditLast();
    } else if (event.key === 'Escape' && editing) {
      event.preventDefault();
      onCancelEdit();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    onSend();
  }

  return (
    <form className={`composer${editing ? ' is-editing' : ''}`} onSubmit={submit}>
      {editing && (
        <p className="composer-editing">
          <span>Editing your message</span>
          <button type="button" className="link-button" onClick={onCancelEdit}>
            Cancel edit
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
          maxLength={LIMITS.chatBodyLength}
          placeholder={disabled ? 'You can write once you are in the room' : 'Write a message…'}
          aria-describedby={hintId}
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="button primary" disabled={disabled || draft.trim() === ''}>
          Send
        </button>
      </div>
      <div className="composer-footer">
        <p id={hintId} className="composer-hint">
          {sendOnEnter ? 'Enter sends, Shift+Enter adds a line' : 'Enter adds a line; use Send to send'}. ↑ edits your last message.
        </p>
        <label className="toggle">
          <input type="checkbox" checked={sendOnEnter} onChange={(event) => onSendOnEnterChange(event.target.checked)} />
          Send on Enter
        </label>
      </div>
    </form>
  );
}
