import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface DialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog (the browser's own: focus is kept inside, Escape closes it), named by its title.
 * It lives at the end of the body, so a control folded away (the phone's "More" menu) keeps its dialog shown.
 */
export function Dialog({ title, open, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // In the commit that opens or closes it: closed after paint instead, a render in between (the room
  // locked as its dialog closed) could take the dialog away first, and focus with it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // Gone while open (what it was about changed: the room locked from another tab), it closes as it
  // goes, while still in the page, so the browser gives focus back to what had it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);
  return createPortal(
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      {open && (
        <>
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          {children}
        </>
      )}
    </dialog>,
    document.body,
  );
}
