import { useRef, useState } from 'react';
import type { ChatMessage } from '../protocol/entities';
import { DangerConfirmActions } from './DangerConfirmActions';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { useActions } from './tabContext';
import { useLogFocusOnceGone } from './useLogFocusOnceGone';

/**
 * Delete, on a message of yours the room has (XEP-0424): asks first, and says what the others see.
 * Once it is deleted this button goes with its text; focus goes to the chat's log.
 */
export function DeleteMessageControl({ message, describedBy }: { message: ChatMessage; /** The message's text, which describes the button. */ describedBy: string }) {
  const actions = useActions();
  const [dialogOpen, setDialogOpen] = useState(false);
  // Made at the first Delete, then kept (its close event ends the exchange): one dialog per message of
  // yours would be hundreds of dialogs in a long chat.
  const [asked, setAsked] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The message may be deleted, and this control gone, before the dialog's close event.
  const logFocus = useLogFocusOnceGone();

  // The dialog's close event comes after the browser has put focus back on the button.
  function dialogClosed() {
    setDialogOpen(false);
    logFocus.focusNow();
  }

  function ask() {
    setAsked(true);
    setDialogOpen(true);
  }

  function remove() {
    logFocus.pressed(button.current);
    void actions.chat.retractChat(message.id).catch(() => {});
    setDialogOpen(false);
  }

  const reader = message.recipientName;
  return (
    <>
      <button ref={button} type="button" className="icon-button message-action-button" aria-label="Delete" aria-describedby={describedBy} onClick={ask}>
        <Icon size={18}>
          <path d="M5 7h14M10 7V5h4v2M7 7l1 12h8l1-12M10 11v5M14 11v5" />
        </Icon>
      </button>
      {asked && (
        <Dialog title="Delete this message?" open={dialogOpen} onClose={dialogClosed}>
          <div className="dialog-body">
            <p>
              {reader === undefined ? 'Everyone in the room then reads' : `${reader} then reads`} “This message was deleted.” in its place, except in an app that
              cannot take a message back: it keeps the message and adds a line that you deleted one.
            </p>
            <DangerConfirmActions action="Delete" onCancel={() => setDialogOpen(false)} onConfirm={remove} />
          </div>
        </Dialog>
      )}
    </>
  );
}
