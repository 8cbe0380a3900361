import { useEffect, useRef, useState } from 'react';

/**
 * A small menu opened by a button (the phone's "More", a message's reaction picker, "Write
 * privately"), put away as menus are: a press anywhere outside the button and the panel closes it,
 * the focus staying where the press put it; Escape with the focus in either closes it and gives the
 * focus back to the button. A press in a dialog keeps it: a dialog opened from the menu lives at the
 * end of the page, outside the panel. Escape elsewhere is left to what has the focus (the message
 * box's own Escape ends a correction).
 *
 * `offered`: whether its button is there. A menu whose button goes (the message deleted under a
 * picker, the people it listed gone) closes with it, rather than coming back by itself with the button.
 */
export function useMenu(offered = true) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!offered) setOpen(false);
  }, [offered]);

  useEffect(() => {
    if (!open) return undefined;
    const within = (target: EventTarget | null): boolean => target instanceof Node && [opener.current, panel.current].some((part) => part?.contains(target));
    const onPointerDown = (event: PointerEvent) => {
      if (within(event.target) || (event.target instanceof Element && event.target.closest('dialog'))) return;
      setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !within(event.target)) return;
      event.preventDefault();
      setOpen(false);
      opener.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  /** Closes it from within (a choice made): the focus goes back to the button, as with Escape. */
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return { open: open && offered, setOpen, close, opener, panel };
}
