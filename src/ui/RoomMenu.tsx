import { useId, type ReactNode } from 'react';
import { MoreIcon } from './RoomIcons';
import { useMenu } from './useMenu';

/**
 * The room's less frequent actions (invite, lock, close, pop out). A wide window shows them in the
 * header as they are; a phone folds them behind "More" so that the header stays one row (CSS decides:
 * the button shows only there). Escape or a press elsewhere folds them again (`useMenu`).
 */
export function RoomMenu({ children }: { children: ReactNode }) {
  const menu = useMenu();
  const menuId = useId();

  return (
    <div className={`room-menu${menu.open ? ' is-open' : ''}`}>
      <button ref={menu.opener} type="button" className="button room-menu-button" aria-expanded={menu.open} aria-controls={menuId} onClick={() => menu.setOpen((shown) => !shown)}>
        <MoreIcon />
        <span className="button-label">More</span>
      </button>
      <div ref={menu.panel} id={menuId} className="room-menu-items">
        {children}
      </div>
    </div>
  );
}
