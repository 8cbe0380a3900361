import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { MoreIcon } from './RoomIcons';

/**
 * The room's less frequent actions (invite, lock, close, pop out). A wide window shows them in the
 * header as they are; a phone folds them behind "More" so that the header stays one row (CSS decides:
 * the button shows only there). Escape or a click elsewhere folds them again.
 */
export function RoomMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      // A dialog opened from the menu lives elsewhere in the page (a portal): clicks in it keep the menu.
      if (event.target instanceof Node && (rootRef.current?.contains(event.target) || (event.target as Element).closest?.('dialog'))) return;
      setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div ref={rootRef} className={`room-menu${open ? ' is-open' : ''}`}>
      <button ref={buttonRef} type="button" className="button room-menu-button" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((shown) => !shown)}>
        <MoreIcon />
        <span className="button-label">More</span>
      </button>
      <div id={menuId} className="room-menu-items">
        {children}
      </div>
    </div>
  );
}
