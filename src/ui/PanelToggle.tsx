import type { ReactNode } from 'react';

interface PanelToggleProps {
  /** The button's name: "People", "Chat". */
  label: string;
  icon: ReactNode;
  open: boolean;
  /** The id of the panel it opens and closes. */
  panelId: string;
  onToggle: () => void;
  /**
   * Shown after the label while the panel is closed. With words it is part of the name ("Chat 2 unread");
   * without, it is for the eye only and the name stays the label.
   */
  badge?: { count: number; words?: string };
}

/** Opens and closes one of the room's side panels; a phone shows only its icon (and badge). */
export function PanelToggle({ label, icon, open, panelId, onToggle, badge }: PanelToggleProps) {
  const showBadge = !open && badge !== undefined && badge.count > 0;
  return (
    <button type="button" className={`button panel-toggle${open ? ' is-open' : ''}`} aria-expanded={open} aria-controls={panelId} onClick={onToggle}>
      {icon}
      <span className="button-label">{label}</span>
      {showBadge && ' '}
      {showBadge && (
        <span className={`badge${badge.words === undefined ? ' is-quiet' : ''}`} aria-hidden={badge.words === undefined}>
          {badge.count}
          {badge.words !== undefined && <span className="visually-hidden"> {badge.words}</span>}
        </span>
      )}
    </button>
  );
}
